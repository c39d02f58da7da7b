import { createServer, type AddressInfo, type Server } from 'node:net';
import { type DeviceStatusMessage, mqttTopics } from '@flashbooth/contracts';
import { Aedes, type Client } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type BoothChannel,
  BoothConnection,
  type ConnectionHandlers,
  type ConnectionOptions,
} from '../src/connection.js';
import { eventually } from './harness.js';
import { recordingLog } from './fakes.js';

// BoothConnection alone on an embedded broker whose subscription rules a test can change.

let broker: Aedes;
let tcp: Server;
let url: string;
let server: MqttClient;
/** Topics the broker refuses subscriptions to. */
const refusedTopics = new Set<string>();
/** Messages the test "server" received, by topic. */
const received: { topic: string; body: string; retain: boolean }[] = [];
const connections: BoothConnection[] = [];
const brokerClients = new Map<string, Client>();
let thingCounter = 0;

beforeAll(async () => {
  broker = await Aedes.createBroker({
    authorizeSubscribe: (_client, subscription, done) =>
      done(null, refusedTopics.has(subscription.topic) ? null : subscription),
  });
  broker.on('client', (client) => brokerClients.set(client.id, client));
  tcp = createServer(broker.handle);
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  url = `mqtt://127.0.0.1:${(tcp.address() as AddressInfo).port}`;
  server = await mqtt.connectAsync(url, { clientId: 'connection-test-server', reconnectPeriod: 0 });
  server.on('message', (topic, payload, packet) =>
    received.push({ topic, body: payload.toString('utf8'), retain: packet.retain }),
  );
  await server.subscribeAsync(['flashbooth/devices/+/status', 'replies/#'], { qos: 1 });
});

afterEach(async () => {
  refusedTopics.clear();
  for (const connection of connections.splice(0)) {
    await connection.stop(1000, () => ({ status: 'offline' }));
  }
});

afterAll(async () => {
  await server.endAsync(true);
  await new Promise<void>((resolve) => broker.close(() => resolve()));
  await new Promise<void>((resolve) => tcp.close(() => resolve()));
});

/** A connection whose handlers record what they get; `online` reports an idle status. */
function connect(
  overrides: Partial<ConnectionHandlers> = {},
  login: Partial<ConnectionOptions> = {},
) {
  thingCounter += 1;
  const thingName = `fb-conn-${process.pid % 1000}-${thingCounter}`;
  const log = recordingLog();
  const seen = { online: 0, commands: [] as string[], settings: [] as string[] };
  const connection = new BoothConnection(
    { mqttUrl: url, thingName, secret: 'open-broker', reconnectPeriodMs: 50, log, ...login },
    {
      online: async (channel) => {
        seen.online += 1;
        await channel.publishStatus({ status: 'idle', software_version: '1' });
      },
      command: async (payload, channel) => {
        seen.commands.push(payload.toString('utf8'));
        await channel.publish(`replies/${thingName}`, 'ok');
      },
      settings: async (payload) => {
        seen.settings.push(payload.toString('utf8'));
      },
      ...overrides,
    },
  );
  connections.push(connection);
  return { connection, thingName, log, seen };
}

const statusesOf = (thingName: string) =>
  received
    .filter((m) => m.topic === mqttTopics.status(thingName))
    .map((m) => JSON.parse(m.body) as DeviceStatusMessage);

describe('BoothConnection', () => {
  it('once started (subscribed, `online` run), hands commands and settings to their handlers', async () => {
    const { connection, thingName, seen } = connect();
    let prepared = false;
    await connection.start(async () => {
      prepared = true;
    });
    expect(prepared).toBe(true);
    expect(seen.online).toBe(1);
    expect(connection.connected).toBe(true);
    await eventually(
      () => statusesOf(thingName).map((s) => s.status),
      (statuses) => statuses.join() === 'idle',
    );

    await server.publishAsync(mqttTopics.commands(thingName), '{"id":"1"}', { qos: 1 });
    await server.publishAsync(mqttTopics.settings(thingName), '{"revision":1}', { qos: 1 });
    await eventually(
      () => received.filter((m) => m.topic === `replies/${thingName}`).length,
      (count) => count === 1,
    );
    expect(seen.commands).toEqual(['{"id":"1"}']);
    await eventually(
      () => seen.settings,
      (settings) => settings.length === 1,
    );
    expect(seen.settings).toEqual(['{"revision":1}']);
  });

  it('refuses a second start', async () => {
    const { connection } = connect();
    await connection.start(async () => undefined);
    await expect(connection.start(async () => undefined)).rejects.toThrow(/already started/);
  });

  it('does not come online while the commands subscription is refused, and retries', async () => {
    const { connection, thingName, log, seen } = connect();
    refusedTopics.add(mqttTopics.commands(thingName));
    const started = connection.start(async () => undefined);
    await eventually(
      () => log.messages('error').filter((m) => m === 'booth could not come online').length,
      (count) => count >= 2,
    );
    expect(seen.online).toBe(0);
    refusedTopics.clear();
    await started;
    expect(seen.online).toBe(1);
  });

  it('drops the connection when `online` fails, and comes online on the next attempt', async () => {
    let attempts = 0;
    const { connection, thingName } = connect({
      online: async (channel: BoothChannel) => {
        attempts += 1;
        if (attempts === 1) throw new Error('status not sent');
        await channel.publishStatus({ status: 'idle' });
      },
    });
    await connection.start(async () => undefined);
    expect(attempts).toBe(2);
    // The dropped first attempt left the last will; the second reported idle.
    await eventually(
      () => statusesOf(thingName).map((s) => s.status),
      (statuses) => statuses.join() === 'offline,idle',
    );
  });

  it('stop publishes the last status retained, disconnects, and is safe to repeat', async () => {
    const { connection, thingName, log } = connect();
    await connection.start(async () => undefined);
    await connection.stop(1000, () => ({ status: 'offline', software_version: '1' }));
    expect(connection.started).toBe(false);
    expect(connection.connected).toBe(false);
    expect(connection.current()).toBeUndefined();
    expect(log.messages('info')).toContain('booth offline');
    await eventually(
      () => statusesOf(thingName).at(-1)?.status,
      (status) => status === 'offline',
    );
    await connection.stop(1000, () => {
      throw new Error('not asked again');
    });
    // Retained: a client subscribing later still reads offline.
    const late = await mqtt.connectAsync(url, { reconnectPeriod: 0 });
    const got = new Promise<string>((resolve) =>
      late.on('message', (_t, p) => resolve(p.toString())),
    );
    await late.subscribeAsync(mqttTopics.status(thingName), { qos: 1 });
    expect(JSON.parse(await got)).toMatchObject({ status: 'offline' });
    await late.endAsync();
  });

  it('orders its reports and each connection’s last will (boot, connection, seq)', async () => {
    const { connection, thingName } = connect({}, { boot: () => 4242 });
    await connection.start(async () => undefined);
    await connection.current()!.publishStatus({ status: 'busy' });
    brokerClients.get(thingName)!.conn.destroy();
    // The will of connection 1, then `online` again on connection 2.
    await eventually(
      () => statusesOf(thingName).map((s) => s.status),
      (statuses) => statuses.join() === 'idle,busy,offline,idle',
    );
    expect(statusesOf(thingName).map((s) => s.order)).toEqual([
      { boot: 4242, connection: 1, seq: 1 },
      { boot: 4242, connection: 1, seq: 2 },
      { boot: 4242, connection: 1 },
      { boot: 4242, connection: 2, seq: 3 },
    ]);
    brokerClients.get(thingName)!.conn.destroy();
    await eventually(
      () => statusesOf(thingName).map((s) => s.order),
      (orders) => orders.length === 6,
    );
    expect(
      statusesOf(thingName)
        .slice(4)
        .map((s) => s.order),
    ).toEqual([
      { boot: 4242, connection: 2 },
      { boot: 4242, connection: 3, seq: 4 },
    ]);
  });

  it('leaves its last will (offline) when the connection drops', async () => {
    const { connection, thingName } = connect();
    await connection.start(async () => undefined);
    const client = brokerClients.get(thingName);
    expect(client).toBeDefined();
    client!.conn.destroy();
    await eventually(
      () => statusesOf(thingName).map((s) => s.status),
      (statuses) => statuses.includes('offline'),
    );
  });
});
