import { describe, expect, it } from 'vitest';
import type { DeviceReport, ReportedDevice } from './devices.repository.js';
import { DeviceStatusWriter, SUPERSEDED, type ThingReport } from './device-status-writer.js';

const rowOf = (thingName: string, report: DeviceReport): ReportedDevice => ({
  id: Number(thingName.slice(1)),
  thingName,
  settingsRevision: 0,
  printsLeft: report.printsLeft ?? 700,
  orgId: null,
  status: report.status,
  softwareVersion: report.softwareVersion ?? null,
  pingedAt: null,
  updatedAt: new Date(0),
});

/** A write that the test finishes by hand, recording each batch. */
function scriptedWrite(known: (thing: string) => boolean = () => true) {
  const batches: ThingReport[][] = [];
  const finish: (() => void)[] = [];
  const write = (reports: ThingReport[]) => {
    batches.push(reports);
    return new Promise<ReportedDevice[]>((resolve) => {
      finish.push(() =>
        resolve(reports.filter((r) => known(r.thingName)).map((r) => rowOf(r.thingName, r.report))),
      );
    });
  };
  return { batches, finish, write };
}

const flushed = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the batched status writer', () => {
  it('writes a lone report at once, and those arriving meanwhile together afterwards', async () => {
    const { batches, finish, write } = scriptedWrite((thing) => thing !== 'b9');
    const writer = new DeviceStatusWriter(write);
    const first = writer.record('b1', { status: 'idle' });
    await flushed();
    expect(batches).toHaveLength(1);
    const second = writer.record('b2', { status: 'busy' });
    const unknown = writer.record('b9', { status: 'busy' });
    await flushed();
    expect(batches).toHaveLength(1); // waits for the write in flight
    finish[0]!();
    expect(await first).toMatchObject({ id: 1, status: 'idle' });
    await flushed();
    expect(batches[1]!.map((r) => r.thingName)).toEqual(['b2', 'b9']);
    finish[1]!();
    expect(await second).toMatchObject({ id: 2, status: 'busy' });
    expect(await unknown).toBeUndefined();
  });

  it('writes only the newest of one booth’s waiting reports; the older is superseded', async () => {
    const { batches, finish, write } = scriptedWrite();
    const writer = new DeviceStatusWriter(write);
    void writer.record('b1', { status: 'idle' });
    const older = writer.record('b2', { status: 'busy', printsLeft: 10 });
    const newer = writer.record('b2', { status: 'idle', printsLeft: 9 });
    finish[0]!();
    expect(await older).toBe(SUPERSEDED);
    await flushed();
    expect(batches[1]).toEqual([{ thingName: 'b2', report: { status: 'idle', printsLeft: 9 } }]);
    finish[1]!();
    expect(await newer).toMatchObject({ status: 'idle', printsLeft: 9 });
  });

  it('cuts batches at the limit and, not retrying, fails only the batch whose write failed', async () => {
    const batches: string[][] = [];
    let calls = 0;
    const writer = new DeviceStatusWriter(
      async (reports) => {
        batches.push(reports.map((r) => r.thingName));
        calls += 1;
        if (calls === 2) throw new Error('database gone');
        return reports.map((r) => rowOf(r.thingName, r.report));
      },
      2,
      { firstMs: 1, maxMs: 1, giveUpMs: 0 },
    );
    const results = ['b1', 'b2', 'b3', 'b4', 'b5', 'b6'].map((thing) =>
      writer.record(thing, { status: 'idle' }).then(
        (row) => (row === SUPERSEDED || !row ? row : row.thingName),
        (error: Error) => error.message,
      ),
    );
    expect(await Promise.all(results)).toEqual([
      'b1',
      'database gone',
      'database gone',
      'b4',
      'b5',
      'b6',
    ]);
    expect(batches).toEqual([['b1'], ['b2', 'b3'], ['b4', 'b5'], ['b6']]);
  });

  it('writes a failed batch again after a pause, each report unless a newer one came', async () => {
    const batches: ThingReport[][] = [];
    let down = true;
    let failed!: () => void;
    const failedOnce = new Promise<void>((resolve) => (failed = resolve));
    const writer = new DeviceStatusWriter(
      async (reports) => {
        batches.push(reports);
        if (down) {
          failed();
          throw Object.assign(new Error('the database system is starting up'), { code: '57P03' });
        }
        return reports.map((r) => rowOf(r.thingName, r.report));
      },
      500,
      { firstMs: 20, maxMs: 20, giveUpMs: 60_000 },
    );
    const idle = writer.record('b1', { status: 'idle' });
    const older = writer.record('b2', { status: 'updating' });
    await failedOnce;
    // While the write failed: a newer report of b2 replaces the older, b1's stays.
    const newer = writer.record('b2', { status: 'idle', printsLeft: 5 });
    down = false;
    expect(await idle).toMatchObject({ thingName: 'b1', status: 'idle' });
    expect(await newer).toMatchObject({ thingName: 'b2', status: 'idle', printsLeft: 5 });
    expect(await older).toBe(SUPERSEDED);
    const last = batches.at(-1)!.map((r) => [r.thingName, r.report.status]);
    expect(last.sort()).toEqual([
      ['b1', 'idle'],
      ['b2', 'idle'],
    ]);
  });

  it('fails a report at once when the write fails for another reason than the database away', async () => {
    let writes = 0;
    const writer = new DeviceStatusWriter(async () => {
      writes += 1;
      throw Object.assign(new Error('column "x" does not exist'), { code: '42703' });
    });
    await expect(writer.record('b1', { status: 'idle' })).rejects.toThrow('does not exist');
    expect(writes).toBe(1);
  });

  it('gives a report up once its writes have failed for giveUpMs', async () => {
    let clock = 0;
    let writes = 0;
    const writer = new DeviceStatusWriter(
      async () => {
        writes += 1;
        clock += 400;
        throw Object.assign(new Error('database gone'), { code: '57P01' });
      },
      500,
      { firstMs: 1, maxMs: 1, giveUpMs: 1000 },
      () => clock,
    );
    await expect(writer.record('b1', { status: 'idle' })).rejects.toThrow('database gone');
    // Failed first at 400; again at 800 and 1200 (given up: 800 after the first failure).
    expect(writes).toBe(4);
  });
});
