import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@flashbooth/server/config';
import { DEMO_ADMIN_PHONE } from '@flashbooth/server/seed';
import { registeredDemoBooths } from '@flashbooth/server/seed/demo-booth';
import type { RunningServer } from '@flashbooth/server/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Launched, launch } from '../src/launch.js';

/** A development configuration on free ports in a fresh data folder. */
function devConfig(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'flashbooth-launcher-'));
  const config = loadConfig({
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    ...env,
  });
  return { config, dataDir };
}

/** The demo administrator's access token, through the development SMS outbox. */
async function demoAdminToken(app: RunningServer['app']): Promise<string> {
  const phone = DEMO_ADMIN_PHONE;
  const signIn = await app.inject({
    method: 'POST',
    url: '/api/enterprise/auth/sign-in',
    payload: { phone },
  });
  expect(signIn.statusCode).toBe(200);
  const outbox = await app.inject({ method: 'GET', url: '/api/dev/sms', query: { phone } });
  const code = outbox.json<{ items: { code: string }[] }>().items[0]?.code;
  const verify = await app.inject({
    method: 'POST',
    url: '/api/enterprise/auth/verify',
    payload: { phone, code },
  });
  expect(verify.statusCode).toBe(200);
  return verify.json<{ access_token: string }>().access_token;
}

async function deviceStatus(app: RunningServer['app'], token: string, id: number) {
  const response = await app.inject({
    method: 'GET',
    url: `/api/enterprise/devices/${id}`,
    headers: { authorization: `Bearer ${token}` },
  });
  return response.json<{ status: string }>().status;
}

describe('launch with demo data (npm start outside production)', () => {
  let launched: Launched;
  let dataDir: string;

  beforeAll(async () => {
    const dev = devConfig();
    dataDir = dev.dataDir;
    launched = await launch({ config: dev.config, handleSignals: false });
  });

  afterAll(async () => {
    await launched?.server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('runs both registered demo booths, online, and each answers a staff ping with idle', async () => {
    const { server, booths } = launched;
    const registered = await registeredDemoBooths(server.config, server.app.log);
    expect(registered.map((booth) => booth.name)).toEqual(['Demo Booth', 'Paid Demo Booth']);
    expect(booths).toHaveLength(2);
    const token = await demoAdminToken(server.app);
    for (const booth of registered) {
      const response = await server.app.inject({
        method: 'POST',
        url: `/api/enterprise/devices/${booth.deviceId}/ping`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        id: booth.deviceId,
        name: booth.name,
        status: 'idle',
        software_version: expect.any(String),
      });
    }
  });

  it('on shutdown, the booths report offline before the app closes', async () => {
    const { server } = launched;
    const registered = await registeredDemoBooths(server.config, server.app.log);
    const token = await demoAdminToken(server.app);
    let seen: string[] = [];
    // Runs after the booths' goodbye and before the app (database, broker) closes.
    server.beforeClose(async () => {
      const deadline = Date.now() + 5000;
      do {
        seen = await Promise.all(
          registered.map((b) => deviceStatus(server.app, token, b.deviceId)),
        );
        if (seen.every((status) => status === 'offline')) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      } while (Date.now() < deadline);
    });
    await server.close();
    expect(seen).toEqual(['offline', 'offline']);
    expect(server.closing).toBe(true);
  });
});

describe('launch without demo data', () => {
  it('starts the server alone', async () => {
    const { config, dataDir } = devConfig({ DEMO_DATA: 'false' });
    const { server, booths } = await launch({ config, handleSignals: false });
    try {
      expect(booths).toEqual([]);
      const health = await server.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
    } finally {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
