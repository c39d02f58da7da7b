import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Pool } from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDependencies } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import type { DatabaseHandle } from '../src/db/client.js';
import { organizationMembers, organizations, users } from '../src/db/schema.js';

/** A movable clock for expiry and throttling-window tests. */
export class TestClock {
  private offsetMs = 0;
  now = () => new Date(Date.now() + this.offsetMs);
  advance(seconds: number) {
    this.offsetMs += seconds * 1000;
  }
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'flashbooth-test-')),
    DEMO_DATA: 'false',
    LOG_LEVEL: 'silent',
    ...env,
  });
}

/**
 * A test configuration as production needs it (SMS by SNS, a payment provider named, the public
 * address), plus `env`.
 */
export function productionTestConfig(env: Record<string, string> = {}): Config {
  return testConfig({
    NODE_ENV: 'production',
    SMS_PROVIDER: 'sns',
    PAYMENT_PROVIDER: 'sandbox',
    PUBLIC_URL: 'https://booths.example.com',
    ...env,
  });
}

export interface TestApp {
  app: FastifyInstance;
  clock: TestClock;
  config: Config;
  database: DatabaseHandle;
  /** A phone in SUPER_USER_PHONES: the first one the test gave, or one made for it. */
  superPhone: string;
}

export async function startApp(
  database: DatabaseHandle,
  env: Record<string, string> = {},
  deps: Partial<AppDependencies> = {},
): Promise<TestApp> {
  const clock = new TestClock();
  const given = (env.SUPER_USER_PHONES ?? '').split(',')[0]?.trim();
  const superPhone = given || newPhone();
  const config = testConfig({
    ...env,
    SUPER_USER_PHONES: [env.SUPER_USER_PHONES, given ? undefined : superPhone]
      .filter(Boolean)
      .join(','),
  });
  const app = await buildApp(config, { database, now: clock.now, logger: false, ...deps });
  await app.ready();
  return { app, clock, config, database, superPhone };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads until `accept` holds (every 25 ms) and returns that value; throws after `ms`. */
export async function eventually<T>(
  read: () => Promise<T> | T,
  accept: (value: T) => boolean,
  ms = 10_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!accept(value)) {
    if (Date.now() > deadline) {
      throw new Error(`condition not met; last value ${JSON.stringify(value)}`);
    }
    await sleep(25);
    value = await read();
  }
  return value;
}

let phoneCounter = 0;
/** A distinct Indian mobile number per call (per test file process). */
export function newPhone(): string {
  phoneCounter += 1;
  const suffix = `${process.pid % 10000}`.padStart(4, '0') + `${phoneCounter}`.padStart(5, '0');
  return `+917${suffix}`;
}

export async function latestCode(app: FastifyInstance, phone: string): Promise<string> {
  const response = await app.inject({ method: 'GET', url: '/api/dev/sms', query: { phone } });
  const body = response.json<{ items: { code: string | null }[] }>();
  const code = body.items[0]?.code;
  if (!code) throw new Error(`no code in the outbox for ${phone}`);
  return code;
}

export function post(
  app: FastifyInstance,
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  return app.inject({ method: 'POST', url, payload: payload as object, headers });
}

/** Signs up (or in) through the public contract and returns the access token and cookie. */
export async function signedIn(
  app: FastifyInstance,
  pool: Pool,
  phone = newPhone(),
  name = 'Test Person',
) {
  const signUp = await post(app, `/api/${pool}/auth/sign-up`, { phone, name });
  if (signUp.statusCode === 409) await post(app, `/api/${pool}/auth/sign-in`, { phone });
  const code = await latestCode(app, phone);
  const verify = await post(app, `/api/${pool}/auth/verify`, { phone, code });
  if (verify.statusCode !== 200) throw new Error(`verify failed: ${verify.body}`);
  const cookie = verify.cookies.find((c) => c.name === 'flashbooth_refresh');
  const body = verify.json<{ access_token: string; user: { id: number } }>();
  return { phone, token: body.access_token, userId: body.user.id, refreshCookie: cookie!.value };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** One API call as a signed-in person (or nobody): `url` is relative to the pool's base. */
export function apiCall(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  token: string | undefined,
  payload?: object,
  pool: Pool = 'enterprise',
) {
  return app.inject({
    method,
    url: `/api/${pool}/${url}`,
    headers: token ? bearer(token) : {},
    ...(payload ? { payload } : {}),
  });
}

// ---- Staff fixtures shared by the devices, templates, media and capture tests. ----

export interface SignedInStaff {
  token: string;
  userId: number;
  phone: string;
}

export interface RegisteredDeviceFixture {
  id: number;
  thingName: string;
  /** The broker password, as POST devices showed it. */
  secret: string;
  /** Headers of the booth's own HTTP calls (upload confirmation). */
  auth: { authorization: string };
}

export interface StaffFixtures {
  superUser: SignedInStaff;
  orgId: number;
  /** Registered through the staff API and linked to `orgId`. */
  device: RegisteredDeviceFixture;
}

/** The super user of `startApp` (SUPER_USER_PHONES), signed in to the staff pool. */
export async function signedInSuperUser(testApp: TestApp): Promise<SignedInStaff> {
  const { token, userId, phone } = await signedIn(
    testApp.app,
    'enterprise',
    testApp.superPhone,
    'Super User',
  );
  return { token, userId, phone };
}

/** A new staff account made a product admin (`is_flashbooth_admin`), signed in. */
export async function signedInProductAdmin(app: FastifyInstance, database: DatabaseHandle) {
  const person = await signedIn(app, 'enterprise');
  await database.db
    .update(users)
    .set({ isFlashboothAdmin: true })
    .where(eq(users.id, person.userId));
  return person;
}

/** A new staff account with `role` in organization `orgId`, signed in. */
export async function signedInOrgStaff(
  app: FastifyInstance,
  database: DatabaseHandle,
  orgId: number,
  role: 'admin' | 'member',
) {
  const person = await signedIn(app, 'enterprise');
  await database.db.insert(organizationMembers).values({ orgId, userId: person.userId, role });
  return person;
}

let orgCounter = 0;
export async function createOrg(database: DatabaseHandle, name?: string): Promise<number> {
  orgCounter += 1;
  const [row] = await database.db
    .insert(organizations)
    .values({ name: name ?? `Venue ${orgCounter}` })
    .returning({ id: organizations.id });
  return row!.id;
}

/**
 * A device registered with POST devices (so it has a real thing name and secret), optionally
 * linked to an organization and priced, by a super user or product admin's token.
 */
export async function registerDevice(
  app: FastifyInstance,
  adminToken: string,
  options: { orgId?: number; name?: string; priceRupees?: number } = {},
): Promise<RegisteredDeviceFixture> {
  const call = async (method: 'POST' | 'PATCH', url: string, payload?: object) => {
    const response = await app.inject({
      method,
      url: `/api/enterprise/${url}`,
      headers: bearer(adminToken),
      ...(payload ? { payload } : {}),
    });
    if (response.statusCode >= 300) {
      throw new Error(`${method} ${url} failed: ${response.statusCode} ${response.body}`);
    }
    return response;
  };
  const created = (
    await call('POST', 'devices', options.name ? { name: options.name } : undefined)
  ).json<{ id: number; thing_name: string; secret: string }>();
  if (options.orgId !== undefined) {
    await call('PATCH', `devices/${created.id}/link`, { org_id: options.orgId });
  }
  if (options.priceRupees !== undefined) {
    await call('PATCH', `devices/${created.id}`, { price_rupees: options.priceRupees });
  }
  return {
    id: created.id,
    thingName: created.thing_name,
    secret: created.secret,
    auth: { authorization: `Device ${created.thing_name}:${created.secret}` },
  };
}

/** A signed-in super user, an organization, and a device registered and linked to it. */
export async function staffFixtures(
  testApp: TestApp,
  options: { orgName?: string; deviceName?: string; priceRupees?: number } = {},
): Promise<StaffFixtures> {
  const superUser = await signedInSuperUser(testApp);
  const orgId = await createOrg(testApp.database, options.orgName);
  const device = await registerDevice(testApp.app, superUser.token, {
    orgId,
    ...(options.deviceName ? { name: options.deviceName } : {}),
    ...(options.priceRupees !== undefined ? { priceRupees: options.priceRupees } : {}),
  });
  return { superUser, orgId, device };
}
