import { randomBytes } from 'node:crypto';
import {
  DEVICE_MESSAGES,
  type DeviceCommandMessage,
  type DeviceStatusMessage,
  mqttTopics,
} from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle } from '../../src/db/client.js';
import { openPglite } from '../databases.js';
import { devices } from '../../src/db/schema.js';
import { DevicesRepository } from '../../src/modules/devices/devices.repository.js';
import { createDeviceLink } from '../../src/modules/mqtt/create-device-link.js';
import { MqttDeviceLink } from '../../src/modules/mqtt/mqtt-device-link.js';
import { bearer, eventually, signedIn, startApp, testConfig } from '../harness.js';
import { connectAsBooth, MOSQUITTO_URL, mosquittoAvailable } from '../mqtt-fixtures.js';

/*
 * A ping of a booth the broker knows to be away answers at once (issue 20, item 12). The command
 * timeout is ten minutes and every test five seconds: a ping that waited for the timeout fails
 * the test instead of passing slowly.
 */
const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
const NEVER_MS = 600_000;
const TEST_MS = 5_000;

/** A booth that publishes a retained status and answers pings; `crash` drops it without goodbye. */
async function liveBooth(url: string, thingName: string, secret: string) {
  const client: MqttClient = await connectAsBooth(url, thingName, secret);
  const received: DeviceCommandMessage[] = [];
  client.on('message', (topic, payload) => {
    if (topic !== mqttTopics.commands(thingName)) return;
    const command = JSON.parse(payload.toString()) as DeviceCommandMessage;
    received.push(command);
    client.publish(command.reply_to, JSON.stringify({ id: command.id, status: 'idle' }), {
      qos: 1,
    });
  });
  await client.subscribeAsync(mqttTopics.commands(thingName), { qos: 1 });
  const report: DeviceStatusMessage = {
    status: 'idle',
    software_version: '1.2.3',
    at: new Date().toISOString().slice(0, 19),
  };
  await client.publishAsync(mqttTopics.status(thingName), JSON.stringify(report), {
    qos: 1,
    retain: true,
  });
  return { client, received, crash: () => client.stream.destroy() };
}

describe('ping of a booth that is away, on the embedded broker', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let brokerUrl: string;
  let superToken: string;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    database = await openPglite();
    const superPhone = '+919999922222';
    const repository = new DevicesRepository(database.db);
    const config = testConfig({ MQTT_PORT: '0', MQTT_HOST: '127.0.0.1' });
    const { link } = createDeviceLink(config, (thing) => repository.secretHashOf(thing), log);
    ({ app } = await startApp(
      database,
      {
        SUPER_USER_PHONES: superPhone,
        DEVICE_COMMAND_TIMEOUT_MS: String(NEVER_MS),
        OTP_SEND_LIMIT_PER_IP: '1000',
      },
      { deviceLink: link },
    ));
    brokerUrl = link.url;
    superToken = (await signedIn(app, 'enterprise', superPhone)).token;
  });
  afterAll(async () => {
    for (const client of clients) await client.endAsync(true).catch(() => undefined);
    await app.close();
    await database.close();
  });

  async function register() {
    const response = await app.inject({
      method: 'POST',
      url: '/api/enterprise/devices',
      headers: bearer(superToken),
    });
    return response.json<{ id: number; thing_name: string; secret: string }>();
  }
  const ping = (id: number) =>
    app.inject({
      method: 'POST',
      url: `/api/enterprise/devices/${id}/ping`,
      headers: bearer(superToken),
    });
  const statusOf = async (id: number) =>
    (await database.db.select().from(devices).where(eq(devices.id, id)))[0]!.status;
  const offlineAnswer = { message: DEVICE_MESSAGES.noAnswer, code: 'service_unavailable' };

  it(
    'answers at once for a booth that never connected, with the same 503 as a silent one',
    async () => {
      const device = await register();
      const response = await ping(device.id);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual(offlineAnswer);
      expect(await statusOf(device.id)).toBe('offline');
    },
    TEST_MS,
  );

  it(
    'answers at once once the last will says the booth dropped, and asks it again when back',
    async () => {
      const device = await register();
      const booth = await liveBooth(brokerUrl, device.thing_name, device.secret);
      clients.push(booth.client);
      await eventually(
        () => statusOf(device.id),
        (status) => status === 'idle',
      );
      expect((await ping(device.id)).json()).toMatchObject({ status: 'idle' });
      expect(booth.received).toHaveLength(1);

      booth.crash();
      await eventually(
        () => statusOf(device.id),
        (status) => status === 'offline',
      );
      const away = await ping(device.id);
      expect(away.statusCode).toBe(503);
      expect(away.json()).toEqual(offlineAnswer);

      // Back online: the ping goes to the booth again.
      const back = await liveBooth(brokerUrl, device.thing_name, device.secret);
      clients.push(back.client);
      const answered = await ping(device.id);
      expect(answered.statusCode).toBe(200);
      expect(answered.json()).toMatchObject({ status: 'idle' });
      expect(back.received).toHaveLength(1);
    },
    TEST_MS * 2,
  );
});

describe.skipIf(!mosquittoAvailable)('a booth that is away, on an external broker', () => {
  const thing = `fb-t${randomBytes(6).toString('hex')}`;
  let link: MqttDeviceLink;

  beforeAll(async () => {
    link = new MqttDeviceLink({ url: MOSQUITTO_URL, log });
    await link.start();
  });
  afterAll(async () => {
    await link.stop();
    const cleaner = await mqtt.connectAsync(MOSQUITTO_URL, { reconnectPeriod: 0 });
    await cleaner.publishAsync(mqttTopics.status(thing), '', { retain: true, qos: 1 });
    await cleaner.endAsync();
  });

  it('is known from the retained status and the last will', async () => {
    const booth = await liveBooth(MOSQUITTO_URL, thing, 'unused-on-anonymous-broker');
    await eventually(
      () => link.isAway(thing),
      (away) => !away,
    );
    booth.crash();
    await eventually(
      () => link.isAway(thing),
      (away) => away,
    );
    // A second instance learns it from the retained last will alone.
    const later = new MqttDeviceLink({ url: MOSQUITTO_URL, log });
    await later.start();
    try {
      expect(await eventually(() => later.isAway(thing), Boolean)).toBe(true);
    } finally {
      await later.stop();
    }
  });
});
