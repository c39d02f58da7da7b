import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, rowsOf } from '../../src/db/client.js';
import { REQUIRE_POSTGRES, TEST_POSTGRES_URL } from '../databases.js';
import { eventually } from '../harness.js';
import { openTemporaryPostgres, postgresReachable } from '../temporary-postgres.js';

const postgres = REQUIRE_POSTGRES || (await postgresReachable(TEST_POSTGRES_URL));

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
  /** A listener as the wall cache and the live feeds hold one: its payloads, states and stop. */
  const listenOn = async (channel: string) => {
    const payloads: string[] = [];
    const states: boolean[] = [];
    const stop = await database.listen(
      channel,
      (payload) => payloads.push(payload),
      (listening) => states.push(listening),
    );
    return { payloads, states, stop };
  };
  /** Ends the LISTEN connection from PostgreSQL's side (a restart, a failover); its pid. */
  const terminateListener = async () => {
    const [backend] = await listeners();
    expect(backend).toBeDefined();
    await database.db.execute(sql`select pg_terminate_backend(${backend!.pid})`);
    return backend!.pid;
  };
  /** The backends of this database whose last statement was a LISTEN or UNLISTEN. */
  const listeners = async () =>
    rowsOf<{ pid: number; query: string }>(
      await database.db.execute(
        sql`select pid, query from pg_stat_activity
            where datname = current_database() and query ~* '^\\s*(un)?listen '`,
      ),
    );

  it('listens on every channel through one connection, each listener hearing its own', async () => {
    const wall = await listenOn('wall_changed');
    const status = await listenOn('device_status');
    const statusAgain = await listenOn('device_status');
    expect([wall.states, status.states, statusAgain.states]).toEqual([[true], [true], [true]]);
    expect(await listeners()).toHaveLength(1);

    await notify('wall_changed', 'w1');
    await notify('device_status', 's1');
    await eventually(() => status.payloads.length === 1 && wall.payloads.length === 1, Boolean);
    await eventually(() => statusAgain.payloads.length === 1, Boolean);
    expect([wall.payloads, status.payloads, statusAgain.payloads]).toEqual([
      ['w1'],
      ['s1'],
      ['s1'],
    ]);

    // One listener of a channel stops: the other still hears it.
    await status.stop();
    await notify('device_status', 's2');
    await eventually(() => statusAgain.payloads.length === 2, Boolean);
    expect(status.payloads).toEqual(['s1']);

    // The channel's last listener stops: UNLISTEN, and the other channel goes on.
    await statusAgain.stop();
    await notify('device_status', 's3');
    await notify('wall_changed', 'w2');
    await eventually(() => wall.payloads.length === 2, Boolean);
    expect(statusAgain.payloads).toEqual(['s1', 's2']);

    // The last listener of all stops: the connection ends.
    await wall.stop();
    await eventually(async () => (await listeners()).length === 0, Boolean);
  });

  it('after the connection is lost, every listener hears false, then true, then its channel again', async () => {
    const wall = await listenOn('wall_changed');
    const status = await listenOn('device_status');
    const lostPid = await terminateListener();
    await eventually(() => wall.states.length === 3 && status.states.length === 3, Boolean);
    expect([wall.states, status.states]).toEqual([
      [true, false, true],
      [true, false, true],
    ]);
    const after = await listeners();
    expect(after).toHaveLength(1);
    expect(after[0]!.pid).not.toBe(lostPid);

    await notify('wall_changed', 'w');
    await notify('device_status', 's');
    await eventually(() => wall.payloads.length === 1 && status.payloads.length === 1, Boolean);
    await wall.stop();
    await status.stop();
  });

  it('a listener that starts while the connection is being made again is listened to as well', async () => {
    const wall = await listenOn('wall_changed');
    await terminateListener();
    await eventually(() => wall.states.length === 2, Boolean);

    const kiosk = await listenOn('kiosk_wall');
    expect(kiosk.states).toEqual([true]);
    await eventually(() => wall.states.length === 3, Boolean);
    expect(wall.states).toEqual([true, false, true]);
    expect(await listeners()).toHaveLength(1);

    await notify('wall_changed', 'w');
    await notify('kiosk_wall', 'k');
    await eventually(() => wall.payloads.length === 1 && kiosk.payloads.length === 1, Boolean);
    await wall.stop();
    await kiosk.stop();
  });
});
