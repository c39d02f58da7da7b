/*
 * A whole installation on one machine, as docs/operations.md describes several instances: a
 * private PostgreSQL and Mosquitto, N server instances sharing them and one object store (the
 * local store on a shared folder), haproxy in front, and booth agents talking to the balancer
 * and the broker. Organization, template and booths are written straight into the database
 * once the instances have migrated it, as the delivery chaos test does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createOrganization, createTemplate } from '../media-fixtures.js';
import { and, count, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.js';
import { captures, devices, media } from '../../src/db/schema.js';
import { hashDeviceSecret, newDeviceSecret } from '../../src/security/device-credentials.js';
import type { CpuGroup } from './cgroup.js';
import {
  type Balance,
  BoothAgent,
  BoothFleet,
  freePort,
  Haproxy,
  PrivateMosquitto,
  PrivatePostgres,
  ServerInstance,
} from './cluster.js';

export const AUTH_SECRET = 'cluster-secret-cluster-secret-cluster-0123456789';
export const SUPER_PHONE = '+919990000001';

export interface InstallationOptions {
  instances: number;
  booths: number;
  /** The booths' price (paise): above 0 a visitor pays in the sandbox. */
  pricePaise?: number;
  /** Server settings on top of the installation's own (an empty value unsets one). */
  env?: Record<string, string>;
  countdownMs?: number;
  /** How often haproxy checks each instance's readiness (default 300 ms). */
  checkIntervalMs?: number;
  /**
   * How many instances haproxy sends requests to (default all); the others are its backups, up
   * and doing everything else an instance does (the broker's messages, the jobs), serving no
   * request while one of the first is up.
   */
  serving?: number;
  /**
   * Booths per agent process (default 1: each booth its own process, as on a booth computer).
   * Above 1 the booths run in fleets (`fleets`, not `agents`).
   */
  boothsPerProcess?: number;
  /** Each instance's CPU quota (cgroup.ts), by index: instance a in the first group and so on. */
  groups?: CpuGroup[];
  /** More settings for the booth agents (BOOTH_FLEET_STATUS_CHANGE_MS for busy fleets). */
  fleetEnv?: Record<string, string>;
  /** How haproxy picks an instance (default `leastconn`, as production's Caddyfiles). */
  balance?: Balance;
}

export class Installation {
  dir!: string;
  postgres!: PrivatePostgres;
  mosquitto!: PrivateMosquitto;
  instances: ServerInstance[] = [];
  haproxy!: Haproxy;
  agents: BoothAgent[] = [];
  fleets: BoothFleet[] = [];
  /** The shared DATA_DIR: the local object store's objects are in objects/. */
  dataDir!: string;
  orgId!: number;
  templateId!: number;
  booths: { id: number; thingName: string }[] = [];

  constructor(private readonly options: InstallationOptions) {}

  get url(): string {
    return this.haproxy.url;
  }

  get objectsDir(): string {
    return path.join(this.dataDir, 'objects');
  }

  async start(): Promise<void> {
    const { options } = this;
    this.dir = mkdtempSync(path.join(os.tmpdir(), 'flashbooth-cluster-'));
    this.dataDir = path.join(this.dir, 'data');
    [this.postgres, this.mosquitto] = await Promise.all([
      PrivatePostgres.create(this.dir),
      PrivateMosquitto.create(this.dir),
    ]);
    const env: Record<string, string> = {
      NODE_ENV: 'test',
      DATABASE_URL: this.postgres.url,
      MQTT_URL: this.mosquitto.url,
      AUTH_SECRET,
      DATA_DIR: this.dataDir,
      DEMO_DATA: 'false',
      LOG_LEVEL: 'info',
      SMS_PROVIDER: 'outbox',
      PAYMENT_PROVIDER: 'sandbox',
      SUPER_USER_PHONES: SUPER_PHONE,
      OTP_SEND_LIMIT_PER_IP: '100000',
      OTP_SEND_LIMIT_PER_PHONE: '100',
      OTP_GLOBAL_HOURLY_LIMIT: '100000',
      OTP_BACKOFF_BASE_SECONDS: '0',
      ACCESS_TOKEN_TTL_SECONDS: '7200',
      // Every instance sweeps and reconciles often, so the two race for the same items.
      CAPTURE_SWEEP_INTERVAL_MS: '500',
      MEDIA_PREVIEW_SWEEP_INTERVAL_MS: '1000',
      MEDIA_PREVIEW_LEASE_SECONDS: '5',
      PAYMENT_RECONCILE_INTERVAL_SECONDS: '1',
      // A capture the booth never took is given back soon after its countdown.
      CAPTURE_DELIVERY_MARGIN_SECONDS: '5',
      DEVICE_COMMAND_TIMEOUT_MS: '4000',
      DEVICE_UPDATE_TIMEOUT_MS: '20000',
      ROLLOUT_TICK_MS: '500',
      ROLLOUT_RETRY_MS: '1000',
      TRUST_PROXY: 'true',
      // Each booth report is recorded by one instance (docs/operations.md); a booth's reports
      // recorded by two instances in the other order keep the newer (each names its order).
      MQTT_SHARE_GROUP: 'flashbooth',
      ...options.env,
    };
    for (const [name, value] of Object.entries(env)) if (value === '') delete env[name];
    const ports = await Promise.all(Array.from({ length: options.instances }, () => freePort()));
    this.instances = ports.map(
      (port, index) =>
        new ServerInstance(String.fromCharCode(97 + index), port, env, options.groups?.[index]),
    );
    // Started together: the first to take the migration lock migrates, the others wait for it.
    for (const instance of this.instances) instance.process.start();
    await Promise.all(this.instances.map((instance) => instance.waitReady(90_000)));
    this.haproxy = await Haproxy.create(
      this.dir,
      this.instances.map((instance, index) => ({
        name: instance.name,
        port: instance.port,
        backup: index >= (options.serving ?? this.instances.length),
      })),
      options.checkIntervalMs,
      options.balance,
    );
    await this.seed();
    await Promise.all([
      ...this.agents.map((agent) => agent.start()),
      ...this.fleets.map((fleet) => fleet.start()),
    ]);
  }

  private async seed(): Promise<void> {
    const database = await this.database();
    try {
      const { db } = database;
      this.orgId = await createOrganization(db, 'Cluster Mall');
      this.templateId = await createTemplate(db, { orgIds: [this.orgId], slots: 1 });
      const perProcess = this.options.boothsPerProcess ?? 1;
      const agentOptions = {
        mqttUrl: this.mosquitto.url,
        serverUrl: this.haproxy.url,
        ...(this.options.countdownMs === undefined
          ? {}
          : { countdownMs: this.options.countdownMs }),
        ...(this.options.fleetEnv ? { env: this.options.fleetEnv } : {}),
      };
      const fleetBooths: { thingName: string; secret: string; dir: string }[] = [];
      for (let index = 0; index < this.options.booths; index += 1) {
        const thingName = `fb-cluster${process.pid % 1000}x${index}`;
        const secret = newDeviceSecret();
        const [row] = await db
          .insert(devices)
          .values({
            name: `Cluster booth ${index + 1}`,
            orgId: this.orgId,
            thingName,
            secretHash: hashDeviceSecret(secret),
            pricePaise: this.options.pricePaise ?? 3000,
            status: 'offline',
          })
          .returning({ id: devices.id });
        this.booths.push({ id: row!.id, thingName });
        const dir = path.join(this.dir, 'booths', thingName);
        if (perProcess > 1) fleetBooths.push({ thingName, secret, dir });
        else this.agents.push(new BoothAgent(thingName, secret, { ...agentOptions, dir }));
      }
      for (let from = 0; from < fleetBooths.length; from += perProcess) {
        const name = `fleet${this.fleets.length + 1}`;
        this.fleets.push(
          new BoothFleet(name, fleetBooths.slice(from, from + perProcess), {
            ...agentOptions,
            dir: path.join(this.dir, 'booths'),
          }),
        );
      }
    } finally {
      await database.close();
    }
  }

  /** A handle on the installation's database (close it after use). */
  database(): Promise<DatabaseHandle> {
    return openDatabase({ url: this.postgres.url });
  }

  /**
   * The photos of the captures the booths took for `userIds`: how many, how many are in with
   * their preview, and each one's delivery time (accepted by the booth → upload confirmed).
   */
  async deliveries(
    userIds: number[],
  ): Promise<{ items: number; complete: number; deliveryMs: number[] }> {
    const database = await this.database();
    try {
      const rows = await database.db
        .select({
          isUploaded: media.isUploaded,
          lowresKey: media.lowresKey,
          uploadedAt: media.uploadedAt,
          acceptedAt: captures.acceptedAt,
        })
        .from(media)
        .innerJoin(captures, eq(captures.captureId, media.captureId))
        .where(and(inArray(media.userId, userIds), isNotNull(captures.acceptedAt)));
      return {
        items: rows.length,
        complete: rows.filter((row) => row.isUploaded && row.lowresKey !== null).length,
        deliveryMs: rows.flatMap((row) =>
          row.uploadedAt && row.acceptedAt
            ? [row.uploadedAt.getTime() - row.acceptedAt.getTime()]
            : [],
        ),
      };
    } finally {
      await database.close();
    }
  }

  /**
   * pg_stat_statements' calls and rows so far for the statements whose text contains `like`
   * (PostgreSQL started with shared_preload_libraries=pg_stat_statements; the extension is made
   * on the first call).
   */
  async statementCounts(like: string): Promise<{ calls: number; rows: number }> {
    const database = await this.database();
    try {
      await database.db.execute(sql`create extension if not exists pg_stat_statements`);
      const result = await database.db.execute(
        sql`select coalesce(sum(calls), 0)::bigint as calls, coalesce(sum(rows), 0)::bigint as rows
              from pg_stat_statements where query like ${`%${like}%`}`,
      );
      const row = (result as unknown as { rows: { calls: string; rows: string }[] }).rows[0];
      return { calls: Number(row?.calls ?? 0), rows: Number(row?.rows ?? 0) };
    } finally {
      await database.close();
    }
  }

  /** How many of the installation's booths the database has online (any status but offline). */
  async boothsOnline(): Promise<number> {
    const database = await this.database();
    try {
      const [row] = await database.db
        .select({ online: count() })
        .from(devices)
        .where(and(eq(devices.orgId, this.orgId), ne(devices.status, 'offline')));
      return row?.online ?? 0;
    } finally {
      await database.close();
    }
  }

  /** Kills the instance named `name` with SIGKILL; `downMs` later starts it again. */
  async killAndRestart(name: string, downMs = 500): Promise<void> {
    const instance = this.instances.find((candidate) => candidate.name === name);
    if (!instance) throw new Error(`no instance ${name}`);
    await instance.kill();
    await new Promise((resolve) => setTimeout(resolve, downMs));
    await instance.start(90_000);
  }

  /** Stops everything (the agents first, so they do not wait on a closed server) and cleans up. */
  async stop(keepDir = false): Promise<void> {
    await Promise.all([
      ...this.agents.map((agent) => agent.stop()),
      ...this.fleets.map((fleet) => fleet.stop()),
    ]);
    await this.haproxy?.stop();
    await Promise.all(this.instances.map((instance) => instance.stop()));
    await Promise.all([this.mosquitto?.stop(), this.postgres?.stop()]);
    if (this.dir && !keepDir) rmSync(this.dir, { recursive: true, force: true });
  }
}
