/*
 * Chaos test of the booth's delivery queue (issue 22): the real server with its embedded broker
 * and local object store, and the real booth agent as its own process (`node --import tsx
 * apps/booth-agent/src/main.ts`), whose HTTP goes through a TCP proxy this test switches off.
 * MQTT stays direct, so capture commands keep arriving while every upload fails. Captures are
 * taken online, then offline; the agent is killed (SIGKILL) with items waiting and one capture
 * in the middle of its countdown, and restarted; one more capture is taken offline; then the
 * proxy comes back. Every photo must arrive exactly once (media rows, PUTs, stored objects) and
 * no capture's credit or payment may be lost or taken twice; the capture cut short by the kill
 * is given back once.
 *
 * The short form runs in the integration tier. The long form (`npm run test:chaos`) sets
 * CHAOS_OFFLINE_MS (how long the server stays unreachable) and CHAOS_CAPTURES (offline captures
 * before and after the kill) higher.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { asc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { type DatabaseHandle } from '../../src/db/client.js';
import { openPglite } from '../databases.js';
import {
  captures,
  creditLedger,
  devices,
  media,
  paymentTransactions,
  users,
} from '../../src/db/schema.js';
import { hashDeviceSecret, newDeviceSecret } from '../../src/security/device-credentials.js';
import { bearer, eventually, signedIn, sleep, testConfig } from '../harness.js';
import { createOrganization, createTemplate } from '../media-fixtures.js';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const OFFLINE_MS = Number(process.env.CHAOS_OFFLINE_MS ?? 0);
/** Offline captures before the kill and after the restart. */
const OFFLINE_CAPTURES = Number(process.env.CHAOS_CAPTURES ?? 1);
const LONG = OFFLINE_MS > 60_000;
const PRICE = 3000;

/** A TCP proxy to the server that can be switched off: it then drops every connection. */
class SwitchableProxy {
  private on = true;
  private readonly sockets = new Set<net.Socket>();
  private readonly server: net.Server;

  constructor(private readonly targetPort: number) {
    this.server = net.createServer((client) => {
      if (!this.on) {
        client.destroy();
        return;
      }
      const upstream = net.connect(this.targetPort, '127.0.0.1');
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
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  switchOff(): void {
    this.on = false;
    for (const socket of this.sockets) socket.destroy();
  }

  switchOn(): void {
    this.on = true;
  }

  async close(): Promise<void> {
    this.switchOff();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The booth agent as its own process; its log lines are kept to wait for and to show. */
class AgentProcess {
  readonly lines: string[] = [];
  private child: ChildProcess | undefined;

  constructor(private readonly env: Record<string, string>) {}

  async start(): Promise<void> {
    this.lines.length = 0;
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/booth-agent/src/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    let partial = '';
    const take = (chunk: Buffer) => {
      const text = partial + chunk.toString('utf8');
      const lines = text.split('\n');
      partial = lines.pop() ?? '';
      this.lines.push(...lines);
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    await this.waitFor('booth connected and idle', 60_000);
  }

  /** Waits for a log line containing every one of `parts`. */
  async waitFor(parts: string | string[], ms = 30_000): Promise<string> {
    const wanted = Array.isArray(parts) ? parts : [parts];
    const found = await eventually(
      () => this.lines.find((line) => wanted.every((part) => line.includes(part))),
      (line) => line !== undefined || this.child?.exitCode !== null,
      ms,
    ).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}\nagent log:\n${this.lines.join('\n')}`);
    });
    if (found === undefined) {
      throw new Error(`the agent exited (${this.child?.exitCode}):\n${this.lines.join('\n')}`);
    }
    return found;
  }

  async kill(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }
}

/** Every file under `dir` (the local object store's objects). */
function filesUnder(dir: string): string[] {
  let found: string[] = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) found = found.concat(filesUnder(file));
    else found.push(file);
  }
  return found;
}

describe('the delivery queue under chaos (booth agent as its own process)', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let proxy: SwitchableProxy;
  let agent: AgentProcess;
  let dir: string;
  let objectsDir: string;
  /** PUT answers of the object store, by path, and confirmations answered 200, by media id. */
  const puts: { url: string; status: number }[] = [];
  const confirms: number[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'flashbooth-chaos-'));
    database = await openPglite();
    const config = testConfig({
      OTP_SEND_LIMIT_PER_IP: '1000',
      MQTT_HOST: '127.0.0.1',
      // Longer than the booth stays cut off: the sweep must not give back a capture on its way.
      CAPTURE_DELIVERY_MARGIN_SECONDS: String(Math.ceil(OFFLINE_MS / 1000) + 600),
    });
    objectsDir = config.storage.localDir;
    app = await buildApp(config, { database, logger: false });
    app.addHook('onResponse', async (request, reply) => {
      if (request.method === 'PUT') puts.push({ url: request.url, status: reply.statusCode });
      const confirm = /^\/api\/device\/media\/(\d+)\/uploaded$/.exec(request.url);
      if (request.method === 'POST' && confirm && reply.statusCode === 200) {
        confirms.push(Number(confirm[1]));
      }
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    proxy = new SwitchableProxy((app.server.address() as AddressInfo).port);
  });

  afterAll(async () => {
    await agent?.kill('SIGTERM');
    await proxy?.close();
    await app?.close();
    await database?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    'delivers every photo exactly once after an outage and a kill -9; no credit or payment lost or taken twice',
    async () => {
      const { db } = database;
      const orgId = await createOrganization(db, 'Chaos Mall');
      const templateId = await createTemplate(db, { orgIds: [orgId], slots: 1 });
      const thingName = `fb-chaos${process.pid % 1000}`;
      const secret = newDeviceSecret();
      const [booth] = await db
        .insert(devices)
        .values({
          name: 'Chaos booth',
          orgId,
          thingName,
          secretHash: hashDeviceSecret(secret),
          pricePaise: PRICE,
          status: 'offline',
        })
        .returning({ id: devices.id });
      const deviceId = booth!.id;

      // Visitor A pays with credit; visitor B with a completed payment, taken offline.
      // A: one online, the offline ones but B's, the one cut short by the kill.
      const creditCaptures = 2 * OFFLINE_CAPTURES + 1;
      const a = await signedIn(app, 'regular');
      await db
        .update(users)
        .set({ creditsPaise: PRICE * creditCaptures })
        .where(eq(users.id, a.userId));
      const b = await signedIn(app, 'regular');
      const now = new Date();
      const [payment] = await db
        .insert(paymentTransactions)
        .values({
          userId: b.userId,
          deviceId,
          orgId,
          templateId,
          provider: 'sandbox',
          orderId: `T${randomUUID().replaceAll('-', '')}`,
          amountPaise: PRICE,
          state: 'COMPLETED',
          expiresAt: now,
          nextCheckAt: now,
          completedAt: now,
        })
        .returning({ id: paymentTransactions.id });

      const proxyPort = await proxy.listen();
      const boothDir = path.join(dir, 'booth');
      agent = new AgentProcess({
        BOOTH_MQTT_URL: app.deviceBrokerUrl!,
        BOOTH_THING_NAME: thingName,
        BOOTH_SECRET: secret,
        BOOTH_SERVER_URL: `http://127.0.0.1:${proxyPort}`,
        BOOTH_CAMERA: 'simulated',
        BOOTH_PRINTER: `simulated:${path.join(dir, 'spool')}`,
        BOOTH_DATA_DIR: boothDir,
        // Long enough to kill the agent in the middle of a session, short enough for a test.
        BOOTH_COUNTDOWN_MS: '800',
        BOOTH_DELIVERY_RETRY_MS: '200',
        BOOTH_DELIVERY_RETRY_MAX_MS: LONG ? '20000' : '1000',
        BOOTH_LOG_LEVEL: 'info',
      });
      await agent.start();
      await eventually(
        async () => (await db.select().from(devices).where(eq(devices.id, deviceId)))[0]?.status,
        (status) => status === 'idle',
      );

      /** One capture through the visitor API; resolves once the booth has queued it. */
      const captureAs = async (token: string, queued = true) => {
        const response = await app.inject({
          method: 'POST',
          url: `/api/regular/devices/${deviceId}/capture`,
          headers: bearer(token),
          payload: { template_id: templateId },
        });
        expect(response.statusCode, response.body).toBe(200);
        const mediaIds = response.json<{ media_ids: number[] }>().media_ids;
        const [row] = await db.select().from(media).where(eq(media.id, mediaIds[0]!));
        if (queued) await agent.waitFor([row!.captureId, 'queued for delivery']);
        return { mediaIds, captureId: row!.captureId };
      };
      const uploadedIds = async (ids: number[]) =>
        (await db.select().from(media).where(inArray(media.id, ids)))
          .filter((row) => row.isUploaded)
          .map((row) => row.id);

      // Online: delivered at once.
      const online = await captureAs(a.token);
      // The booth has the server's answer (else the confirmation would rightly be repeated).
      await agent.waitFor([`"mediaId":${online.mediaIds[0]}`, 'delivered']);
      expect(await uploadedIds(online.mediaIds)).toEqual(online.mediaIds);

      // Offline: captured and printed all the same; nothing arrives.
      const offlineStart = Date.now();
      proxy.switchOff();
      const delivered = [online];
      const spacing = OFFLINE_MS / (OFFLINE_CAPTURES * 2 + 1);
      delivered.push(await captureAs(b.token));
      for (let n = 1; n < OFFLINE_CAPTURES; n += 1) {
        await sleep(spacing);
        delivered.push(await captureAs(a.token));
      }
      expect(await uploadedIds(delivered.flatMap((c) => c.mediaIds))).toEqual(online.mediaIds);

      // kill -9 with items waiting and a capture in the middle of its countdown.
      await sleep(spacing);
      const cut = await captureAs(a.token, false);
      await agent.kill('SIGKILL');

      // Restarted, still offline: the queue is read back and the cut capture reported.
      await agent.start();
      await agent.waitFor('delivery queue read: resuming');
      await agent.waitFor([cut.captureId, 'given up']);
      await eventually(
        async () => (await db.select().from(devices).where(eq(devices.id, deviceId)))[0]?.status,
        (status) => status === 'idle',
      );
      for (let n = 0; n < OFFLINE_CAPTURES; n += 1) {
        await sleep(spacing);
        delivered.push(await captureAs(a.token));
      }
      await sleep(Math.max(0, OFFLINE_MS - (Date.now() - offlineStart)));
      expect(await uploadedIds(delivered.flatMap((c) => c.mediaIds))).toEqual(online.mediaIds);

      // The server is reachable again: everything waiting arrives.
      proxy.switchOn();
      const expected = delivered.flatMap((c) => c.mediaIds);
      await eventually(
        () => uploadedIds(expected),
        (ids) => ids.length === expected.length,
        LONG ? 120_000 : 30_000,
      ).catch((error: unknown) => {
        throw new Error(`${(error as Error).message}\nagent log:\n${agent.lines.join('\n')}`);
      });

      // Exactly once: one media row per capture, one successful PUT and one stored object each.
      const rows = await db
        .select()
        .from(media)
        .where(eq(media.deviceId, deviceId))
        .orderBy(asc(media.id));
      expect(rows).toHaveLength(delivered.length + 1);
      for (const row of rows) {
        const okPuts = puts.filter((p) => p.url.includes(row.s3Key) && p.status < 300);
        expect(okPuts, `PUTs of media ${row.id}`).toHaveLength(row.id === cut.mediaIds[0] ? 0 : 1);
      }
      const stored = filesUnder(objectsDir).filter((file) => !file.includes(`${path.sep}.tmp`));
      const mediaObjects = stored.filter((file) => rows.some((row) => file.endsWith(row.s3Key)));
      expect(mediaObjects).toHaveLength(delivered.length);
      expect([...confirms].sort((x, y) => x - y)).toEqual([...expected].sort((x, y) => x - y));

      // The cut capture was given back once; every other one charged once.
      const stateOf = async (id: string) =>
        (await db.select().from(captures).where(eq(captures.captureId, id)))[0]?.state;
      await eventually(
        () => stateOf(cut.captureId),
        (state) => state === 'failed',
      );
      // The others stay charged (accepted until the sweep closes them as delivered).
      for (const { captureId } of delivered) {
        expect(['accepted', 'delivered']).toContain(await stateOf(captureId));
      }
      const ledger = await db
        .select()
        .from(creditLedger)
        .where(eq(creditLedger.userId, a.userId))
        .orderBy(asc(creditLedger.id));
      expect(ledger.filter((row) => row.reason === 'capture')).toHaveLength(creditCaptures);
      expect(ledger.filter((row) => row.reason === 'refund')).toHaveLength(1);
      const [visitorA] = await db.select().from(users).where(eq(users.id, a.userId));
      // Everything spent but the capture cut short, given back once.
      expect(visitorA!.creditsPaise).toBe(PRICE);
      const [paid] = await db
        .select()
        .from(paymentTransactions)
        .where(eq(paymentTransactions.id, payment!.id));
      expect(paid).toMatchObject({
        state: 'COMPLETED',
        consumedCaptureId: delivered[1]!.captureId,
      });
      expect(await db.select().from(creditLedger).where(eq(creditLedger.userId, b.userId))).toEqual(
        [],
      );

      // The booth's queue folder is empty again; nothing was set aside.
      await eventually(
        () => readdirSync(path.join(boothDir, 'queue')),
        (left) => left.length === 0,
      );
    },
    LONG ? OFFLINE_MS + 300_000 : 120_000,
  );
});
