/**
 * Delivery of a booth's photos (issue 22, docs/benchmarks.md "Booth delivery"):
 *
 * 1. Delivery time on the demo booth setup: the server (buildApp, embedded broker, local object
 *    store, PGlite) and a booth agent in the same process as `npm start` runs its demo booth
 *    (simulated camera at its default size, simulated printer spooling to disk, the delivery queue
 *    on disk with fsync), with no countdown. BENCH_CAPTURES (100) captures one after another
 *    through the visitor API on a three-photo strip template; each one's delivery time is what
 *    the server stores: from the end of the capture (the booth's `captured_at`, taken when the
 *    last photo is in) to the confirmed upload (`uploaded_at`). It covers composing, the queue's
 *    fsync'd writes, printing, the PUT and the confirmation.
 * 2. Draining a backlog: BENCH_BACKLOG (500) items wait in a booth's queue folder (a capture
 *    each, made through the visitor API with a booth that accepts at once, then written into the
 *    queue with a composed print as the agent writes them); the agent starts with its HTTP cut
 *    off by a proxy, the proxy is switched on, and the clock runs from then until the server has
 *    every item confirmed. The worker's longest pause is 250 ms here, so it notices within that.
 *
 * Usage: npm run bench:delivery
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  type CaptureCommandPayload,
  captureCount,
  type DeviceCommandMessage,
  mqttTopics,
} from '@flashbooth/contracts';
import { composePrint, LAYOUTS, samplePhoto } from '@flashbooth/print-composition';
import mqtt from 'mqtt';
import { BoothAgent } from '../apps/booth-agent/src/agent.js';
import { SimulatedCamera } from '../apps/booth-agent/src/camera/simulated-camera.js';
import { DeliveryQueue } from '../apps/booth-agent/src/delivery/delivery-queue.js';
import { DiskQueueFolder } from '../apps/booth-agent/src/delivery/queue-folder.js';
import { silentLog } from '../apps/booth-agent/src/log.js';
import { SimulatedPrinter } from '../apps/booth-agent/src/printer/simulated-printer.js';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { DevicesRepository } from '../apps/server/src/modules/devices/devices.repository.js';
import { MediaRepository } from '../apps/server/src/modules/media/media.repository.js';
import {
  devices,
  organizations,
  templateImages,
  templateOrganizations,
  templates,
} from '../apps/server/src/db/schema.js';
import {
  hashDeviceSecret,
  newDeviceSecret,
  newThingName,
} from '../apps/server/src/security/device-credentials.js';

const CAPTURES = Number(process.env.BENCH_CAPTURES ?? 100);
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 500);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A TCP proxy to the server that can be switched off (it then drops every connection). */
class SwitchableProxy {
  on = true;
  private readonly sockets = new Set<net.Socket>();
  readonly server = net.createServer((client) => {
    if (!this.on) {
      client.destroy();
      return;
    }
    const upstream = net.connect(this.port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });

  constructor(private readonly port: number) {}

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  switchOff(): void {
    this.on = false;
    for (const socket of this.sockets) socket.destroy();
  }
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'flashbooth-bench-delivery-'));
const database = await openDatabase({});
const config = loadConfig({
  NODE_ENV: 'test',
  AUTH_SECRET: randomBytes(32).toString('hex'),
  DATA_DIR: dataDir,
  DEMO_DATA: 'false',
  LOG_LEVEL: 'silent',
  PORT: '0',
  MQTT_PORT: '0',
  MQTT_HOST: '127.0.0.1',
  OTP_SEND_LIMIT_PER_IP: '1000000',
  ACCESS_TOKEN_TTL_SECONDS: '86400',
  CAPTURE_DELIVERY_MARGIN_SECONDS: '86400',
});
const app = await buildApp(config, { database, logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const brokerUrl = app.deviceBrokerUrl!;
const { db } = database;
const mediaRows = new MediaRepository(db);
const deviceRows = new DevicesRepository(db);
const agents: BoothAgent[] = [];

try {
  // A free three-photo strip template (portrait6, duplicated), as the demo booth offers.
  const [org] = await db
    .insert(organizations)
    .values({ name: 'Bench Mall' })
    .returning({ id: organizations.id });
  const layout = LAYOUTS.portrait6;
  const [template] = await db
    .insert(templates)
    .values({ name: 'Bench strips', orientation: 'portrait', isCut: true, isDuplicated: true })
    .returning({ id: templates.id });
  await db.insert(templateImages).values(
    layout.images.map(({ x, y, w, h }) => ({
      templateId: template!.id,
      x,
      y,
      w,
      h,
      filter: 'none',
    })),
  );
  await db.insert(templateOrganizations).values({ templateId: template!.id, orgId: org!.id });
  const booth = async (name: string) => {
    const thingName = newThingName();
    const secret = newDeviceSecret();
    const [row] = await db
      .insert(devices)
      .values({ name, orgId: org!.id, thingName, secretHash: hashDeviceSecret(secret) })
      .returning({ id: devices.id });
    return { id: row!.id, thingName, secret };
  };

  const phone = `+9182${String(process.pid % 10_000).padStart(4, '0')}0001`;
  const post = (url: string, body: unknown, token?: string) =>
    fetch(`${base}${url}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
  await post('/api/regular/auth/sign-up', { phone, name: 'Bench Visitor' });
  const sms = (await (
    await fetch(`${base}/api/dev/sms?phone=${encodeURIComponent(phone)}`)
  ).json()) as { items: { code: string }[] };
  const { access_token: token } = (await (
    await post('/api/regular/auth/verify', { phone, code: sms.items[0]!.code })
  ).json()) as { access_token: string };
  const capture = async (deviceId: number) => {
    const response = await post(
      `/api/regular/devices/${deviceId}/capture`,
      { template_id: template!.id },
      token,
    );
    if (response.status !== 200) throw new Error(`capture: ${await response.text()}`);
    return ((await response.json()) as { media_ids: number[] }).media_ids;
  };

  console.log(
    `Booth delivery; Node ${process.version}, ${os.cpus().length} CPUs, load average ` +
      os
        .loadavg()
        .map((load) => load.toFixed(2))
        .join(' '),
  );

  // ---- 1. Delivery time on the demo booth setup. ----
  const demo = await booth('Demo booth');
  const demoAgent = new BoothAgent({
    mqttUrl: brokerUrl,
    thingName: demo.thingName,
    secret: demo.secret,
    camera: new SimulatedCamera(),
    printer: new SimulatedPrinter(path.join(dataDir, 'demo-spool')),
    softwareVersion: 'bench',
    stateFile: path.join(dataDir, 'demo-booth-state.json'),
    queueDir: path.join(dataDir, 'demo-booth-queue'),
    serverUrl: base,
    log: silentLog,
    timers: { countdownMs: 0 },
  });
  agents.push(demoAgent);
  await demoAgent.start();
  const seconds: number[] = [];
  const started = performance.now();
  for (let i = 0; i < CAPTURES + 3; i += 1) {
    const [mediaId] = await capture(demo.id);
    const row = await until(
      `media ${mediaId} uploaded`,
      async () => (await mediaRows.findById(mediaId!))!,
      (found) => found.isUploaded && found.uploadedAt !== null,
    );
    await demoAgent.idle();
    await demoAgent.delivered();
    // The first three warm up sharp and the connections.
    if (i < 3) continue;
    if (!row.capturedAt) throw new Error(`media ${mediaId}: no captured_at stored`);
    seconds.push((row.uploadedAt!.getTime() - row.capturedAt.getTime()) / 1000);
  }
  const total = (performance.now() - started) / 1000;
  seconds.sort((a, b) => a - b);
  console.log(
    `\n1. Delivery time, end of capture → upload confirmed (as stored by the server), ` +
      `${seconds.length} captures on the demo booth setup (3 photos, portrait6 strips, ` +
      `${total.toFixed(0)} s in all):\n` +
      `   median ${percentile(seconds, 50).toFixed(2)} s, p95 ${percentile(seconds, 95).toFixed(2)} s, ` +
      `max ${seconds.at(-1)!.toFixed(2)} s`,
  );

  // ---- 2. A backlog of BACKLOG waiting items drained after reconnecting. ----
  const backlogBooth = await booth('Backlog booth');
  // A booth that accepts at once, so the server makes BACKLOG captures quickly.
  const scripted = await mqtt.connectAsync(brokerUrl, {
    clientId: backlogBooth.thingName,
    username: backlogBooth.thingName,
    password: backlogBooth.secret,
    reconnectPeriod: 0,
  });
  const commands: CaptureCommandPayload[] = [];
  scripted.on('message', (_topic, payload) => {
    const command = JSON.parse(payload.toString('utf8')) as DeviceCommandMessage;
    const reply =
      command.command === 'capture'
        ? (commands.push(command.payload as CaptureCommandPayload), { status: 'accepted' })
        : { status: 'idle', software_version: 'bench', prints_left: 700 };
    scripted.publish(command.reply_to, JSON.stringify({ id: command.id, ...reply }), { qos: 1 });
  });
  await scripted.subscribeAsync(mqttTopics.commands(backlogBooth.thingName), { qos: 1 });
  const idle = JSON.stringify({ status: 'idle', software_version: 'bench', prints_left: 700 });
  await scripted.publishAsync(mqttTopics.status(backlogBooth.thingName), idle, {
    qos: 1,
    retain: true,
  });
  await until(
    'backlog booth idle',
    async () => (await deviceRows.findById(backlogBooth.id))!,
    (row) => row.status === 'idle',
  );
  for (let i = 0; i < BACKLOG; i += 1) await capture(backlogBooth.id);
  await scripted.endAsync(true);

  // One print as the agent composes it, written into the queue for every capture.
  const photos = await Promise.all(
    Array.from({ length: captureCount(layout.images.length, true) }, (_, index) =>
      samplePhoto(index, { width: 1620, height: 1080, takenAt: new Date() }),
    ),
  );
  const print = await composePrint(
    {
      id: template!.id,
      name: 'Bench strips',
      orientation: 'portrait',
      is_cut: true,
      is_duplicated: true,
      images: layout.images.map((slot) => ({ ...slot, filter: 'none' })),
      foreground: null,
    },
    photos,
  );
  const queueDir = path.join(dataDir, 'backlog-booth-queue');
  const filling = new DeliveryQueue({
    folder: new DiskQueueFolder(queueDir),
    warnItems: 10_000,
    log: silentLog,
  });
  const fillStarted = performance.now();
  for (const command of commands) {
    const at = new Date();
    await filling.open(command, null, at);
    for (let index = 0; index < command.total_captures; index += 1) {
      await filling.addPhoto(command.capture_id, index, photos[index]!);
    }
    await filling.composed(command.capture_id, print, at);
    await filling.release(command.capture_id);
  }
  const fillSeconds = (performance.now() - fillStarted) / 1000;
  const bytes = filling.stats().bytes;

  const proxy = new SwitchableProxy(Number(new URL(base).port));
  const proxyUrl = await proxy.listen();
  proxy.switchOff();
  const backlogAgent = new BoothAgent({
    mqttUrl: brokerUrl,
    thingName: backlogBooth.thingName,
    secret: backlogBooth.secret,
    camera: new SimulatedCamera(),
    printer: new SimulatedPrinter(path.join(dataDir, 'backlog-spool')),
    softwareVersion: 'bench',
    stateFile: path.join(dataDir, 'backlog-booth-state.json'),
    queueDir,
    serverUrl: proxyUrl,
    log: silentLog,
    timers: { deliveryRetryMs: 100, deliveryRetryMaxMs: 250 },
  });
  agents.push(backlogAgent);
  const loadStarted = performance.now();
  await backlogAgent.start();
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  if (backlogAgent.deliveryQueue.items !== BACKLOG) {
    throw new Error(`the queue holds ${backlogAgent.deliveryQueue.items} items, not ${BACKLOG}`);
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const ids = commands.map((command) => command.uploads[0]!.media_id);
  const visitorId = (await mediaRows.findById(ids[0]!))!.userId;
  const drainStarted = performance.now();
  proxy.on = true;
  await until(
    'backlog delivered',
    async () =>
      (await mediaRows.uploadedStates(visitorId, ids)).filter((row) => row.isUploaded).length,
    (uploaded) => uploaded === BACKLOG,
    15 * 60_000,
  );
  const drainSeconds = (performance.now() - drainStarted) / 1000;
  await backlogAgent.delivered();
  console.log(
    `\n2. Backlog: ${BACKLOG} waiting items (${(bytes / 1024 / 1024).toFixed(0)} MB in the queue ` +
      `folder: ${captureCount(layout.images.length, true)} photos and a ` +
      `${(print.length / 1024).toFixed(0)} KB print each; written in ${fillSeconds.toFixed(1)} s, ` +
      `read at start-up in ${loadSeconds.toFixed(2)} s)\n` +
      `   drained ${drainSeconds.toFixed(1)} s after the network came back ` +
      `(${(BACKLOG / drainSeconds).toFixed(1)} items/s, one at a time, oldest first)`,
  );
  console.log(
    `\nload average at the end ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  );
  proxy.switchOff();
  proxy.server.close();
} finally {
  for (const agent of agents) await agent.stop().catch(() => undefined);
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}
