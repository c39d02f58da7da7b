import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, rowsOf } from '../../src/db/client.js';
import { REQUIRE_POSTGRES, TEST_POSTGRES_URL } from '../databases.js';
import { openTemporaryPostgres, postgresReachable } from '../temporary-postgres.js';

const postgres = REQUIRE_POSTGRES || (await postgresReachable(TEST_POSTGRES_URL));

const eventually = async (check: () => boolean | Promise<boolean>, what: string, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** A channel's listener as the wall cache and the live feeds hold one: payloads and states. */
function recorder() {
  const payloads: string[] = [];
  const states: boolean[] = [];
  return {
    payloads,
    states,
    onPayload: (payload: string) => payloads.push(payload),
    onState: (listening: boolean) => states.push(listening),
  };
}

/**
 * Every LISTEN of an instance (the wall cache, the live status stream, the kiosk walls) on one
 * PostgreSQL connection (`PostgresListener`), opened with the first and ended with the last,
 * every channel listened to again after a loss.
 */
describe.skipIf(!postgres)('LISTEN on PostgreSQL', () => {
  let database: DatabaseHandle;

  beforeEach(async () => {
    database = await openTemporaryPostgres(TEST_POSTGRES_URL);
  });
  afterEach(async () => {
    await database.close();
  });

  const notify = (channel: string, payload: string) =>
    database.db.execute(sql`select pg_notify(${channel}, ${payload})`);
  /** The backends of this database whose last statement was a LISTEN or UNLISTEN. */
  const listeners = async () =>
    rowsOf<{ pid: number; query: string }>(
      await database.db.execute(
        sql`select pid, query from pg_stat_activity
            where datname = current_database() and query ~* '^\\s*(un)?listen '`,
      ),
    );

  it('listens on every channel through one connection, each listener hearing its own', async () => {
    const wall = recorder();
    const status = recorder();
    const statusAgain = recorder();
    const stopWall = await database.listen('wall_changed', wall.onPayload, wall.onState);
    const stopStatus = await database.listen('device_status', status.onPayload, status.onState);
    const stopStatusAgain = await database.listen(
      'device_status',
      statusAgain.onPayload,
      statusAgain.onState,
    );
    expect([wall.states, status.states, statusAgain.states]).toEqual([[true], [true], [true]]);
    expect(await listeners()).toHaveLength(1);

    await notify('wall_changed', 'w1');
    await notify('device_status', 's1');
    await eventually(() => status.payloads.length === 1 && wall.payloads.length === 1, 'both');
    await eventually(() => statusAgain.payloads.length === 1, 'the second status listener');
    expect([wall.payloads, status.payloads, statusAgain.payloads]).toEqual([
      ['w1'],
      ['s1'],
      ['s1'],
    ]);

    // One listener of a channel stops: the other still hears it.
    await stopStatus();
    await notify('device_status', 's2');
    await eventually(() => statusAgain.payloads.length === 2, 'the remaining status listener');
    expect(status.payloads).toEqual(['s1']);

    // The channel's last listener stops: UNLISTEN, and the other channel goes on.
    await stopStatusAgain();
    await notify('device_status', 's3');
    await notify('wall_changed', 'w2');
    await eventually(() => wall.payloads.length === 2, 'the wall after the status stopped');
    expect(statusAgain.payloads).toEqual(['s1', 's2']);

    // The last listener of all stops: the connection ends.
    await stopWall();
    await eventually(async () => (await listeners()).length === 0, 'the connection ended');
  });

  it('after the connection is lost, every listener hears false, then true, then its channel again', async () => {
    const wall = recorder();
    const status = recorder();
    const stopWall = await database.listen('wall_changed', wall.onPayload, wall.onState);
    const stopStatus = await database.listen('device_status', status.onPayload, status.onState);
    const [backend] = await listeners();
    expect(backend).toBeDefined();

    await database.db.execute(sql`select pg_terminate_backend(${backend!.pid})`);
    await eventually(
      () => wall.states.length === 3 && status.states.length === 3,
      'lost and listening again',
    );
    expect([wall.states, status.states]).toEqual([
      [true, false, true],
      [true, false, true],
    ]);
    const after = await listeners();
    expect(after).toHaveLength(1);
    expect(after[0]!.pid).not.toBe(backend!.pid);

    await notify('wall_changed', 'w');
    await notify('device_status', 's');
    await eventually(
      () => wall.payloads.length === 1 && status.payloads.length === 1,
      'both channels after the reconnection',
    );
    await stopWall();
    await stopStatus();
  });

  it('a listener that starts while the connection is being made again is listened to as well', async () => {
    const wall = recorder();
    const stopWall = await database.listen('wall_changed', wall.onPayload, wall.onState);
    const [backend] = await listeners();
    await database.db.execute(sql`select pg_terminate_backend(${backend!.pid})`);
    await eventually(() => wall.states.length === 2, 'the loss heard');

    const kiosk = recorder();
    const stopKiosk = await database.listen('kiosk_wall', kiosk.onPayload, kiosk.onState);
    expect(kiosk.states).toEqual([true]);
    await eventually(() => wall.states.length === 3, 'the wall listening again');
    expect(wall.states).toEqual([true, false, true]);
    expect(await listeners()).toHaveLength(1);

    await notify('wall_changed', 'w');
    await notify('kiosk_wall', 'k');
    await eventually(
      () => wall.payloads.length === 1 && kiosk.payloads.length === 1,
      'both channels',
    );
    await stopWall();
    await stopKiosk();
  });
});
