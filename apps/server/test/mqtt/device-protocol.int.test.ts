import { randomBytes, randomUUID } from 'node:crypto';
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
import { deviceErrors, devices } from '../../src/db/schema.js';
import { AppError } from '../../src/errors.js';
import { DevicesRepository } from '../../src/modules/devices/devices.repository.js';
import { createDeviceLink } from '../../src/modules/mqtt/create-device-link.js';
import { MqttDeviceLink } from '../../src/modules/mqtt/mqtt-device-link.js';
import { bearer, eventually, signedIn, sleep, startApp, testConfig } from '../harness.js';
import { connectAsBooth, MOSQUITTO_URL, mosquittoAvailable } from '../mqtt-fixtures.js';

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
const TIMEOUT_MS = 300;

interface FakeDevice {
  client: MqttClient;
  /** Commands the booth received. */
  received: DeviceCommandMessage[];
  /** Drops the connection without DISCONNECT, as a booth losing power does. */
  crash: () => void;
}

/**
 * A tiny booth: connects with its credentials (client id = thing name), sets its last will,
 * publishes a retained status, and answers ping unless told to stay silent.
 */
async function fakeDevice(
  url: string,
  thingName: string,
  secret: string,
  { answer = true, status = 'idle' } = {},
): Promise<FakeDevice> {
  const client = await connectAsBooth(url, thingName, secret);
  const received: DeviceCommandMessage[] = [];
  client.on('message', (topic, payload) => {
    if (topic !== mqttTopics.commands(thingName)) return;
    const command = JSON.parse(payload.toString()) as DeviceCommandMessage;
    received.push(command);
    if (answer && command.command === 'ping') {
      client.publish(
        command.reply_to,
        JSON.stringify({ id: command.id, status, software_version: '1.2.3', prints_left: 640 }),
        { qos: 1 },
      );
    }
  });
  const [grant] = await client.subscribeAsync(mqttTopics.commands(thingName), { qos: 1 });
  expect(grant?.qos).toBe(1);
  const report: DeviceStatusMessage = {
    status,
    software_version: '1.2.3',
    prints_left: 650,
    at: new Date().toISOString().slice(0, 19),
  };
  await client.publishAsync(mqttTopics.status(thingName), JSON.stringify(report), {
    qos: 1,
    retain: true,
  });
  return { client, received, crash: () => client.stream.destroy() };
}

describe('device protocol on the embedded broker', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let brokerUrl: string;
  let superToken: string;
  const reports: { thingName: string; status: DeviceStatusMessage }[] = [];
  const booths: FakeDevice[] = [];

  beforeAll(async () => {
    database = await openPglite();
    const superPhone = '+919999911111';
    const repository = new DevicesRepository(database.db);
    const config = testConfig({ MQTT_PORT: '0', MQTT_HOST: '127.0.0.1' });
    const { link } = createDeviceLink(config, (thing) => repository.secretHashOf(thing), log);
    link.onStatus((thingName, status) => {
      reports.push({ thingName, status });
    });
    ({ app } = await startApp(
      database,
      {
        SUPER_USER_PHONES: superPhone,
        DEVICE_COMMAND_TIMEOUT_MS: String(TIMEOUT_MS),
        OTP_SEND_LIMIT_PER_IP: '1000',
      },
      { deviceLink: link },
    ));
    brokerUrl = link.url;
    expect(brokerUrl).toMatch(/^mqtt:\/\/127\.0\.0\.1:\d+$/);
    superToken = (await signedIn(app, 'enterprise', superPhone)).token;
  });
  afterAll(async () => {
    for (const booth of booths) await booth.client.endAsync(true).catch(() => undefined);
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
  async function connectBooth(options?: { answer?: boolean; status?: string }) {
    const device = await register();
    const booth = await fakeDevice(brokerUrl, device.thing_name, device.secret, options);
    booths.push(booth);
    return { device, booth };
  }
  const statusOf = async (id: number) =>
    (await database.db.select().from(devices).where(eq(devices.id, id)))[0]!;

  it('reports health including the broker', async () => {
    expect((await app.inject('/api/health')).json()).toEqual({ status: 'ok' });
  });

  it('records the retained status a booth publishes', async () => {
    const { device } = await connectBooth();
    const row = await eventually(
      () => statusOf(device.id),
      (value) => value.status === 'idle',
    );
    expect(row).toMatchObject({ softwareVersion: '1.2.3', printsLeft: 650 });
  });

  it('pings a booth through the broker and records its answer', async () => {
    const { device, booth } = await connectBooth({ status: 'idle' });
    const response = await app.inject({
      method: 'POST',
      url: `/api/enterprise/devices/${device.id}/ping`,
      headers: bearer(superToken),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'idle', software_version: '1.2.3' });
    expect(response.json().pinged_at).not.toBeNull();
    expect(booth.received).toHaveLength(1);
    expect(booth.received[0]).toMatchObject({
      command: 'ping',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      reply_to: expect.stringMatching(/^flashbooth\/server\/[\w-]+\/replies$/),
    });
  });

  it('gives a clear 503 within the timeout when a booth never answers, and marks it offline', async () => {
    const { device, booth } = await connectBooth({ answer: false });
    await eventually(
      () => statusOf(device.id),
      (value) => value.status === 'idle',
    );
    const started = Date.now();
    const response = await app.inject({
      method: 'POST',
      url: `/api/enterprise/devices/${device.id}/ping`,
      headers: bearer(superToken),
    });
    const elapsed = Date.now() - started;
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      message: DEVICE_MESSAGES.noAnswer,
      code: 'service_unavailable',
    });
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 1500);
    expect(booth.received).toHaveLength(1);
    expect((await statusOf(device.id)).status).toBe('offline');
  });

  it('marks a booth offline through its last will when the connection drops', async () => {
    const { device, booth } = await connectBooth();
    await eventually(
      () => statusOf(device.id),
      (value) => value.status === 'idle',
    );
    booth.crash();
    await eventually(
      () => statusOf(device.id),
      (value) => value.status === 'offline',
    );
  });

  it('refuses wrong passwords, borrowed client ids and guessed server logins', async () => {
    const device = await register();
    const attempt = (options: mqtt.IClientOptions) =>
      mqtt.connectAsync(brokerUrl, { reconnectPeriod: 0, connectTimeout: 2000, ...options });
    await expect(
      attempt({ clientId: device.thing_name, username: device.thing_name, password: 'wrong' }),
    ).rejects.toThrow(/Bad username or password|Not authorized/i);
    await expect(
      attempt({ clientId: 'someone-else', username: device.thing_name, password: device.secret }),
    ).rejects.toThrow();
    await expect(
      attempt({ clientId: 'x', username: 'flashbooth-server', password: device.secret }),
    ).rejects.toThrow();
    await expect(attempt({ clientId: 'anon' })).rejects.toThrow();
    // The right credentials still work.
    const client = await attempt({
      clientId: device.thing_name,
      username: device.thing_name,
      password: device.secret,
    });
    await client.endAsync();
  });

  it("keeps a booth off another booth's topics", async () => {
    const victim = await connectBooth();
    const intruder = await connectBooth();
    await eventually(
      () => statusOf(victim.device.id),
      (value) => value.status === 'idle',
    );
    const before = reports.length;

    // Subscribing to another booth's commands (or to everything) is refused: granted 128.
    // (mqtt.js rejects a subscribe whose SUBACK carries 128.)
    const refused = await intruder.booth.client
      .subscribeAsync(
        [
          mqttTopics.commands(victim.device.thing_name),
          'flashbooth/#',
          mqttTopics.allStatuses,
          mqttTopics.settings(victim.device.thing_name),
          mqttTopics.allErrors,
        ],
        { qos: 1 },
      )
      .then(
        () => undefined,
        (error: { packet?: { granted?: number[] } }) => error,
      );
    expect(refused?.packet?.granted).toEqual([128, 128, 128, 128, 128]);

    // Publishing another booth's status or commands reaches no one; the broker drops the client.
    const fakeCommand = { id: 'evil', command: 'capture', payload: {}, reply_to: 'x' };
    intruder.booth.client.publish(
      mqttTopics.commands(victim.device.thing_name),
      JSON.stringify(fakeCommand),
      {
        qos: 0,
      },
    );
    intruder.booth.client.publish(
      mqttTopics.status(victim.device.thing_name),
      JSON.stringify({ status: 'hacked' }),
      { qos: 0, retain: true },
    );
    await sleep(300);
    expect(victim.booth.received).toEqual([]);
    expect(
      reports.slice(before).filter((report) => report.thingName === victim.device.thing_name),
    ).toEqual([]);
    expect((await statusOf(victim.device.id)).status).toBe('idle');
  });

  it('takes error reports on a booth’s own topic only, and settings only from the server', async () => {
    const booth = await connectBooth();
    const settingsSeen: string[] = [];
    booth.booth.client.on('message', (topic, payload) => {
      if (topic === mqttTopics.settings(booth.device.thing_name)) {
        settingsSeen.push(payload.toString());
      }
    });
    const [grant] = await booth.booth.client.subscribeAsync(
      mqttTopics.settings(booth.device.thing_name),
      { qos: 1 },
    );
    expect(grant?.qos).toBe(1);
    const errorsOf = (id: number) =>
      database.db.select().from(deviceErrors).where(eq(deviceErrors.deviceId, id));

    // Its own report arrives (once, though sent twice as QoS 1 may); a malformed one is dropped.
    const report = { report_id: randomUUID(), message: 'Printer out of paper' };
    for (let i = 0; i < 2; i += 1) {
      await booth.booth.client.publishAsync(
        mqttTopics.errors(booth.device.thing_name),
        JSON.stringify(report),
        { qos: 1 },
      );
    }
    await booth.booth.client.publishAsync(
      mqttTopics.errors(booth.device.thing_name),
      JSON.stringify({ message: 'no report id' }),
      { qos: 1 },
    );
    await eventually(
      () => errorsOf(booth.device.id),
      (rows) => rows.length === 1,
    );

    // Another booth may neither write into this booth's log nor publish its settings, nor
    // publish settings for itself.
    const intruder = await connectBooth();
    intruder.booth.client.publish(
      mqttTopics.errors(booth.device.thing_name),
      JSON.stringify({ report_id: randomUUID(), message: 'forged' }),
      { qos: 0 },
    );
    const forger = await connectBooth();
    forger.booth.client.publish(
      mqttTopics.settings(booth.device.thing_name),
      JSON.stringify({ revision: 99, prints_left: 1 }),
      { qos: 0, retain: true },
    );
    const selfServing = await connectBooth();
    await selfServing.booth.client.subscribeAsync(
      mqttTopics.settings(selfServing.device.thing_name),
      { qos: 1 },
    );
    selfServing.booth.client.on('message', (topic, payload) => {
      if (topic.endsWith('/settings')) settingsSeen.push(payload.toString());
    });
    selfServing.booth.client.publish(
      mqttTopics.settings(selfServing.device.thing_name),
      JSON.stringify({ revision: 99, prints_left: 700 }),
      { qos: 0, retain: true },
    );
    await sleep(300);
    expect((await errorsOf(booth.device.id)).map((row) => row.errorMessage)).toEqual([
      'Printer out of paper',
    ]);
    expect(settingsSeen).toEqual([]);

    // The server publishes them (a restock), retained.
    const restock = await app.inject({
      method: 'PATCH',
      url: `/api/enterprise/devices/${booth.device.id}`,
      headers: bearer(superToken),
      payload: { prints_left: 640 },
    });
    expect(restock.statusCode).toBe(200);
    await eventually(
      () => settingsSeen,
      (seen) => seen.length === 1,
    );
    expect(JSON.parse(settingsSeen[0]!)).toEqual({ revision: 1, prints_left: 640 });
  });
});

describe.skipIf(!mosquittoAvailable)('device protocol on an external broker (Mosquitto)', () => {
  const links: MqttDeviceLink[] = [];
  const booths: FakeDevice[] = [];
  const things: string[] = [];
  const reports: { thingName: string; status: DeviceStatusMessage }[] = [];

  /** Unique per run, so parallel runs and old retained messages never meet. */
  const newThing = () => {
    const thing = `fb-t${randomBytes(6).toString('hex')}`;
    things.push(thing);
    return thing;
  };
  async function serverInstance() {
    const link = new MqttDeviceLink({ url: MOSQUITTO_URL, log });
    link.onStatus((thingName, status) => {
      reports.push({ thingName, status });
    });
    await link.start();
    await link.ping();
    links.push(link);
    return link;
  }
  async function booth(thing: string, options?: { answer?: boolean; status?: string }) {
    const device = await fakeDevice(MOSQUITTO_URL, thing, 'unused-on-anonymous-broker', options);
    booths.push(device);
    return device;
  }

  afterAll(async () => {
    for (const device of booths) await device.client.endAsync(true).catch(() => undefined);
    for (const link of links) await link.stop();
    // Clear the retained statuses this run left behind.
    const cleaner = await mqtt.connectAsync(MOSQUITTO_URL, { reconnectPeriod: 0 });
    for (const thing of things) {
      await cleaner.publishAsync(mqttTopics.status(thing), '', { retain: true, qos: 1 });
    }
    await cleaner.endAsync();
  });

  it('delivers status reports, ping replies and last wills; several instances share the broker', async () => {
    const first = await serverInstance();
    const second = await serverInstance();
    expect(first.replyTopic).not.toBe(second.replyTopic);
    const thing = newThing();
    const device = await booth(thing, { status: 'idle' });
    await eventually(
      () =>
        reports.filter((report) => report.thingName === thing && report.status.status === 'idle'),
      (found) => found.length >= 2, // each instance hears it
    );

    const [a, b] = await Promise.all([
      first.request(thing, 'ping', {}, 3000),
      second.request(thing, 'ping', {}, 3000),
    ]);
    expect(a).toMatchObject({ status: 'idle', software_version: '1.2.3' });
    expect(b).toMatchObject({ status: 'idle' });
    expect(a.id).not.toBe(b.id);
    expect(device.received.map((command) => command.reply_to).sort()).toEqual(
      [first.replyTopic, second.replyTopic].sort(),
    );

    device.crash();
    await eventually(
      () =>
        reports.filter(
          (report) => report.thingName === thing && report.status.status === 'offline',
        ),
      (found) => found.length >= 2,
    );
  });

  it('with a share group: each live status is recorded by one instance, every instance asks the broker which booths are away, and one connecting records the retained statuses', async () => {
    const shareGroup = `fb-test-${randomBytes(4).toString('hex')}`;
    const thing = newThing();
    const instance = async () => {
      const link = new MqttDeviceLink({ url: MOSQUITTO_URL, log, shareGroup });
      const recorded: string[] = [];
      link.onStatus((thingName, status) => {
        if (thingName === thing) recorded.push(status.status);
      });
      await link.start();
      await link.ping();
      links.push(link);
      return { link, recorded };
    };
    const first = await instance();
    const second = await instance();
    expect(first.link.reportsSplit).toBe(true);
    expect(second.link.reportsSplit).toBe(true);
    const both = () => [...first.recorded, ...second.recorded];

    const device = await booth(thing, { status: 'idle' });
    for (const status of ['capturing', 'uploading', 'idle']) {
      const report: DeviceStatusMessage = { status, at: new Date().toISOString().slice(0, 19) };
      await device.client.publishAsync(mqttTopics.status(thing), JSON.stringify(report), {
        qos: 1,
        retain: true,
      });
    }
    await eventually(both, (found) => found.length >= 4);
    await sleep(300);
    expect(both().sort()).toEqual(['capturing', 'idle', 'idle', 'uploading']);
    expect(await first.link.isAway(thing)).toBe(false);
    expect(await second.link.isAway(thing)).toBe(false);
    // A booth that never reported is not known to be away (a command finds out).
    expect(await first.link.isAway(newThing())).toBe(false);

    device.crash();
    // Both learn from the retained last will that it is away; one of them records it.
    await eventually(
      async () => (await first.link.isAway(thing)) && (await second.link.isAway(thing)),
      (away) => away,
    );
    // Asked twice at once (one look-up shared), both are answered.
    expect(await Promise.all([first.link.isAway(thing), first.link.isAway(thing)])).toEqual([
      true,
      true,
    ]);
    await eventually(
      () => both().filter((status) => status === 'offline'),
      (found) => found.length >= 1,
    );
    // An instance connecting now records the retained status itself; the others do not again.
    const third = await instance();
    expect(
      await eventually(
        () => third.recorded,
        (found) => found.includes('offline'),
      ),
    ).toEqual(['offline']);
    expect(await third.link.isAway(thing)).toBe(true);
    await sleep(300);
    expect(both().filter((status) => status === 'offline')).toHaveLength(1);
    expect(third.recorded).toEqual(['offline']);
  });

  it('rejects within the timeout when a booth never answers', async () => {
    const link = await serverInstance();
    const thing = newThing();
    await booth(thing, { answer: false });
    const started = Date.now();
    const error = await link.request(thing, 'ping', {}, TIMEOUT_MS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'service_unavailable', message: DEVICE_MESSAGES.noAnswer });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 1000);
  });

  it('rejects pending requests when the link stops', async () => {
    const link = await serverInstance();
    const thing = newThing();
    await booth(thing, { answer: false });
    const pending = link.request(thing, 'ping', {}, 60_000).catch((error: unknown) => error);
    await sleep(50);
    const started = Date.now();
    await link.stop();
    expect(await pending).toMatchObject({ code: 'service_unavailable' });
    expect(Date.now() - started).toBeLessThan(2000);
    await expect(link.request(thing, 'ping', {}, 1000)).rejects.toMatchObject({
      code: 'service_unavailable',
    });
  });
});
