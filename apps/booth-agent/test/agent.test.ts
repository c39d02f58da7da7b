import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  type CaptureCommandPayload,
  type DeviceCommandMessage,
  type DeviceReplyMessage,
  type DeviceStatusMessage,
  mqttTopics,
} from '@flashbooth/contracts';
import { Aedes, type Client } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BOOTH_MESSAGES,
  BoothAgent,
  commandDeadline,
  type BoothAgentOptions,
} from '../src/agent.js';
import { SimulatedCamera } from '../src/camera/simulated-camera.js';
import { silentLog } from '../src/log.js';
import { SimulatedPrinter } from '../src/printer/simulated-printer.js';
import { LAYOUTS } from '../src/template.js';

const REPLIES = mqttTopics.replies('test-server');

/** An open broker (no auth) on a free port, and the aedes clients by id. */
let broker: Aedes;
let tcp: Server;
let url: string;
const brokerClients = new Map<string, Client>();

/** The test acting as the server: hears every status and every reply. */
let server: MqttClient;
const statuses: { thing: string; status: DeviceStatusMessage }[] = [];
const replies: DeviceReplyMessage[] = [];

/** What the upload target received. */
let http: HttpServer;
let httpUrl: string;
const uploads: { path: string; contentType: string | undefined; body: Buffer }[] = [];
const confirmations: { path: string; authorization: string | undefined }[] = [];
let spool: string;
const agents: BoothAgent[] = [];

async function eventually<T>(read: () => T, accept: (value: T) => boolean, ms = 5000) {
  const deadline = Date.now() + ms;
  let value = read();
  while (!accept(value)) {
    if (Date.now() > deadline) {
      throw new Error(`condition not met; last value ${JSON.stringify(value)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
    value = read();
  }
  return value;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  broker = await Aedes.createBroker();
  broker.on('client', (client) => brokerClients.set(client.id, client));
  tcp = createServer(broker.handle);
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  url = `mqtt://127.0.0.1:${(tcp.address() as AddressInfo).port}`;

  server = await mqtt.connectAsync(url, { clientId: 'test-server', reconnectPeriod: 0 });
  server.on('message', (topic, payload) => {
    if (payload.length === 0) return;
    const body = JSON.parse(payload.toString('utf8')) as unknown;
    if (topic === REPLIES) {
      replies.push(body as DeviceReplyMessage);
      return;
    }
    const match = /^flashbooth\/devices\/([^/]+)\/status$/.exec(topic);
    if (match) statuses.push({ thing: match[1]!, status: body as DeviceStatusMessage });
  });
  await server.subscribeAsync([mqttTopics.allStatuses, REPLIES], { qos: 1 });

  http = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'GET' && request.url === '/foreground.png') {
        // A canvas-sized overlay would be large; compose stretches this to the canvas.
        void sharp({
          create: {
            width: 36,
            height: 24,
            channels: 4,
            background: { r: 0, g: 0, b: 0, alpha: 0 },
          },
        })
          .png()
          .toBuffer()
          .then((png) => response.writeHead(200, { 'content-type': 'image/png' }).end(png));
        return;
      }
      if (request.method === 'POST' && request.url?.startsWith('/api/device/media/')) {
        confirmations.push({ path: request.url, authorization: request.headers.authorization });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      if (request.method === 'PUT') {
        uploads.push({
          path: request.url ?? '',
          contentType: request.headers['content-type'],
          body: Buffer.concat(chunks),
        });
        response.writeHead(200).end();
        return;
      }
      response.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  httpUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  spool = await mkdtemp(path.join(os.tmpdir(), 'flashbooth-agent-spool-'));
});

afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.stop();
});

afterAll(async () => {
  await server?.endAsync(true);
  await new Promise<void>((resolve) => broker?.close(() => resolve()));
  await new Promise<void>((resolve) => tcp?.close(() => resolve()));
  await new Promise<void>((resolve) => http?.close(() => resolve()));
  if (spool) await rm(spool, { recursive: true, force: true });
});

let thingCounter = 0;
async function startAgent(options: Partial<BoothAgentOptions> = {}) {
  thingCounter += 1;
  const thingName = `fb-test${thingCounter}`;
  const agent = new BoothAgent({
    mqttUrl: url,
    thingName,
    secret: 'unused-on-an-open-broker',
    camera: new SimulatedCamera({ width: 300, height: 200 }),
    printer: new SimulatedPrinter(spool),
    softwareVersion: '9.9.9-test',
    log: silentLog,
    reconnectPeriodMs: 100,
    timers: { countdownMs: 20, uploadRetryMs: 10 },
    serverUrl: httpUrl,
    ...options,
  });
  agents.push(agent);
  await agent.start();
  return { agent, thingName };
}

const statusesOf = (thing: string) =>
  statuses.filter((entry) => entry.thing === thing).map((entry) => entry.status);

function command(
  thingName: string,
  name: DeviceCommandMessage['command'],
  payload: Record<string, unknown> = {},
  expiresAt = new Date(Date.now() + 5000).toISOString(),
): DeviceCommandMessage {
  const message: DeviceCommandMessage = {
    id: randomUUID(),
    command: name,
    payload,
    reply_to: REPLIES,
    expires_at: expiresAt,
  };
  server.publish(mqttTopics.commands(thingName), JSON.stringify(message), { qos: 1 });
  return message;
}

const replyTo = async (id: string): Promise<DeviceReplyMessage> =>
  (await eventually(
    () => replies.find((reply) => reply.id === id),
    (reply) => reply !== undefined,
  ))!;

function capturePayload(uploadCount = 1): CaptureCommandPayload {
  const layout = LAYOUTS.landscape3;
  return {
    capture_id: randomUUID(),
    template: {
      id: 7,
      name: 'Three up',
      orientation: layout.orientation,
      is_cut: false,
      is_duplicated: false,
      images: layout.images.map((slot) => ({ ...slot })),
      foreground_url: '/foreground.png',
    },
    total_captures: layout.images.length,
    uploads: Array.from({ length: uploadCount }, (_, index) => ({
      media_id: 100 + index,
      upload_url: `${httpUrl}/upload/${100 + index}?sig=x`,
      content_type: 'image/jpeg' as const,
    })),
  };
}

describe('BoothAgent on a real broker', () => {
  it('publishes a retained idle status with its version and prints left', async () => {
    const { thingName } = await startAgent({ printsLeft: 321 });
    const [first] = await eventually(
      () => statusesOf(thingName),
      (found) => found.length > 0,
    );
    expect(first).toMatchObject({
      status: 'idle',
      software_version: '9.9.9-test',
      prints_left: 321,
      settings_revision: 0,
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
    });
    // Retained: a client that subscribes later still gets it.
    const late = await mqtt.connectAsync(url, { reconnectPeriod: 0 });
    const got = new Promise<DeviceStatusMessage>((resolve) =>
      late.on('message', (_topic, payload) =>
        resolve(JSON.parse(payload.toString()) as DeviceStatusMessage),
      ),
    );
    await late.subscribeAsync(mqttTopics.status(thingName), { qos: 1 });
    expect(await got).toMatchObject({ status: 'idle' });
    await late.endAsync();
  });

  it('connects as its thing name with its secret and a clean session', async () => {
    const { thingName } = await startAgent();
    const client = brokerClients.get(thingName);
    expect(client).toBeDefined();
    expect(client?.clean).toBe(true);
  });

  it('answers ping on reply_to with the same id and its current status', async () => {
    const { thingName } = await startAgent({ printsLeft: 500 });
    const sent = command(thingName, 'ping');
    expect(await replyTo(sent.id)).toEqual({
      id: sent.id,
      status: 'idle',
      software_version: '9.9.9-test',
      prints_left: 500,
      settings_revision: 0,
    });
  });

  it('ignores a command whose expires_at has passed (with or without a zone suffix)', async () => {
    const { thingName } = await startAgent();
    const past = new Date(Date.now() - 1000).toISOString();
    const expired = command(thingName, 'ping', {}, past);
    const expiredNoZone = command(thingName, 'ping', {}, past.slice(0, 19));
    const fresh = command(thingName, 'ping');
    await replyTo(fresh.id);
    await sleep(100);
    expect(replies.find((reply) => reply.id === expired.id)).toBeUndefined();
    expect(replies.find((reply) => reply.id === expiredNoZone.id)).toBeUndefined();
  });

  it('reads expiry times as UTC', () => {
    expect(commandDeadline('2025-05-14T10:20:30')).toBe(Date.UTC(2025, 4, 14, 10, 20, 30));
    expect(commandDeadline('2025-05-14T10:20:30Z')).toBe(Date.UTC(2025, 4, 14, 10, 20, 30));
    expect(commandDeadline(undefined)).toBeUndefined();
    expect(commandDeadline('soon')).toBeUndefined();
  });

  it('leaves an offline last will when its connection drops, then comes back idle', async () => {
    const { thingName } = await startAgent();
    await eventually(
      () => statusesOf(thingName),
      (found) => found.at(-1)?.status === 'idle',
    );
    brokerClients.get(thingName)!.conn.destroy();
    await eventually(
      () => statusesOf(thingName).map((status) => status.status),
      (found) => found.includes('offline'),
    );
    await eventually(
      () => statusesOf(thingName).map((status) => status.status),
      (found) => found.indexOf('offline') < found.lastIndexOf('idle'),
    );
    // Subscribed again after reconnecting.
    const sent = command(thingName, 'ping');
    expect(await replyTo(sent.id)).toMatchObject({ status: 'idle' });
  });

  it('reports offline when stopped', async () => {
    const { agent, thingName } = await startAgent();
    await agent.stop();
    await eventually(
      () => statusesOf(thingName).at(-1)?.status,
      (status) => status === 'offline',
    );
  });

  it('runs a capture: accepted, ready, photos, print, upload, idle; one print off the roll', async () => {
    const { agent, thingName } = await startAgent({ printsLeft: 50 });
    const before = new Set(await readdir(spool));
    const payload = capturePayload(2);
    const sent = command(thingName, 'capture', payload);
    expect(await replyTo(sent.id)).toEqual({ id: sent.id, status: 'accepted' });

    // Busy while the session runs: ping still answers, a second capture is refused.
    const ping = command(thingName, 'ping');
    expect((await replyTo(ping.id)).status).toMatch(/^(ready|processing|uploading)$/);
    const second = command(thingName, 'capture', capturePayload());
    expect(await replyTo(second.id)).toEqual({ id: second.id, error: BOOTH_MESSAGES.busy });

    await eventually(
      () => statusesOf(thingName).map((status) => status.status),
      (found) => found.at(-1) === 'idle' && found.includes('ready'),
    );
    await agent.idle();
    const sequence = statusesOf(thingName).map((status) => status.status);
    expect(sequence.slice(sequence.indexOf('ready'))).toEqual([
      'ready',
      'processing',
      'uploading',
      'idle',
    ]);
    expect(statusesOf(thingName).at(-1)?.prints_left).toBe(49);
    expect(agent.printsLeft).toBe(49);

    const mine = uploads.filter((upload) => /^\/upload\/10[01]\?sig=x$/.test(upload.path));
    expect(mine.map((upload) => upload.path).sort()).toEqual([
      '/upload/100?sig=x',
      '/upload/101?sig=x',
    ]);
    for (const upload of mine) {
      expect(upload.contentType).toBe('image/jpeg');
      const meta = await sharp(upload.body).metadata();
      expect(meta).toMatchObject({ format: 'jpeg', width: 3600, height: 2400 });
    }
    // Each upload is confirmed to the server as this booth.
    const confirmed = confirmations.filter((c) =>
      /\/api\/device\/media\/10[01]\/uploaded$/.test(c.path),
    );
    expect(confirmed.map((c) => c.path).sort()).toEqual([
      '/api/device/media/100/uploaded',
      '/api/device/media/101/uploaded',
    ]);
    expect(confirmed[0]?.authorization).toMatch(new RegExp(`^Device ${thingName}:\\S+$`));
    const spooled = (await readdir(spool)).filter((name) => !before.has(name));
    expect(spooled.filter((name) => name.endsWith('-media-100.jpg'))).toHaveLength(1);
  });

  it('refuses a capture with an error reply when the roll is empty', async () => {
    const { thingName } = await startAgent({ printsLeft: 0 });
    const sent = command(thingName, 'capture', capturePayload());
    expect(await replyTo(sent.id)).toEqual({ id: sent.id, error: BOOTH_MESSAGES.rollEmpty });
    const ping = command(thingName, 'ping');
    expect(await replyTo(ping.id)).toMatchObject({ status: 'idle', prints_left: 0 });
  });

  it('refuses a malformed capture and a capture whose foreground cannot be fetched', async () => {
    const { thingName } = await startAgent();
    const malformed = command(thingName, 'capture', { template: {} });
    expect((await replyTo(malformed.id)).error).toMatch(/^Invalid capture command/);
    const payload = capturePayload();
    payload.template.foreground_url = '/missing.png';
    const missing = command(thingName, 'capture', payload);
    expect(await replyTo(missing.id)).toEqual({ id: missing.id, error: BOOTH_MESSAGES.foreground });
    const ping = command(thingName, 'ping');
    expect(await replyTo(ping.id)).toMatchObject({ status: 'idle' });
  });

  it('rejects start() when the broker refuses the login', async () => {
    const strict = await Aedes.createBroker({
      authenticate: (_client, _username, _password, done) =>
        done(
          Object.assign(new Error('Bad user name or password'), { returnCode: 4 }) as never,
          false,
        ),
    });
    const strictTcp = createServer(strict.handle);
    await new Promise<void>((resolve) => strictTcp.listen(0, '127.0.0.1', resolve));
    const agent = new BoothAgent({
      mqttUrl: `mqtt://127.0.0.1:${(strictTcp.address() as AddressInfo).port}`,
      thingName: 'fb-refused',
      secret: 'wrong',
      camera: new SimulatedCamera(),
      printer: new SimulatedPrinter(spool),
      softwareVersion: '1',
      log: silentLog,
    });
    await expect(agent.start()).rejects.toThrow(/refused the login of fb-refused/);
    await agent.stop();
    await new Promise<void>((resolve) => strict.close(() => resolve()));
    await new Promise<void>((resolve) => strictTcp.close(() => resolve()));
  });
});
