import { randomUUID } from 'node:crypto';
import { DeviceErrorReportSchema } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { FakeChannel, FIXED_NOW, linkTo, memoryStore, recordingLog } from '../test/fakes.js';
import { MAX_PENDING_REPORTS, ReportOutbox } from './report-outbox.js';

function outboxWith(channel: FakeChannel) {
  const store = memoryStore();
  const log = recordingLog();
  const outbox = new ReportOutbox({ link: linkTo(channel), store, now: () => FIXED_NOW, log });
  return { store, log, outbox };
}

const offline = () => Object.assign(new FakeChannel(), { connected: false });

/** Lets the outbox's background sends run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('ReportOutbox', () => {
  it('makes a report the contract accepts, naming the capture and what was delivered', async () => {
    const channel = new FakeChannel();
    const { outbox, log } = outboxWith(channel);
    const captureId = randomUUID();
    const report = outbox.report('the printer did not print', { captureId, delivered: [41] });
    expect(DeviceErrorReportSchema.safeParse(report).success).toBe(true);
    expect(report).toMatchObject({
      message: 'the printer did not print',
      capture_id: captureId,
      delivered_media_ids: [41],
      at: '2025-05-14T10:20:30',
    });
    expect(log.messages('warn')).toEqual(['the printer did not print']);
    await settle();
    expect(channel.reports).toEqual([report]);
    expect(outbox.pending).toEqual([]);
  });

  it('keeps reports (and saves them) while disconnected, then sends them oldest first', async () => {
    const channel = offline();
    const { outbox, store } = outboxWith(channel);
    outbox.report('first');
    outbox.report('second');
    await settle();
    expect(outbox.pending.map((r) => r.message)).toEqual(['first', 'second']);
    expect(store.saves).toBeGreaterThanOrEqual(2);
    expect(channel.reports).toEqual([]);

    channel.connected = true;
    await outbox.flush();
    expect(channel.reports.map((r) => r.message)).toEqual(['first', 'second']);
    expect(outbox.pending).toEqual([]);
    expect(store.state.pending_reports).toEqual([]);
  });

  it(`keeps at most ${MAX_PENDING_REPORTS}, dropping the oldest with an error in the log`, () => {
    const { outbox, log } = outboxWith(offline());
    for (let n = 1; n <= MAX_PENDING_REPORTS + 2; n += 1) outbox.report(`report ${n}`);
    expect(outbox.pending).toHaveLength(MAX_PENDING_REPORTS);
    expect(outbox.pending[0]?.message).toBe('report 3');
    expect(log.messages('error')).toEqual([
      'too many unsent error reports: dropped the oldest',
      'too many unsent error reports: dropped the oldest',
    ]);
  });

  it('keeps a report whose publish failed for the next connection', async () => {
    const channel = offline();
    const { outbox, log } = outboxWith(channel);
    outbox.report('lens cap stuck');
    channel.connected = true;
    channel.failNext = new Error('connection lost');
    await outbox.flush();
    expect(outbox.pending.map((r) => r.message)).toEqual(['lens cap stuck']);
    expect(log.messages('warn')).toContain(
      'error reports not sent yet; kept for the next connection',
    );
    await outbox.flush();
    expect(channel.reports.map((r) => r.message)).toEqual(['lens cap stuck']);
  });

  it('sends one report at a time, and one made during a send in the same round', async () => {
    const channel = new FakeChannel();
    let open!: () => void;
    channel.gate = new Promise<void>((resolve) => (open = resolve));
    const { outbox } = outboxWith(channel);
    outbox.report('one');
    outbox.report('two');
    await settle();
    // The second waits until the broker has acknowledged the first.
    expect(channel.started).toBe(1);
    expect(channel.reports).toEqual([]);
    open();
    await settle();
    await outbox.flush();
    expect(channel.reports.map((r) => r.message)).toEqual(['one', 'two']);
    expect(outbox.pending).toEqual([]);
  });
});
