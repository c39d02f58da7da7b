import { describe, expect, it } from 'vitest';
import { FakeChannel, FIXED_NOW, linkTo, memoryStore, recordingLog } from '../test/fakes.js';
import { StatusBoard } from './status.js';

function board(channel: FakeChannel | null = new FakeChannel()) {
  const store = memoryStore({ prints_left: 321, settings_revision: 4, software_version: '2.1.0' });
  const log = recordingLog();
  return {
    store,
    log,
    channel,
    board: new StatusBoard({
      link: linkTo(channel ?? undefined),
      store,
      now: () => FIXED_NOW,
      log,
    }),
  };
}

describe('StatusBoard', () => {
  it('reports the status with version, prints left, settings revision and a UTC time', () => {
    const { board: status } = board();
    status.online();
    expect(status.message()).toEqual({
      status: 'idle',
      software_version: '2.1.0',
      prints_left: 321,
      settings_revision: 4,
      at: '2025-05-14T10:20:30',
    });
  });

  it('starts offline, comes online idle, and stays offline once stopped', async () => {
    const { board: status, channel } = board();
    expect(status.current).toBe('offline');
    await status.set('processing');
    expect(status.current).toBe('offline');
    expect(channel!.statuses).toEqual([]);
    status.online();
    expect(status.current).toBe('idle');
    await status.set('uploading');
    expect(channel!.statuses.map((s) => s.status)).toEqual(['uploading']);
    status.offline();
    status.online();
    expect(status.current).toBe('idle');
  });

  it('holds one job at a time: busy until it ends, then idle', async () => {
    const { board: status } = board();
    status.online();
    expect(status.free).toBe(true);
    const end = status.claim('ready');
    expect([status.current, status.busy, status.free]).toEqual(['ready', true, false]);
    let ended = false;
    const waiting = status.idle().then(() => (ended = true));
    await Promise.resolve();
    expect(ended).toBe(false);
    end();
    await waiting;
    expect([status.current, status.busy, status.free]).toEqual(['idle', false, true]);
  });

  it('is not free while a status other than idle is current', () => {
    const { board: status } = board();
    expect(status.free).toBe(false);
    status.online();
    status.claim('updating')();
    expect(status.free).toBe(true);
  });

  it('a job that ends after the booth stopped leaves it offline', () => {
    const { board: status } = board();
    status.online();
    const end = status.claim('ready');
    status.offline();
    end();
    expect(status.current).toBe('offline');
    expect(status.busy).toBe(false);
  });

  it('reports quietly: nothing while disconnected, a failed report only logged', async () => {
    const { board: status, channel, log } = board();
    status.online();
    channel!.connected = false;
    await status.publishQuietly();
    expect(channel!.statuses).toEqual([]);
    channel!.connected = true;
    channel!.failNext = new Error('broker gone');
    await expect(status.publishQuietly()).resolves.toBeUndefined();
    expect(log.messages('warn')).toEqual(['status report failed']);
    await status.publishQuietly();
    expect(channel!.statuses).toHaveLength(1);
  });

  it('reports nothing before the connection exists', async () => {
    const { board: status } = board(null);
    status.online();
    await expect(status.set('ready')).resolves.toBeUndefined();
    expect(status.current).toBe('ready');
  });

  it('reports queue changes soon, at most once per gap, those close together in one', async () => {
    const { board: status, channel } = board();
    status.online();
    status.reportSoon();
    status.reportSoon();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(channel!.statuses).toHaveLength(1);
    // Within the 5 s gap after that report: held back, not dropped.
    status.reportSoon();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(channel!.statuses).toHaveLength(1);
    status.offline();
  });

  it('holds reports for a load test: those on their way counted first, the latest state sent on release', async () => {
    const { board: status, channel } = board();
    status.online();
    let open!: () => void;
    channel!.gate = new Promise((resolve) => {
      open = resolve;
    });
    const first = status.set('processing');
    let held = false;
    const holding = status.hold().then(() => {
      held = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    // The report on its way is not yet taken by the broker: hold waits for it.
    expect(held).toBe(false);
    open();
    await Promise.all([first, holding]);
    expect(status.reportsSent).toBe(1);
    // Held: nothing leaves, however often the status changes.
    await status.set('idle');
    await status.publishQuietly();
    expect(channel!.started).toBe(1);
    expect(status.reportsSent).toBe(1);
    status.release();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(channel!.statuses.map((message) => message.status)).toEqual(['processing', 'idle']);
    expect(status.reportsSent).toBe(2);
    // Nothing asked for during the next hold: nothing sent on its release.
    await status.hold();
    status.release();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(status.reportsSent).toBe(2);
  });

  it('sends the health with the status when it has one', () => {
    const store = memoryStore({ prints_left: 1, settings_revision: 0, software_version: '1' });
    const health = { queue: { items: 3, bytes: 10, oldest_at: null, over_limit: false } };
    const status = new StatusBoard({
      link: linkTo(new FakeChannel()),
      store,
      health: { snapshot: () => health, refresh: () => Promise.resolve() },
      now: () => FIXED_NOW,
      log: recordingLog(),
    });
    expect(status.message().health).toEqual(health);
  });
});
