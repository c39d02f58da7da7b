import { randomUUID } from 'node:crypto';
import {
  type DeviceCommandMessage,
  type DeviceErrorReport,
  type DeviceSettingsMessage,
  type DeviceStatusMessage,
  mqttTopics,
} from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { creditLedger, devices, users } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import {
  bearer,
  eventually,
  type RegisteredDeviceFixture,
  registerDevice,
  signedIn,
  sleep,
  staffFixtures,
  startApp,
  type TestApp,
} from '../harness.js';
import { createTemplate, makeJpeg } from '../media-fixtures.js';
import { connectAsBooth, MOSQUITTO_URL, mosquittoAvailable } from '../mqtt-fixtures.js';

interface ScriptedBooth {
  client: MqttClient;
  commands: DeviceCommandMessage[];
  settings: DeviceSettingsMessage[];
  status: (message: DeviceStatusMessage) => Promise<void>;
  report: (report: DeviceErrorReport) => Promise<void>;
  /** Drops the connection without DISCONNECT, as a booth losing power does. */
  crash: () => void;
}

/**
 * A booth written with the mqtt client, as the contract describes one: client id and user name
 * are its thing name, a retained offline last will, commands and settings subscribed, a retained
 * idle status; it accepts captures and answers pings.
 */
async function scriptedBooth(url: string, thingName: string, secret: string) {
  const client = await connectAsBooth(url, thingName, secret);
  const booth: ScriptedBooth = {
    client,
    commands: [],
    settings: [],
    status: async (message) => {
      await client.publishAsync(mqttTopics.status(thingName), JSON.stringify(message), {
        qos: 1,
        retain: true,
      });
    },
    report: async (report) => {
      await client.publishAsync(mqttTopics.errors(thingName), JSON.stringify(report), { qos: 1 });
    },
    crash: () => client.stream.destroy(),
  };
  client.on('message', (topic, payload) => {
    if (topic === mqttTopics.settings(thingName) && payload.length > 0) {
      booth.settings.push(JSON.parse(payload.toString()) as DeviceSettingsMessage);
      return;
    }
    if (topic !== mqttTopics.commands(thingName)) return;
    const command = JSON.parse(payload.toString()) as DeviceCommandMessage;
    booth.commands.push(command);
    const reply =
      command.command === 'capture'
        ? { id: command.id, status: 'accepted' }
        : { id: command.id, status: 'idle', software_version: '9.9.9' };
    client.publish(command.reply_to, JSON.stringify(reply), { qos: 1 });
  });
  const granted = await client.subscribeAsync(
    [mqttTopics.commands(thingName), mqttTopics.settings(thingName)],
    { qos: 1 },
  );
  expect(granted.map((grant) => grant.qos)).toEqual([1, 1]);
  await booth.status({ status: 'idle', software_version: '9.9.9', settings_revision: 0 });
  return booth;
}

const brokers: { broker: string; env: Record<string, string>; skip: boolean }[] = [
  { broker: 'the embedded broker', env: { MQTT_PORT: '0', MQTT_HOST: '127.0.0.1' }, skip: false },
  { broker: 'Mosquitto', env: { MQTT_URL: MOSQUITTO_URL }, skip: !mosquittoAvailable },
];

const targets = databaseTargets.flatMap((target) =>
  brokers.map((broker) => ({ ...target, ...broker })),
);

describe.each(targets)('booth events on $name through $broker', ({ open, env, skip }) => {
  let database: DatabaseHandle;
  let testApp: TestApp;
  /** A second server instance on the same database and broker (external broker only). */
  let second: TestApp | undefined;
  let brokerUrl: string;
  let fixtures: Awaited<ReturnType<typeof staffFixtures>>;
  let templateId: number;
  const booths: ScriptedBooth[] = [];
  const things: string[] = [];

  const appEnv = {
    ...env,
    OTP_SEND_LIMIT_PER_IP: '1000',
    DEVICE_COMMAND_TIMEOUT_MS: '4000',
    // A one-slot template: due 10 s after acceptance; the test moves the clocks.
    CAPTURE_DELIVERY_MARGIN_SECONDS: '0',
    DELIVERY_DEADLINE_MINUTES: '0',
    CAPTURE_SWEEP_INTERVAL_MS: '50',
  };

  beforeAll(async () => {
    if (skip) return;
    database = await open();
    // The app makes its own link: the embedded broker binds port 0 and tells us where.
    testApp = await startApp(database, appEnv);
    brokerUrl = testApp.app.deviceBrokerUrl!;
    if ('MQTT_PORT' in env) {
      expect(brokerUrl).toMatch(/^mqtt:\/\/127\.0\.0\.1:\d+$/);
      expect(brokerUrl).not.toBe('mqtt://127.0.0.1:0');
    } else {
      second = await startApp(database, appEnv);
    }
    fixtures = await staffFixtures(testApp, { priceRupees: 25 });
    templateId = await createTemplate(database.db, { orgIds: [fixtures.orgId], slots: 1 });
  });
  afterAll(async () => {
    if (skip) return;
    for (const booth of booths) await booth.client.endAsync(true).catch(() => undefined);
    await second?.app.close();
    await testApp.app.close();
    if (!('MQTT_PORT' in env)) {
      // Clear what this run left retained on the shared broker.
      const cleaner = await mqtt.connectAsync(brokerUrl, { reconnectPeriod: 0 });
      for (const thing of things) {
        await cleaner.publishAsync(mqttTopics.status(thing), '', { retain: true, qos: 1 });
        await cleaner.publishAsync(mqttTopics.settings(thing), '', { retain: true, qos: 1 });
      }
      await cleaner.endAsync();
    }
    await database.close();
  });

  const staff = (method: 'GET' | 'PATCH', url: string, payload?: object) =>
    testApp.app.inject({
      method,
      url: `/api/enterprise/${url}`,
      headers: bearer(fixtures.superUser.token),
      ...(payload ? { payload } : {}),
    });
  const deviceOf = async (id: number) =>
    (await database.db.select().from(devices).where(eq(devices.id, id)))[0]!;
  const creditsOf = async (userId: number) =>
    (await database.db.select().from(users).where(eq(users.id, userId)))[0]!.creditsPaise;
  const ledgerOf = async (userId: number) =>
    (await database.db.select().from(creditLedger).where(eq(creditLedger.userId, userId)))
      .map((row) => row.reason)
      .sort();
  const errorLog = async (deviceId: number) =>
    (await staff('GET', `devices/${deviceId}/errors?limit=100`)).json<{
      items: { error_message: string }[];
      total_count: number;
    }>();
  const myMedia = async (token: string) =>
    (
      await testApp.app.inject({
        method: 'GET',
        url: '/api/regular/media',
        headers: bearer(token),
      })
    ).json<{ items: { id: number; is_uploaded: boolean }[]; total_count: number }>();

  /** The fixture's booth, or a new one in its organization at ₹25, connected. */
  async function connectedBooth(given?: RegisteredDeviceFixture) {
    const device =
      given ??
      (await registerDevice(testApp.app, fixtures.superUser.token, {
        orgId: fixtures.orgId,
        priceRupees: 25,
      }));
    things.push(device.thingName);
    const booth = await scriptedBooth(brokerUrl, device.thingName, device.secret);
    booths.push(booth);
    await eventually(
      () => deviceOf(device.id),
      (row) => row.status === 'idle',
    );
    return { device, booth };
  }

  /** A visitor with ₹25 credit whose capture the booth accepted. */
  async function acceptedCapture(deviceId: number) {
    const visitor = await signedIn(testApp.app, 'regular');
    await database.db.update(users).set({ creditsPaise: 2500 }).where(eq(users.id, visitor.userId));
    const response = await testApp.app.inject({
      method: 'POST',
      url: `/api/regular/devices/${deviceId}/capture`,
      headers: bearer(visitor.token),
      payload: { template_id: templateId },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await creditsOf(visitor.userId)).toBe(0);
    return { visitor, mediaIds: response.json<{ media_ids: number[] }>().media_ids };
  }
  const advanceClocks = (seconds: number) => {
    testApp.clock.advance(seconds);
    second?.clock.advance(seconds);
  };

  it.skipIf(skip)(
    'a booth that drops mid-capture: offline by its last will, credit back once, one log entry, a late upload still delivered',
    async () => {
      const { device, booth } = await connectedBooth(fixtures.device);
      const { visitor, mediaIds } = await acceptedCapture(device.id);
      const capture = booth.commands.find((command) => command.command === 'capture')!;
      const upload = (capture.payload as { uploads: { media_id: number; upload_url: string }[] })
        .uploads[0]!;
      expect(upload.media_id).toBe(mediaIds[0]);

      booth.crash();
      await eventually(
        () => deviceOf(device.id),
        (row) => row.status === 'offline',
      );
      // Before the deadline the capture is still expected.
      await sleep(200);
      expect(await creditsOf(visitor.userId)).toBe(0);
      expect((await myMedia(visitor.token)).total_count).toBe(1);

      advanceClocks(11);
      await eventually(
        () => creditsOf(visitor.userId),
        (credits) => credits === 2500,
      );
      await sleep(400); // more sweeps (on every instance) find nothing more to do
      expect(await creditsOf(visitor.userId)).toBe(2500);
      expect(await ledgerOf(visitor.userId)).toEqual(['capture', 'refund']);
      const log = await errorLog(device.id);
      expect(log.total_count).toBe(1);
      expect(log.items[0]!.error_message).toMatch(/^Capture [0-9a-f-]{36}: delivery failure, /);
      expect((await myMedia(visitor.token)).total_count).toBe(0);

      // The booth comes back and uploads after all: the visitor gets the photo and keeps the
      // credit; nothing is charged or given back again.
      const put = await testApp.app.inject({
        method: 'PUT',
        url: upload.upload_url,
        payload: await makeJpeg(640),
        headers: { 'content-type': 'image/jpeg' },
      });
      expect(put.statusCode).toBe(204);
      const confirm = await testApp.app.inject({
        method: 'POST',
        url: `/api/device/media/${upload.media_id}/uploaded`,
        headers: device.auth,
      });
      expect(confirm.statusCode, confirm.body).toBe(200);
      expect((await myMedia(visitor.token)).items).toEqual([
        expect.objectContaining({ id: upload.media_id, is_uploaded: true }),
      ]);
      expect(await creditsOf(visitor.userId)).toBe(2500);
      expect(await ledgerOf(visitor.userId)).toEqual(['capture', 'refund']);
      expect((await errorLog(device.id)).total_count).toBe(1);
    },
  );

  it.skipIf(skip)(
    'a failure report through the broker is logged once and gives the capture back once',
    async () => {
      const { device, booth } = await connectedBooth();
      const { visitor } = await acceptedCapture(device.id);
      const capture = booth.commands.find((command) => command.command === 'capture')!;
      const report: DeviceErrorReport = {
        report_id: randomUUID(),
        message: 'Printer jam before upload',
        capture_id: (capture.payload as { capture_id: string }).capture_id,
        delivered_media_ids: [],
        at: new Date().toISOString().slice(0, 19),
      };
      // QoS 1 may deliver a report twice; every server instance hears each copy.
      await booth.report(report);
      await booth.report(report);
      await eventually(
        () => creditsOf(visitor.userId),
        (credits) => credits === 2500,
      );
      await sleep(300);
      expect(await ledgerOf(visitor.userId)).toEqual(['capture', 'refund']);
      const log = await errorLog(device.id);
      expect(log.items.map((item) => item.error_message)).toEqual([
        `Printer jam before upload (capture ${report.capture_id})`,
      ]);
      expect((await myMedia(visitor.token)).total_count).toBe(0);
    },
  );

  it.skipIf(skip)(
    'a restock reaches the booth retained, and a stale status does not undo it',
    async () => {
      const { device, booth } = await connectedBooth();
      await booth.status({ status: 'idle', prints_left: 12, settings_revision: 0 });
      await eventually(
        () => deviceOf(device.id),
        (row) => row.printsLeft === 12,
      );
      const restock = await staff('PATCH', `devices/${device.id}`, { prints_left: 700 });
      expect(restock.statusCode).toBe(200);
      await eventually(
        () => booth.settings,
        (seen) => seen.some((settings) => settings.revision === 1),
      );
      expect(booth.settings.at(-1)).toEqual({ revision: 1, prints_left: 700 });

      // A status from before the booth applied it: the restocked count stays.
      await booth.status({ status: 'busy', prints_left: 11, settings_revision: 0 });
      await eventually(
        () => deviceOf(device.id),
        (row) => row.status === 'busy',
      );
      expect((await deviceOf(device.id)).printsLeft).toBe(700);

      // Applied: the booth's count counts again.
      await booth.status({ status: 'idle', prints_left: 699, settings_revision: 1 });
      await eventually(
        () => deviceOf(device.id),
        (row) => row.printsLeft === 699,
      );

      // A booth that was away gets the retained settings when it subscribes.
      booth.crash();
      const again = await scriptedBooth(brokerUrl, device.thingName, device.secret);
      booths.push(again);
      await eventually(
        () => again.settings,
        (seen) => seen.length > 0,
      );
      expect(again.settings[0]).toEqual({ revision: 1, prints_left: 700 });
    },
  );
});
