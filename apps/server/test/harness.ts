import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Pool } from '@flashbooth/contracts';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDependencies } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import type { DatabaseHandle } from '../src/db/client.js';

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

export interface TestApp {
  app: FastifyInstance;
  clock: TestClock;
  config: Config;
}

export async function startApp(
  database: DatabaseHandle,
  env: Record<string, string> = {},
  deps: Partial<AppDependencies> = {},
): Promise<TestApp> {
  const clock = new TestClock();
  const config = testConfig(env);
  const app = await buildApp(config, { database, now: clock.now, logger: false, ...deps });
  await app.ready();
  return { app, clock, config };
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
