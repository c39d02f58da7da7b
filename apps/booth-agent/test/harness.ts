// A broker, a test "server" on it and an HTTP server for the booth's downloads and uploads, for
// the booth agent's tests.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  type CaptureCommandPayload,
  type DeviceCommandMessage,
  type DeviceErrorReport,
  type DeviceReplyMessage,
  type DeviceStatusMessage,
  mqttTopics,
} from '@flashbooth/contracts';
import { Aedes, type Client } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { BoothAgent, type BoothAgentOptions } from '../src/agent.js';
import type { Camera } from '../src/camera/camera.js';
import { SimulatedCamera } from '../src/camera/simulated-camera.js';
import { silentLog } from '../src/log.js';
import { SimulatedPrinter } from '../src/printer/simulated-printer.js';

const REPLIES = mqttTopics.replies('test-server');

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function eventually<T>(read: () => T, accept: (value: T) => boolean, ms = 10_000) {
  const deadline = Date.now() + ms;
  let value = read();
  while (!accept(value)) {
    if (Date.now() > deadline) {
      throw new Error(`condition not met; last value ${JSON.stringify(value)}`);
    }
    await sleep(10);
    value = read();
  }
  return value;
}

/** A file the HTTP server hands out; `chunked` leaves out Content-Length. */
export interface ServedFile {
  body: Buffer;
  chunked?: boolean;
  headers?: Record<string, string>;
  /** The first this many requests are answered 503 (a server restarting). */
  unavailable?: number;
}

export { recordingLog } from './fakes.js';

/** A camera whose shots wait for `open()`, so a test can act in the middle of a session. */
export function gatedCamera(): Camera & { taking: Promise<void>; open(error?: Error): void } {
  let started!: () => void;
  const taking = new Promise<void>((resolve) => {
    started = resolve;
  });
  let finish!: (error?: Error) => void;
  const gate = new Promise<Error | undefined>((resolve) => {
    finish = resolve;
  });
  const inner = new SimulatedCamera({ width: 300, height: 200 });
  return {
    taking,
    open: (error) => finish(error),
    async capture(index) {
      started();
      const error = await gate;
      if (error) throw error;
      return inner.capture(index);
    },
  };
}

export interface Harness {
  url: string;
  httpUrl: string;
  spool: string;
  brokerClients: Map<string, Client>;
  /** The broker accepts logins only while this is true (false keeps a booth away). */
  accepting: boolean;
  statuses: { thing: string; status: DeviceStatusMessage }[];
  replies: DeviceReplyMessage[];
  reports: { thing: string; report: DeviceErrorReport }[];
  /** Served on GET by path. */
  files: Map<string, ServedFile>;
  /** GET requests by path. */
  gets: string[];
  /** PUTs received (all attempts), by path. */
  uploads: { path: string; contentType: string | undefined; body: Buffer }[];
  /** Media ids whose PUT answers 500, and whose confirmation answers 500. */
  failUpload: Set<number>;
  failConfirm: Set<number>;
  /** Media ids whose first link (`sig=x`) is refused with 403, as an expired one is. */
  expiredLinks: Set<number>;
  /** Media ids for which POST …/upload-url was asked (each time). */
  freshLinks: number[];
  confirmations: number[];
  /** The confirmations' bodies (`captured_at`), by media id. */
  confirmedCaptureTimes: Map<number, string | undefined>;
  /** The confirmations answered 200, with the credentials the booth sent. */
  confirmationRequests: { path: string; authorization: string | undefined }[];
  statusesOf(thing: string): DeviceStatusMessage[];
  reportsOf(thing: string): DeviceErrorReport[];
  /** Starts a booth with test defaults (short timers, silent log); stopped by `stopAgents`. */
  startAgent(
    options?: Partial<BoothAgentOptions>,
  ): Promise<{ agent: BoothAgent; thingName: string }>;
  /** Makes an agent with the same defaults without starting it. */
  makeAgent(options?: Partial<BoothAgentOptions>): { agent: BoothAgent; thingName: string };
  stopAgents(): Promise<void>;
  command(
    thingName: string,
    name: DeviceCommandMessage['command'],
    payload?: Record<string, unknown>,
    /** Default: 30 s from now. */
    expiresAt?: string,
  ): DeviceCommandMessage;
  /** Publishes a command already sent once again, as a QoS 1 redelivery does. */
  redeliver(thingName: string, message: DeviceCommandMessage): void;
  replyTo(id: string): Promise<DeviceReplyMessage>;
  /** Publishes a retained message as the server. */
  publishRetained(topic: string, body: string): Promise<void>;
  /** Drops a booth's connection; with `accepting` false it stays away. */
  disconnect(thingName: string): void;
  close(): Promise<void>;
}

/** A one-photo landscape capture; `uploads` lists the media ids to deliver. */
export function capturePayload(
  mediaIds: number[],
  httpUrl: string,
  foregroundUrl: string | null = '/foreground.png',
): CaptureCommandPayload {
  return {
    capture_id: randomUUID(),
    template: {
      id: 11,
      name: 'One up',
      orientation: 'landscape',
      is_cut: false,
      is_duplicated: false,
      images: [{ x: 360, y: 120, w: 2880, h: 1920, filter: 'none' }],
      foreground_url: foregroundUrl,
      capture_kind: 'photo',
      motion: null,
    },
    total_captures: 1,
    uploads: mediaIds.map((mediaId) => ({
      media_id: mediaId,
      upload_url: `${httpUrl}/upload/${mediaId}?sig=x`,
      content_type: 'image/jpeg' as const,
    })),
  };
}

let harnessCounter = 0;

export async function startHarness(spool: string): Promise<Harness> {
  harnessCounter += 1;
  const prefix = `fb-h${process.pid % 1000}x${harnessCounter}`;
  const brokerClients = new Map<string, Client>();
  const state = { accepting: true };
  const broker = await Aedes.createBroker({
    authenticate: (_client, _username, _password, done) => {
      if (state.accepting) {
        done(null, true);
        return;
      }
      // 3 = server unavailable: the booth keeps retrying.
      done(Object.assign(new Error('Server unavailable'), { returnCode: 3 }) as never, false);
    },
  });
  broker.on('client', (client) => brokerClients.set(client.id, client));
  const tcp: Server = createServer(broker.handle);
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  const url = `mqtt://127.0.0.1:${(tcp.address() as AddressInfo).port}`;

  const statuses: Harness['statuses'] = [];
  const replies: DeviceReplyMessage[] = [];
  const reports: Harness['reports'] = [];
  const server: MqttClient = await mqtt.connectAsync(url, {
    clientId: 'test-server',
    reconnectPeriod: 0,
  });
  server.on('message', (topic, payload) => {
    if (payload.length === 0) return;
    const body = JSON.parse(payload.toString('utf8')) as unknown;
    if (topic === REPLIES) {
      replies.push(body as DeviceReplyMessage);
      return;
    }
    const match = /^flashbooth\/devices\/([^/]+)\/(status|errors)$/.exec(topic);
    if (match?.[2] === 'status') {
      statuses.push({ thing: match[1]!, status: body as DeviceStatusMessage });
    }
    if (match?.[2] === 'errors')
      reports.push({ thing: match[1]!, report: body as DeviceErrorReport });
  });
  await server.subscribeAsync([mqttTopics.allStatuses, mqttTopics.allErrors, REPLIES], { qos: 1 });

  const files = new Map<string, ServedFile>();
  const gets: string[] = [];
  const uploads: Harness['uploads'] = [];
  const failUpload = new Set<number>();
  const failConfirm = new Set<number>();
  const expiredLinks = new Set<number>();
  const freshLinks: number[] = [];
  const confirmedCaptureTimes = new Map<number, string | undefined>();
  const confirmations: number[] = [];
  const confirmationRequests: Harness['confirmationRequests'] = [];
  const foreground = await sharp({
    create: { width: 36, height: 24, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .png()
    .toBuffer();
  const http: HttpServer = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      if (request.method === 'GET') {
        gets.push(path);
        if (path === '/foreground.png') {
          response.writeHead(200, { 'content-type': 'image/png' }).end(foreground);
          return;
        }
        const file = files.get(path);
        if (!file) {
          response.writeHead(404).end();
          return;
        }
        if (file.unavailable) {
          file.unavailable -= 1;
          response.writeHead(503).end();
          return;
        }
        if (file.chunked) {
          // Written in two parts without a length: Node sends it chunked.
          response.writeHead(200, { 'content-type': 'application/gzip', ...file.headers });
          const half = Math.floor(file.body.length / 2);
          response.write(file.body.subarray(0, half));
          response.end(file.body.subarray(half));
          return;
        }
        response
          .writeHead(200, {
            'content-type': 'application/gzip',
            'content-length': String(file.body.length),
            ...file.headers,
          })
          .end(file.body);
        return;
      }
      const upload = /^\/upload\/(\d+)\?/.exec(path);
      if (request.method === 'PUT' && upload) {
        const mediaId = Number(upload[1]);
        if (expiredLinks.has(mediaId) && !path.includes('sig=fresh')) {
          response.writeHead(403).end('{"message":"This link has expired."}');
          return;
        }
        uploads.push({
          path,
          contentType: request.headers['content-type'],
          body: Buffer.concat(chunks),
        });
        response.writeHead(failUpload.has(mediaId) ? 500 : 200).end();
        return;
      }
      const relink = /^\/api\/device\/media\/(\d+)\/upload-url$/.exec(path);
      if (request.method === 'POST' && relink) {
        const mediaId = Number(relink[1]);
        freshLinks.push(mediaId);
        const expires = new Date(Date.now() + 3600_000).toISOString().slice(0, 19);
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            media_id: mediaId,
            upload_url: `${httpUrl}/upload/${mediaId}?sig=fresh`,
            content_type: 'image/jpeg',
            expires_at: expires,
          }),
        );
        return;
      }
      const confirm = /^\/api\/device\/media\/(\d+)\/uploaded$/.exec(path);
      if (request.method === 'POST' && confirm) {
        const mediaId = Number(confirm[1]);
        if (failConfirm.has(mediaId)) {
          response.writeHead(500).end('{"message":"Internal server error"}');
          return;
        }
        confirmations.push(mediaId);
        const body = Buffer.concat(chunks).toString('utf8');
        confirmedCaptureTimes.set(
          mediaId,
          body ? (JSON.parse(body) as { captured_at?: string }).captured_at : undefined,
        );
        confirmationRequests.push({ path, authorization: request.headers.authorization });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      response.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const httpUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  const agents: BoothAgent[] = [];
  let thingCounter = 0;
  const makeAgent = (options: Partial<BoothAgentOptions> = {}) => {
    thingCounter += 1;
    const thingName = options.thingName ?? `${prefix}-${thingCounter}`;
    const agent = new BoothAgent({
      mqttUrl: url,
      thingName,
      secret: 'unused-on-an-open-broker',
      camera: new SimulatedCamera({ width: 300, height: 200 }),
      printer: new SimulatedPrinter(spool),
      softwareVersion: '9.9.9-test',
      log: silentLog,
      reconnectPeriodMs: 100,
      timers: {
        countdownMs: 10,
        deliveryRetryMs: 10,
        deliveryRetryMaxMs: 100,
        queueReportMs: 0,
      },
      serverUrl: httpUrl,
      ...options,
    });
    agents.push(agent);
    return { agent, thingName };
  };

  const harness: Harness = {
    url,
    httpUrl,
    spool,
    brokerClients,
    get accepting() {
      return state.accepting;
    },
    set accepting(value: boolean) {
      state.accepting = value;
    },
    statuses,
    replies,
    reports,
    files,
    gets,
    uploads,
    failUpload,
    failConfirm,
    expiredLinks,
    freshLinks,
    confirmations,
    confirmedCaptureTimes,
    confirmationRequests,
    statusesOf: (thing) => statuses.filter((e) => e.thing === thing).map((e) => e.status),
    reportsOf: (thing) => reports.filter((e) => e.thing === thing).map((e) => e.report),
    makeAgent,
    async startAgent(options) {
      const made = makeAgent(options);
      await made.agent.start();
      return made;
    },
    async stopAgents() {
      state.accepting = true;
      for (const agent of agents.splice(0)) await agent.stop();
    },
    command(
      thingName,
      name,
      payload = {},
      expiresAt = new Date(Date.now() + 30_000).toISOString(),
    ) {
      const message: DeviceCommandMessage = {
        id: randomUUID(),
        command: name,
        payload,
        reply_to: REPLIES,
        expires_at: expiresAt,
      };
      server.publish(mqttTopics.commands(thingName), JSON.stringify(message), { qos: 1 });
      return message;
    },
    redeliver(thingName, message) {
      server.publish(mqttTopics.commands(thingName), JSON.stringify(message), { qos: 1 });
    },
    async replyTo(id) {
      return (await eventually(
        () => replies.find((reply) => reply.id === id),
        (reply) => reply !== undefined,
      ))!;
    },
    async publishRetained(topic, body) {
      await server.publishAsync(topic, body, { qos: 1, retain: true });
    },
    disconnect(thingName) {
      brokerClients.get(thingName)?.conn.destroy();
    },
    async close() {
      await harness.stopAgents();
      await server.endAsync(true);
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
  return harness;
}

/**
 * One harness for a test file: started before its first test with the spool in a fresh
 * temporary folder (`prefix`), its booths stopped after each test, closed and the folder deleted
 * after the last. `ready` gets the harness and the folder before the first test.
 */
export function useHarness(
  prefix: string,
  ready: (harness: Harness, dir: string) => void | Promise<void>,
): void {
  let harness: Harness | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), prefix));
    // Made up front, so a test can list it before the first print.
    const spool = path.join(dir, 'spool');
    await mkdir(spool);
    harness = await startHarness(spool);
    await ready(harness, dir);
  });
  afterEach(async () => {
    await harness?.stopAgents();
  });
  afterAll(async () => {
    await harness?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
}
