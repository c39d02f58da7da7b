import {
  type DeviceStatusEvent,
  DeviceStatusEventSchema,
  type DeviceStatusMessage,
  mqttTopics,
} from '@flashbooth/contracts';
import { randomBytes } from 'node:crypto';
import { get as httpGet, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import mqtt, { type MqttClient } from 'mqtt';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { DevicesRepository } from '../../src/modules/devices/devices.repository.js';
import {
  type DeviceStatusChange,
  DeviceStatusFeed,
} from '../../src/modules/devices/device-status-feed.js';
import { staffDeviceStatusRoutes } from '../../src/modules/devices/devices.status-stream.js';
import type { StaffCaller } from '../../src/modules/users/users.service.js';
import { databaseTargets } from '../databases.js';
import {
  createOrg,
  eventually,
  type RegisteredDeviceFixture,
  registerDevice,
  signedIn,
  signedInOrgStaff,
  signedInSuperUser,
  startApp,
  type TestApp,
} from '../harness.js';
import { connectAsBooth, MOSQUITTO_URL, mosquittoAvailable } from '../mqtt-fixtures.js';

const STREAM = 'api/enterprise/devices/status-stream';

/** An open status stream read over a real socket (inject does not stream). */
interface StatusStream {
  events: DeviceStatusEvent[];
  comments: string[];
  /** Set once the server ended the stream. */
  ended: boolean;
  close: () => void;
  /** The first event (at index `from` or later) that `accept` takes; throws after 10 s. */
  waitFor: (
    accept: (event: DeviceStatusEvent) => boolean,
    from?: number,
  ) => Promise<DeviceStatusEvent>;
}

/**
 * Opens the stream with node:http on a connection of its own (fetch's pool keeps a spare
 * socket open after an abort, which would hold app.close() up).
 */
async function openStream(
  baseUrl: string,
  token?: string,
): Promise<{ status: number; body?: unknown; stream?: StatusStream; contentType: string | null }> {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const request = httpGet(
      `${baseUrl}/${STREAM}`,
      { agent: false, headers: token ? { authorization: `Bearer ${token}` } : {} },
      resolve,
    );
    request.once('error', reject);
  });
  const contentType = response.headers['content-type'] ?? null;
  if (response.statusCode !== 200) {
    let text = '';
    for await (const chunk of response) text += String(chunk);
    return { status: response.statusCode ?? 0, body: JSON.parse(text), contentType };
  }
  const stream: StatusStream = {
    events: [],
    comments: [],
    ended: false,
    close: () => response.destroy(),
    waitFor: (accept, from = 0) =>
      eventually(
        () => stream.events.slice(from).find(accept),
        (found) => found !== undefined,
      ) as Promise<DeviceStatusEvent>,
  };
  response.setEncoding('utf8');
  let buffer = '';
  response.on('data', (chunk: string) => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) stream.comments.push(line.slice(1).trim());
        else if (line.startsWith('event:')) name = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trim());
      }
      if (name === 'status' && data.length > 0) {
        stream.events.push(DeviceStatusEventSchema.parse(JSON.parse(data.join('\n'))));
      }
    }
  });
  response.once('close', () => {
    stream.ended = true;
  });
  response.once('error', () => undefined);
  return { status: 200, stream, contentType };
}

/** A booth as the contract describes one: thing name and secret, retained offline last will. */
async function booth(url: string, device: RegisteredDeviceFixture) {
  const client = await connectAsBooth(url, device.thingName, device.secret);
  return {
    client,
    status: (message: DeviceStatusMessage) =>
      client.publishAsync(mqttTopics.status(device.thingName), JSON.stringify(message), {
        qos: 1,
        retain: true,
      }),
    /** Drops the connection without DISCONNECT, as a booth losing power does. */
    crash: () => client.stream.destroy(),
  };
}

async function listen(testApp: TestApp): Promise<string> {
  return testApp.app.listen({ port: 0, host: '127.0.0.1' });
}

describe.each(databaseTargets)('live device status on $name (embedded broker)', ({ open }) => {
  let database: DatabaseHandle;
  let testApp: TestApp;
  let baseUrl: string;
  let superToken: string;
  let memberA: string;
  let orgA: number;
  let deviceA: RegisteredDeviceFixture;
  let deviceB: RegisteredDeviceFixture;
  let unlinked: RegisteredDeviceFixture;
  const clients: MqttClient[] = [];
  const streams: StatusStream[] = [];

  beforeAll(async () => {
    database = await open();
    testApp = await startApp(database, {
      MQTT_PORT: '0',
      MQTT_HOST: '127.0.0.1',
      OTP_SEND_LIMIT_PER_IP: '1000',
      DEVICE_COMMAND_TIMEOUT_MS: '3000',
    });
    baseUrl = await listen(testApp);
    superToken = (await signedInSuperUser(testApp)).token;
    orgA = await createOrg(database, 'Sunrise Mall');
    const orgB = await createOrg(database, 'Harbour Café');
    memberA = (await signedInOrgStaff(testApp.app, database, orgA, 'member')).token;
    deviceA = await registerDevice(testApp.app, superToken, { orgId: orgA });
    deviceB = await registerDevice(testApp.app, superToken, { orgId: orgB });
    unlinked = await registerDevice(testApp.app, superToken);
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    for (const client of clients) await client.endAsync(true).catch(() => undefined);
    await testApp.app.close();
    await database.close();
  });

  const connected = async (device: RegisteredDeviceFixture) => {
    const result = await booth(testApp.app.deviceBrokerUrl!, device);
    clients.push(result.client);
    return result;
  };
  const opened = async (token: string) => {
    const result = await openStream(baseUrl, token);
    expect(result.status).toBe(200);
    expect(result.contentType).toBe('text/event-stream; charset=utf-8');
    streams.push(result.stream!);
    return result.stream!;
  };

  it('refuses a caller without a staff access token', async () => {
    const nobody = await openStream(baseUrl);
    expect(nobody.status).toBe(401);
    expect(nobody.body).toEqual({
      message: 'Please sign in to continue.',
      code: expect.any(String),
    });
    const visitor = await signedIn(testApp.app, 'regular');
    expect((await openStream(baseUrl, visitor.token)).status).toBe(401);
    expect((await openStream(baseUrl, 'not-a-token')).status).toBe(401);
  });

  it('is not taken for a device id: GET devices/{id} still validates its id', async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/enterprise/devices/status-streams',
      headers: { authorization: `Bearer ${superToken}` },
    });
    expect(response.statusCode).toBe(400);
  });

  it('a booth status reaches open streams once recorded; a member sees only their organization', async () => {
    const everything = await opened(superToken);
    const member = await opened(memberA);
    expect(everything.comments).toContain('connected');

    const b = await connected(deviceB);
    const loose = await connected(unlinked);
    await b.status({ status: 'busy', software_version: '2.0.0', prints_left: 321 });
    await loose.status({ status: 'idle', software_version: '2.0.0', prints_left: 100 });
    await everything.waitFor((event) => event.id === deviceB.id && event.status === 'busy');
    await everything.waitFor((event) => event.id === unlinked.id && event.status === 'idle');

    // Organization A's booth: after the others, so the member's stream had them first.
    const a = await connected(deviceA);
    await a.status({ status: 'idle', software_version: '1.4.2', prints_left: 640 });
    const seen = await member.waitFor((event) => event.id === deviceA.id);
    expect(seen).toEqual({
      id: deviceA.id,
      status: 'idle',
      prints_left: 640,
      software_version: '1.4.2',
      pinged_at: null,
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
    });
    await everything.waitFor((event) => event.id === deviceA.id && event.status === 'idle');
    expect(member.events.filter((event) => event.id !== deviceA.id)).toEqual([]);

    // Emitted after the change was stored: the API already answers the streamed state.
    const api = await testApp.app.inject({
      method: 'GET',
      url: `/api/enterprise/devices/${deviceB.id}`,
      headers: { authorization: `Bearer ${superToken}` },
    });
    expect(api.json()).toMatchObject({ status: 'busy', prints_left: 321 });
  });

  it('a booth that drops turns offline through its last will', async () => {
    const stream = await opened(memberA);
    const device = await registerDevice(testApp.app, superToken, { orgId: orgA });
    const dropping = await connected(device);
    await dropping.status({ status: 'busy', prints_left: 600 });
    await stream.waitFor((event) => event.id === device.id && event.status === 'busy');
    const from = stream.events.length;
    dropping.crash();
    const offline = await stream.waitFor(
      (event) => event.id === device.id && event.status === 'offline',
      from,
    );
    expect(offline.prints_left).toBe(600);
  });

  it('changes made through the API are streamed too: a restock and a ping without answer', async () => {
    const stream = await opened(superToken);
    const restock = await testApp.app.inject({
      method: 'PATCH',
      url: `/api/enterprise/devices/${deviceB.id}`,
      headers: { authorization: `Bearer ${superToken}` },
      payload: { prints_left: 700 },
    });
    expect(restock.statusCode).toBe(200);
    await stream.waitFor((event) => event.id === deviceB.id && event.prints_left === 700);

    // A booth that does not answer a ping is recorded offline, and the console hears it.
    const silent = await registerDevice(testApp.app, superToken);
    const ping = await testApp.app.inject({
      method: 'POST',
      url: `/api/enterprise/devices/${silent.id}/ping`,
      headers: { authorization: `Bearer ${superToken}` },
    });
    expect(ping.statusCode).toBe(503);
    await stream.waitFor((event) => event.id === silent.id && event.status === 'offline');
  });
});

describe('a stream whose access token lapses', () => {
  it('is ended by the server, so the client must come back with a fresh token', async () => {
    const database = await databaseTargets[0]!.open();
    const testApp = await startApp(database, { ACCESS_TOKEN_TTL_SECONDS: '2' });
    try {
      const baseUrl = await listen(testApp);
      const { token } = await signedInSuperUser(testApp);
      const { stream } = await openStream(baseUrl, token);
      await eventually(
        () => stream!.ended,
        (ended) => ended,
      );
    } finally {
      await testApp.app.close();
      await database.close();
    }
  });
});

describe.skipIf(!mosquittoAvailable).each(
  databaseTargets.flatMap((target) => [
    { ...target, reports: 'every instance records every report', shareGroup: undefined },
    {
      ...target,
      reports: 'each report recorded by one (MQTT_SHARE_GROUP)',
      shareGroup: `fb-test-${randomBytes(4).toString('hex')}`,
    },
  ]),
)('two server instances on Mosquitto and $name, $reports', ({ open, shareGroup }) => {
  let database: DatabaseHandle;
  let first: TestApp;
  let second: TestApp;
  let firstUrl: string;
  let secondUrl: string;
  let superToken: string;
  let device: RegisteredDeviceFixture;
  let client: MqttClient | undefined;
  const streams: StatusStream[] = [];

  beforeAll(async () => {
    database = await open();
    const env = {
      MQTT_URL: MOSQUITTO_URL,
      OTP_SEND_LIMIT_PER_IP: '1000',
      ...(shareGroup ? { MQTT_SHARE_GROUP: shareGroup } : {}),
    };
    first = await startApp(database, env);
    second = await startApp(database, { ...env, SUPER_USER_PHONES: first.superPhone });
    firstUrl = await listen(first);
    secondUrl = await listen(second);
    superToken = (await signedInSuperUser(first)).token;
    device = await registerDevice(first.app, superToken, {
      orgId: await createOrg(database),
    });
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await client?.endAsync(true).catch(() => undefined);
    await second.app.close();
    await first.app.close();
    // Clear what this run left retained on the shared broker.
    const cleaner = await mqtt.connectAsync(MOSQUITTO_URL, { reconnectPeriod: 0 });
    await cleaner.publishAsync(mqttTopics.status(device.thingName), '', { retain: true, qos: 1 });
    await cleaner.publishAsync(mqttTopics.settings(device.thingName), '', {
      retain: true,
      qos: 1,
    });
    await cleaner.endAsync();
    await database.close();
  });

  it("a booth's status reaches the streams of both instances", async () => {
    const one = (await openStream(firstUrl, superToken)).stream!;
    const two = (await openStream(secondUrl, superToken)).stream!;
    streams.push(one, two);
    const b = await booth(MOSQUITTO_URL, device);
    client = b.client;
    await b.status({ status: 'busy', software_version: '3.1.0', prints_left: 555 });
    for (const stream of [one, two]) {
      const event = await stream.waitFor((e) => e.id === device.id && e.status === 'busy');
      expect(event).toMatchObject({ prints_left: 555, software_version: '3.1.0' });
    }
    b.crash();
    for (const stream of [one, two]) {
      await stream.waitFor((e) => e.id === device.id && e.status === 'offline');
    }
  });

  it("a restock through one instance's API reaches the other instance's stream", async () => {
    const onFirst = (await openStream(firstUrl, superToken)).stream!;
    streams.push(onFirst);
    // The booth is away: the change can reach the first instance only from the second.
    const restock = await second.app.inject({
      method: 'PATCH',
      url: `/api/enterprise/devices/${device.id}`,
      headers: { authorization: `Bearer ${superToken}` },
      payload: { prints_left: 420 },
    });
    expect(restock.statusCode).toBe(200);
    const event = await onFirst.waitFor((e) => e.id === device.id && e.prints_left === 420);
    expect(event.status).toBe('offline');
  });
});

/** The stream plugin alone, on a feed the test publishes to, as a super user. */
describe('the stream plugin on its own', () => {
  let app: FastifyInstance;
  let feed: DeviceStatusFeed;
  let port: number;

  beforeAll(async () => {
    feed = new DeviceStatusFeed({ log: pino({ level: 'silent' }) as unknown as FastifyBaseLogger });
    app = Fastify({ logger: false });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(staffDeviceStatusRoutes, {
      prefix: '/api/enterprise',
      feed,
      users: {
        staffPrincipal: async () =>
          ({
            user: {},
            principal: { is_super_user: true, is_flashbooth_admin: false, organizations: [] },
          }) as unknown as StaffCaller,
      },
      authenticate: async (request) => {
        request.caller = { userId: 1, pool: 'enterprise' };
      },
      now: () => new Date(),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  const change = (id: number): DeviceStatusChange => ({
    orgId: null,
    event: {
      id,
      status: 'idle',
      prints_left: 700,
      software_version: '1.0.0',
      pinged_at: null,
      updated_at: '2026-01-01T00:00:00',
    },
  });

  it('lets go of the subscription when the client goes away', async () => {
    const { stream } = await openStream(`http://127.0.0.1:${port}`, 'any');
    await eventually(
      () => feed.subscriberCount,
      (count) => count === 1,
    );
    feed.publishLocal(change(7));
    await stream!.waitFor((event) => event.id === 7);
    stream!.close();
    await eventually(
      () => feed.subscriberCount,
      (count) => count === 0,
    );
  });

  it('drops a client that does not read instead of buffering without bound', async () => {
    const socket = connect({ port, host: '127.0.0.1' });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`GET /api/enterprise/devices/status-stream HTTP/1.1\r\nHost: x\r\n\r\n`);
    await eventually(
      () => feed.subscriberCount,
      (count) => count === 1,
    );
    socket.pause(); // never reads again: the kernel's buffers fill, then the server's
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    for (let batch = 0; batch < 400 && feed.subscriberCount > 0; batch += 1) {
      for (let i = 0; i < 1000; i += 1) feed.publishLocal(change(i));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(feed.subscriberCount).toBe(0);
    socket.destroy();
    await closed;
  });
});

describe.each(databaseTargets)('batched status writes on $name', ({ open }) => {
  it('apply recordReport’s rules to every report of the batch; unknown booths are left out', async () => {
    const database = await open();
    try {
      await migrate(database.db);
      const repository = new DevicesRepository(database.db);
      const make = async (thingName: string) =>
        (await repository.create({ name: thingName, thingName, secretHash: 'x' }))!;
      const applied = await make('fb-batch-a');
      const behind = await make('fb-batch-b');
      await repository.restock(behind, 700, new Date()); // settings revision 1
      const rows = await repository.recordReports([
        {
          thingName: 'fb-batch-a',
          report: { status: 'busy', softwareVersion: '2.0.0', printsLeft: 12, settingsRevision: 0 },
        },
        { thingName: 'fb-batch-b', report: { status: 'idle', printsLeft: 3, settingsRevision: 0 } },
        { thingName: 'fb-batch-none', report: { status: 'idle' } },
      ]);
      expect(rows.map((row) => row.thingName).sort()).toEqual(['fb-batch-a', 'fb-batch-b']);
      const a = rows.find((row) => row.id === applied)!;
      expect(a).toMatchObject({
        status: 'busy',
        softwareVersion: '2.0.0',
        printsLeft: 12,
        pingedAt: null,
      });
      expect(a.updatedAt).toBeInstanceOf(Date);
      expect(Number.isNaN(a.updatedAt.getTime())).toBe(false);
      // A count from before the restock never overwrites it; status still taken.
      expect(rows.find((row) => row.id === behind)).toMatchObject({
        status: 'idle',
        printsLeft: 700,
        settingsRevision: 1,
        softwareVersion: null,
      });
      const stored = await repository.findById(applied);
      expect(stored).toMatchObject({ status: 'busy', printsLeft: 12, softwareVersion: '2.0.0' });
      expect(a.updatedAt.getTime()).toBe(stored!.updatedAt.getTime());
    } finally {
      await database.close();
    }
  });
});
