import { randomUUID } from 'node:crypto';
import type { Pool } from '@flashbooth/contracts';
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { DatabaseHandle } from '../../src/db/client.js';
import { eq } from 'drizzle-orm';
import {
  devices,
  media,
  organizationInvitations,
  organizationMembers,
  otpEvents,
  passkeys,
  users,
} from '../../src/db/schema.js';
import { openInfrastructure } from '../../src/infrastructure.js';
import type { DeviceLink } from '../../src/modules/mqtt/device-link.js';
import { registerRoutes, routeTable } from '../../src/routes.js';
import { createServices } from '../../src/services.js';
import { foregroundPng } from '../templates/templates-suite.js';
import {
  bearer,
  createOrg,
  latestCode,
  newPhone,
  post,
  signedIn,
  signedInOrgStaff,
  signedInProductAdmin,
  signedInSuperUser,
  startApp,
  type TestApp,
} from '../harness.js';

/*
 * Shared by the fuzz suite and the authorization matrix (issue 14, items 6 and 7): one app on
 * PGlite, one signed-in caller of every kind, fixtures that make real rows, and the list of
 * every route the app mounts (from routeTable, the same table buildApp mounts).
 */

/** Short booth timeouts (a booth that never answers costs milliseconds), no sign-in throttling
 * by address or globally (every request comes from 127.0.0.1), the broker hooks mounted. */
export const SECURITY_ENV: Record<string, string> = {
  DEVICE_COMMAND_TIMEOUT_MS: '20',
  DEVICE_UPDATE_TIMEOUT_MS: '20',
  OTP_SEND_LIMIT_PER_IP: '1000000',
  OTP_SEND_LIMIT_PER_PHONE: '1000',
  OTP_GLOBAL_HOURLY_LIMIT: '1000000',
  MQTT_HOOK_SECRET: 'security-suite-hook-secret',
  PAYMENT_RECONCILE_INTERVAL_SECONDS: '0',
};

/**
 * Every kind of caller (staff.md section 6, plus the people who are not staff). "Blocked" is a
 * person whose phone has spent its daily code budget (docs/security.md): no code is checked for
 * that phone, but the session they already had is theirs and keeps working. The blocked staff
 * member is a member of the target organization.
 */
export const CALLER_KINDS = [
  'anonymous',
  'visitor',
  'blocked visitor',
  'super user',
  'product admin',
  'org admin',
  'org member',
  'other org staff',
  'no org staff',
  'blocked staff',
] as const;
export type CallerKind = (typeof CALLER_KINDS)[number];

export interface Caller {
  kind: CallerKind;
  /** The pool of the caller's account; none for anonymous. */
  pool?: Pool;
  token?: string;
  userId?: number;
  phone?: string;
  /** Refresh cookies of two spare sessions (made before a blocked caller was blocked). */
  refreshCookies: string[];
}

/** The caller's own headers: its bearer token, if any. */
export const authHeaders = (caller: Caller): Record<string, string> =>
  caller.token ? bearer(caller.token) : {};

/** A device link whose booths accept every command at once (the matrix: allowed = 2xx). */
export class AcceptingLink implements DeviceLink {
  readonly kind = 'test' as const;
  async start() {}
  async stop() {}
  async ping() {}
  onStatus() {}
  onErrorReport() {}
  async publishSettings() {}
  async request() {
    return { id: randomUUID(), status: 'accepted' as const };
  }
}

export interface SecurityWorld {
  testApp: TestApp;
  app: FastifyInstance;
  database: DatabaseHandle;
  callers: Record<CallerKind, Caller>;
  /** The organization the org admin, org member and blocked staff belong to. */
  homeOrgId: number;
  /** The organization the other org staff member is admin of. */
  otherOrgId: number;
}

/** Spends the phone's daily code budget in `pool` (its wrong codes, recorded as the server does). */
export async function spendCodeBudget(world: SecurityWorld, pool: Pool, phone: string) {
  const { config, clock } = world.testApp;
  const now = clock.now();
  await world.database.db.insert(otpEvents).values(
    Array.from({ length: config.auth.dailyFailures }, (_, i) => ({
      pool,
      phone,
      ip: `203.0.113.${i + 1}`,
      kind: 'fail' as const,
      createdAt: new Date(now.getTime() - (i + 1) * 60_000),
    })),
  );
}

async function refreshCookie(app: FastifyInstance, pool: Pool, phone: string): Promise<string> {
  const signIn = await post(app, `/api/${pool}/auth/sign-in`, { phone });
  if (signIn.statusCode !== 200) throw new Error(`sign-in failed: ${signIn.body}`);
  const verify = await post(app, `/api/${pool}/auth/verify`, {
    phone,
    code: await latestCode(app, phone),
  });
  const cookie = verify.cookies.find((c) => c.name === 'flashbooth_refresh');
  if (!cookie) throw new Error(`verify failed: ${verify.body}`);
  return cookie.value;
}

/** Starts the app and signs in one caller of every kind. */
export async function startSecurityWorld(
  database: DatabaseHandle,
  deps: { deviceLink?: DeviceLink } = {},
  env: Record<string, string> = {},
): Promise<SecurityWorld> {
  const testApp = await startApp(database, { ...SECURITY_ENV, ...env }, deps);
  const { app } = testApp;
  const homeOrgId = await createOrg(database, 'Security home venue');
  const otherOrgId = await createOrg(database, 'Security other venue');
  const people: Record<
    Exclude<CallerKind, 'anonymous'>,
    { token: string; userId: number; phone: string }
  > = {
    visitor: await signedIn(app, 'regular'),
    'blocked visitor': await signedIn(app, 'regular'),
    'super user': await signedInSuperUser(testApp),
    'product admin': await signedInProductAdmin(app, database),
    'org admin': await signedInOrgStaff(app, database, homeOrgId, 'admin'),
    'org member': await signedInOrgStaff(app, database, homeOrgId, 'member'),
    'other org staff': await signedInOrgStaff(app, database, otherOrgId, 'admin'),
    'no org staff': await signedIn(app, 'enterprise'),
    'blocked staff': await signedInOrgStaff(app, database, homeOrgId, 'member'),
  };
  const callers = { anonymous: { kind: 'anonymous', refreshCookies: [] } } as unknown as Record<
    CallerKind,
    Caller
  >;
  for (const [kind, person] of Object.entries(people) as [
    CallerKind,
    (typeof people)['visitor'],
  ][]) {
    const pool: Pool = kind === 'visitor' || kind === 'blocked visitor' ? 'regular' : 'enterprise';
    const refreshCookies = [
      await refreshCookie(app, pool, person.phone),
      await refreshCookie(app, pool, person.phone),
    ];
    callers[kind] = { kind, pool, ...person, refreshCookies };
  }
  const world: SecurityWorld = { testApp, app, database, callers, homeOrgId, otherOrgId };
  await spendCodeBudget(world, 'regular', people['blocked visitor'].phone);
  await spendCodeBudget(world, 'enterprise', people['blocked staff'].phone);
  return world;
}

/** A 1×1 PNG, enough for the upload confirmations (they read the magic bytes). */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const SLOT = { x: 10, y: 10, w: 100, h: 100, filter: 'none' };

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Real rows for the requests to act on, made on first use through the staff API (as the super
 * user) or, where the API has no way, in the database. `fresh()` gives a new set whose
 * organization has the org admin, org member and blocked staff as members, so a call that
 * changes or deletes something never changes what another call sees.
 */
export class Fixtures {
  private readonly memo = new Map<string, Promise<unknown>>();
  constructor(
    readonly world: SecurityWorld,
    /** The organization the rows belong to; undefined = make a fresh one on first use. */
    private readonly givenOrgId?: number,
  ) {}

  static fresh(world: SecurityWorld) {
    return new Fixtures(world);
  }

  static shared(world: SecurityWorld) {
    return new Fixtures(world, world.homeOrgId);
  }

  private once<T>(key: string, make: () => Promise<T>): Promise<T> {
    if (!this.memo.has(key)) this.memo.set(key, make());
    return this.memo.get(key) as Promise<T>;
  }

  get app() {
    return this.world.app;
  }

  get superToken() {
    return this.world.callers['super user'].token!;
  }

  /** A call as the super user that must succeed; returns its JSON body. */
  async admin<T = Record<string, unknown>>(
    method: Method,
    url: string,
    payload?: object,
    pool: Pool = 'enterprise',
  ): Promise<T> {
    const response = await this.app.inject({
      method,
      url: url.startsWith('/') ? url : `/api/${pool}/${url}`,
      headers: bearer(this.superToken),
      ...(payload ? { payload } : {}),
    });
    if (response.statusCode >= 300) {
      throw new Error(`fixture ${method} ${url}: ${response.statusCode} ${response.body}`);
    }
    return (response.body ? response.json() : {}) as T;
  }

  orgId(): Promise<number> {
    return this.once('org', async () => {
      if (this.givenOrgId !== undefined) return this.givenOrgId;
      const { db } = this.world.database;
      const orgId = await createOrg(this.world.database);
      const { callers } = this.world;
      await db.insert(organizationMembers).values([
        { orgId, userId: callers['org admin'].userId!, role: 'admin' },
        { orgId, userId: callers['org member'].userId!, role: 'member' },
        { orgId, userId: callers['blocked staff'].userId!, role: 'member' },
      ]);
      return orgId;
    });
  }

  /** A device registered through the API and linked to the organization; captures are free. */
  device(): Promise<{ id: number; thingName: string; secret: string }> {
    return this.once('device', () => this.registerDevice());
  }

  /** Another such device at ₹50 (payments; no caller ever has credit). */
  pricedDevice(): Promise<{ id: number; thingName: string; secret: string }> {
    return this.once('pricedDevice', () => this.registerDevice(50));
  }

  private async registerDevice(priceRupees?: number) {
    const created = await this.admin<{ id: number; thing_name: string; secret: string }>(
      'POST',
      'devices',
    );
    await this.admin('PATCH', `devices/${created.id}/link`, { org_id: await this.orgId() });
    if (priceRupees)
      await this.admin('PATCH', `devices/${created.id}`, { price_rupees: priceRupees });
    // Recorded as connected and idle (its last report): an offline booth takes no payment or
    // capture. What it answers to commands is the suite's device link's.
    await this.world.database.db
      .update(devices)
      .set({ status: 'idle' })
      .where(eq(devices.id, created.id));
    return { id: created.id, thingName: created.thing_name, secret: created.secret };
  }

  /** A template with one slot, associated with the organization. */
  template(): Promise<number> {
    return this.once('template', async () => {
      const { id } = await this.admin<{ id: number }>('POST', 'templates', {
        name: 'Security strip',
        orientation: 'portrait',
      });
      await this.admin('POST', `templates/${id}/images`, SLOT);
      await this.admin('POST', `templates/${id}/orgs`, { org_id: await this.orgId() });
      return id;
    });
  }

  templateImage(): Promise<number> {
    return this.once('templateImage', async () => {
      const template = await this.template();
      const image = await this.admin<{ id: number }>('POST', `templates/${template}/images`, SLOT);
      return image.id;
    });
  }

  /** A key of an uploaded PNG, presigned and PUT as the console does (`kind` sample/foreground). */
  async templateUpload(kind: 'sample' | 'foreground'): Promise<string> {
    const template = await this.template();
    const presigned = await this.admin<Record<string, string>>(
      'POST',
      `templates/${template}/${kind}/presigned_upload`,
      { filename: 'art.png', contentType: 'image/png' },
    );
    // A foreground follows the foreground rule: the canvas size, transparent over the slot.
    const body = kind === 'foreground' ? await foregroundPng(2400, 3600, [SLOT]) : PNG;
    await this.put(presigned.upload_url!, body, 'image/png');
    return presigned[`${kind}_key`]!;
  }

  async logoUpload(): Promise<string> {
    const orgId = await this.orgId();
    const presigned = await this.admin<{ logo_key: string; upload_url: string }>(
      'POST',
      `organizations/${orgId}/logo/presigned_upload`,
      { filename: 'logo.png', contentType: 'image/png' },
    );
    await this.put(presigned.upload_url, PNG, 'image/png');
    return presigned.logo_key;
  }

  async put(url: string, body: Buffer, contentType: string) {
    const response = await this.app.inject({
      method: 'PUT',
      url,
      headers: { 'content-type': contentType },
      payload: body,
    });
    if (response.statusCode >= 300) throw new Error(`PUT ${url}: ${response.body}`);
  }

  /** A presigned upload URL of the local store (a fresh one each call). */
  async uploadUrl(): Promise<string> {
    const template = await this.template();
    const presigned = await this.admin<{ upload_url: string }>(
      'POST',
      `templates/${template}/sample/presigned_upload`,
      { filename: 'art.png', contentType: 'image/png' },
    );
    return presigned.upload_url;
  }

  /** A presigned download URL of the local store (the template's confirmed sample). */
  downloadUrl(): Promise<string> {
    return this.once('downloadUrl', async () => {
      const template = await this.template();
      await this.admin('POST', `templates/${template}/sample/confirm`, {
        sample_key: await this.templateUpload('sample'),
      });
      const read = await this.admin<{ sample_s3_url: string }>('GET', `templates/${template}`);
      return read.sample_s3_url;
    });
  }

  release(): Promise<number> {
    return this.once('release', async () => {
      const release = await this.admin<{ id: number }>('POST', 'software/releases', {
        version: `9.${Math.floor(Math.random() * 1e6)}.${this.memo.size}`,
        release_notes: 'Security suite',
      });
      return release.id;
    });
  }

  /** A release with an uploaded, confirmed file. */
  releaseWithFile(): Promise<number> {
    return this.once('releaseWithFile', async () => {
      const id = await this.release();
      const presigned = await this.admin<{ upload_url: string; s3_key: string }>(
        'POST',
        `software/releases/${id}/file/presigned_upload`,
        { filename: 'agent.tar.gz', contentType: 'application/gzip' },
      );
      await this.put(presigned.upload_url, Buffer.from('agent'), 'application/gzip');
      await this.admin('POST', `software/releases/${id}/file/confirm`, {
        s3_key: presigned.s3_key,
      });
      return id;
    });
  }

  channel(): Promise<number> {
    return this.once('channel', async () => {
      const channel = await this.admin<{ id: number }>('POST', 'software/channels', {
        name: `Channel ${randomUUID().slice(0, 8)}`,
        description: 'Security suite',
        release_id: await this.releaseWithFile(),
      });
      return channel.id;
    });
  }

  /** The device, following the channel (so an update has something to install). */
  updatableDevice(): Promise<number> {
    return this.once('updatableDevice', async () => {
      const device = await this.device();
      await this.admin('PATCH', `devices/${device.id}`, {
        software_channel_id: await this.channel(),
      });
      return device.id;
    });
  }

  /** A running rollout of the channel to the device that follows it. */
  rollout(): Promise<number> {
    return this.once('rollout', async () => {
      await this.updatableDevice();
      const rollout = await this.admin<{ id: number }>(
        'POST',
        `software/channels/${await this.channel()}/rollouts`,
        {},
      );
      return rollout.id;
    });
  }

  /** A passkey of `owner`, as registration stores it (the key itself is never checked here). */
  async passkey(owner: Caller): Promise<number> {
    const [row] = await this.world.database.db
      .insert(passkeys)
      .values({
        userId: owner.userId!,
        pool: owner.pool!,
        credentialId: randomUUID(),
        publicKey: 'pQECAyYgASFYIA',
        name: 'Laptop',
      })
      .returning({ id: passkeys.id });
    return row!.id;
  }

  /** A visitor account (not one of the callers), for the credit routes. */
  guest(): Promise<{ userId: number; phone: string }> {
    return this.once('guest', async () => {
      const phone = newPhone();
      const [row] = await this.world.database.db
        .insert(users)
        .values({ pool: 'regular', phone, name: 'Guest' })
        .returning({ id: users.id });
      return { userId: row!.id, phone };
    });
  }

  /** A staff account with a pending invitation… no: a third member of the organization. */
  subject(): Promise<number> {
    return this.once('subject', async () => {
      const [row] = await this.world.database.db
        .insert(users)
        .values({ pool: 'enterprise', phone: newPhone(), name: 'Subject' })
        .returning({ id: users.id });
      await this.world.database.db
        .insert(organizationMembers)
        .values({ orgId: await this.orgId(), userId: row!.id, role: 'member' });
      return row!.id;
    });
  }

  /** A pending invitation of the organization for `phone` (another phone when absent). */
  async invitation(phone = newPhone()): Promise<number> {
    const [row] = await this.world.database.db
      .insert(organizationInvitations)
      .values({ orgId: await this.orgId(), inviteePhone: phone, role: 'member' })
      .returning({ id: organizationInvitations.id });
    return row!.id;
  }

  /** The visitor whose rows the visitor routes act on: the caller when a visitor, else the visitor. */
  owner(caller: Caller): Caller {
    return caller.pool === 'regular' ? caller : this.world.callers.visitor;
  }

  /** One photo of `owner` at the device, in the database as a capture leaves it. */
  async media(owner: Caller): Promise<number> {
    return this.once(`media:${owner.kind}`, async () => {
      const capture = await this.app.inject({
        method: 'POST',
        url: `/api/regular/devices/${(await this.device()).id}/capture`,
        headers: bearer(owner.token!),
        payload: { template_id: await this.template() },
      });
      if (capture.statusCode !== 200) throw new Error(`capture: ${capture.body}`);
      const id = capture.json<{ media_ids: number[] }>().media_ids[0];
      if (!id) throw new Error(`capture gave no media: ${capture.body}`);
      return id;
    });
  }

  /** One photo of `owner` at the device, written to the database as a capture writes it (no
   * booth needed: the fuzz suite's booths never answer). */
  async mediaRow(owner: Caller): Promise<number> {
    return this.once(`mediaRow:${owner.kind}`, async () => {
      const captureId = randomUUID();
      const [row] = await this.world.database.db
        .insert(media)
        .values({
          userId: owner.userId!,
          deviceId: (await this.device()).id,
          orgId: await this.orgId(),
          templateId: await this.template(),
          captureId,
          s3Key: `media/${owner.userId}/${captureId}.jpg`,
          caption: 'Fuzz',
        })
        .returning({ id: media.id });
      return row!.id;
    });
  }

  /** A pending payment of `owner` at the device (create). */
  async transaction(owner: Caller): Promise<number> {
    return this.once(`txn:${owner.kind}`, async () => {
      const created = await this.app.inject({
        method: 'POST',
        url: '/api/regular/payments/create',
        headers: bearer(owner.token!),
        payload: { device_id: (await this.pricedDevice()).id, template_id: await this.template() },
      });
      if (created.statusCode !== 200) throw new Error(`payments/create: ${created.body}`);
      return created.json<{ txn_id: number }>().txn_id;
    });
  }

  /** A payment of `owner` through the sandbox checkout: its id and the checkout page's path. */
  async checkout(owner: Caller): Promise<{ txnId: number; paymentUrl: string; orderId: string }> {
    return this.once(`checkout:${owner.kind}`, async () => {
      const txnId = await this.transaction(owner);
      const checkout = await this.app.inject({
        method: 'POST',
        url: '/api/regular/payments/checkout',
        headers: bearer(owner.token!),
        payload: {
          txn_id: txnId,
          redirect_url: `http://localhost:80/payment-status?txn_id=${txnId}`,
        },
      });
      if (checkout.statusCode !== 200) throw new Error(`checkout: ${checkout.body}`);
      const paymentUrl = checkout.json<{ payment_url: string }>().payment_url;
      const path = new URL(paymentUrl, 'http://localhost').pathname;
      return { txnId, paymentUrl: path, orderId: path.split('/').pop()! };
    });
  }

  /** A completed payment of `owner` (paid on the sandbox page, then its status read). */
  async paidTransaction(owner: Caller): Promise<number> {
    return this.once(`paid:${owner.kind}`, async () => {
      const { txnId, paymentUrl } = await this.checkout(owner);
      await this.app.inject({
        method: 'POST',
        url: paymentUrl,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'action=pay',
      });
      const status = await this.app.inject({
        method: 'GET',
        url: `/api/regular/payments/${txnId}/status`,
        headers: bearer(owner.token!),
      });
      if (status.json<{ state?: string }>().state !== 'COMPLETED') {
        throw new Error(`payment not completed: ${status.body}`);
      }
      return txnId;
    });
  }
}

export interface AppRoute {
  method: string;
  /** The full URL pattern as Fastify knows it (`/api/enterprise/devices/:id`). */
  url: string;
}

export const routeKey = (route: AppRoute) => `${route.method} ${route.url}`;

/**
 * Every route the app's route table mounts with this configuration, collected by an `onRoute`
 * hook on a bare Fastify instance that gets the same table (HEAD routes Fastify adds for GET are
 * left out). The web app's static files and /api/docs are not in the table.
 */
export async function appRoutes(world: SecurityWorld): Promise<AppRoute[]> {
  const { config } = world.testApp;
  const scope = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  scope.setValidatorCompiler(validatorCompiler);
  scope.setSerializerCompiler(serializerCompiler);
  const routes: AppRoute[] = [];
  scope.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routes.push({ method, url: route.url });
    }
  });
  const deps = {
    database: world.database,
    deviceLink: new AcceptingLink(),
    now: world.testApp.clock.now,
  };
  const infra = await openInfrastructure(config, deps, scope.log);
  try {
    await registerRoutes(
      scope,
      routeTable(config, infra, createServices(config, infra, deps, scope.log)),
    );
    await scope.ready();
  } finally {
    await scope.close();
    await infra.close();
  }
  return routes;
}

export interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  /** The body as text; for an event stream only what was there when the headers came. */
  body: string;
}

/**
 * `app.inject` for any route, event streams included: the answer is read once its headers are
 * written, a server-sent event stream (which never ends by itself) is then dropped as a client
 * that goes away would, anything else is read to its end.
 */
export async function send(app: FastifyInstance, options: InjectOptions): Promise<Answer> {
  const response = await app.inject({ ...options, payloadAsStream: true });
  const stream = response.stream();
  if (String(response.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    stream.on('error', () => {});
    stream.destroy();
    response.raw.res.destroy();
    return { statusCode: response.statusCode, headers: response.headers, body: '(event stream)' };
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return {
    statusCode: response.statusCode,
    headers: response.headers,
    body: Buffer.concat(chunks).toString('utf8'),
  };
}

export type { InjectOptions };
