import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mqttTopics } from '@flashbooth/contracts';
import type { FastifyInstance } from 'fastify';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { devices, softwareChannels, softwareReleases } from '../../src/db/schema.js';
import { RolloutsRepository } from '../../src/modules/rollouts/rollouts.repository.js';
import { sharedDatabaseTargets } from '../databases.js';
import { newPhone, sleep } from '../harness.js';
import { MOSQUITTO_URL, mosquittoAvailable } from '../mqtt-fixtures.js';
import {
  boothsOnChannel,
  channelWithRelease,
  type FakeBooth,
  type Instance,
  readRollout,
  received,
  rolloutIn,
  startInstance,
  startRollout,
} from './rollout-suite.js';

/**
 * Several server instances on one database and one broker (Mosquitto), and a server restarted
 * mid-rollout: the booths' states in the database are all there is, so a booth is sent its
 * update once.
 */
describe.each(sharedDatabaseTargets)('rollouts across instances on $name', ({ name, open }) => {
  let database: DatabaseHandle | undefined;
  const instances: Instance[] = [];
  const booths: FakeBooth[] = [];

  afterEach(async () => {
    for (const booth of booths) await booth.close();
    for (const instance of instances) await instance.app.close();
    if (booths.length > 0) {
      // Clear what this test left retained on the shared broker.
      const cleaner = await mqtt.connectAsync(MOSQUITTO_URL, { reconnectPeriod: 0 });
      for (const booth of booths) {
        await cleaner.publishAsync(mqttTopics.status(booth.thingName), '', {
          retain: true,
          qos: 1,
        });
      }
      await cleaner.endAsync();
    }
    booths.length = 0;
    instances.length = 0;
    await database?.close();
    database = undefined;
  });

  /** Instances share the database, the broker, the object store folder and the super user. */
  function cluster(extra: Record<string, string> = {}) {
    const env = {
      MQTT_URL: MOSQUITTO_URL,
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'flashbooth-rollout-')),
      ...extra,
    };
    const superPhone = newPhone();
    return async () => {
      const instance = await startInstance(database!, env, superPhone);
      instances.push(instance);
      return instance;
    };
  }

  it.skipIf(!mosquittoAvailable)(
    'two instances driving one rollout send each booth its update once',
    async () => {
      database = await open();
      const start = cluster();
      const [first, second] = [await start(), await start()];
      const channel = await channelWithRelease(first.app, first.token);
      const made = await boothsOnChannel(
        first,
        database,
        MOSQUITTO_URL,
        channel.channelId,
        Array(6).fill('install'),
      );
      booths.push(...made);

      const started = await startRollout(second, channel.channelId);
      expect(started.waves.map((wave) => wave.devices.length)).toEqual([1, 2, 3]);
      const done = await rolloutIn(first, started.id, (r) => r.state === 'completed');
      expect(done.counts.updated).toBe(6);
      for (const booth of made) expect(booth.commands).toHaveLength(1);
      // Both instances answer for the same rows: the second sees what the first recorded.
      expect((await readRollout(second, started.id)).counts.updated).toBe(6);
    },
    // Two apps on one PGlite share its single connection: slow on a busy machine.
    60_000,
  );

  it.skipIf(!mosquittoAvailable)(
    'a restarted server resumes from the database and does not send a booth its update again',
    async () => {
      database = await open();
      const start = cluster();
      let current: FastifyInstance;
      const first = await start();
      current = first.app;
      const channel = await channelWithRelease(first.app, first.token);
      const made = await boothsOnChannel(
        first,
        database,
        MOSQUITTO_URL,
        channel.channelId,
        ['hold', 'install', 'install', 'install'],
        () => current,
      );
      booths.push(...made);
      const started = await startRollout(first, channel.channelId);
      await received(made[0]!);

      // The server goes away while the first booth installs; a new one starts, and the booth
      // finishes and reports its new version, but the server that asked is not there for the
      // answer.
      await first.app.close();
      instances.splice(instances.indexOf(first), 1);
      const second = await start();
      current = second.app;
      await made[0]!.release(false);
      const done = await rolloutIn(second, started.id, (r) => r.state === 'completed');
      expect(done.counts.updated).toBe(4);
      for (const booth of made) expect(booth.commands).toHaveLength(1);
      expect(done.waves[0]!.devices[0]).toMatchObject({ state: 'updated', attempts: 1 });
    },
  );

  it.skipIf(!mosquittoAvailable)(
    'a claim left by a dead server is re-sent only after the update timeout, by its version',
    async () => {
      database = await open();
      // A long update wait, so only the clock decides when the claim counts as abandoned.
      const start = cluster({ DEVICE_UPDATE_TIMEOUT_MS: '60000' });
      let current: FastifyInstance;
      const first = await start();
      current = first.app;
      const channel = await channelWithRelease(first.app, first.token);
      const made = await boothsOnChannel(
        first,
        database,
        MOSQUITTO_URL,
        channel.channelId,
        ['hold', 'install'],
        () => current,
      );
      booths.push(...made);
      const started = await startRollout(first, channel.channelId);
      await received(made[0]!);
      await first.app.close();
      instances.splice(instances.indexOf(first), 1);

      // The booth lost the command (it never installs it). The new server does not send it
      // again at once: the claim may still be answered until the update timeout has passed.
      made[0]!.mode = 'install';
      const second = await start();
      current = second.app;
      await sleep(400);
      expect(made[0]!.commands).toHaveLength(1);
      expect((await readRollout(second, started.id)).waves[0]!.devices[0]).toMatchObject({
        state: 'updating',
        attempts: 1,
      });
      // Past the update wait: the booth has not reported the version, so it is sent again.
      second.testApp.clock.advance(61);
      const done = await rolloutIn(second, started.id, (r) => r.state === 'completed');
      expect(made[0]!.commands).toHaveLength(2);
      expect(made[1]!.commands).toHaveLength(1);
      expect(done.waves[0]!.devices[0]).toMatchObject({ state: 'updated', attempts: 2 });
    },
  );

  it(`concurrent claims on ${name} never hand one booth to two claimers`, async () => {
    database = await open();
    await migrate(database.db);
    const db = database.db;
    const [release] = await db
      .insert(softwareReleases)
      .values({ version: `claim-${Date.now()}` })
      .returning();
    const [channel] = await db
      .insert(softwareChannels)
      .values({ name: 'Claims', releaseId: release!.id })
      .returning();
    const rows = await db
      .insert(devices)
      .values(
        Array.from({ length: 40 }, (_, i) => ({
          name: `Booth ${i}`,
          thingName: `fb-claim${Date.now()}${i}`,
          secretHash: 'x',
          status: 'idle',
          softwareChannelId: channel!.id,
        })),
      )
      .returning({ id: devices.id });
    const ids = rows.map((row) => row.id);
    const repository = new RolloutsRepository(db);
    const id = await repository.create({
      channelId: channel!.id,
      releaseId: release!.id,
      version: release!.version,
      maxFailures: 0,
      startedBy: null,
      waves: [ids],
      now: new Date(),
    });

    // Eight claimers (eight pooled connections on PostgreSQL) at once, five booths each.
    const claimers = Array.from({ length: 8 }, () => new RolloutsRepository(db));
    const claims = await Promise.all(
      claimers.map((claimer, i) =>
        claimer.claim({ id, channelId: channel!.id, wave: 0 }, 5, `claimer-${i}`, new Date()),
      ),
    );
    const claimed = claims.flat().map((booth) => booth.deviceId);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.length).toBe(40);
    expect(claims.flat().every((booth) => booth.attempts === 1)).toBe(true);
    // Nothing is left to claim.
    expect(
      await repository.claim({ id, channelId: channel!.id, wave: 0 }, 50, 'late', new Date()),
    ).toEqual([]);
  });
});
