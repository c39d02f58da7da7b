import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@flashbooth/server/config';
import { createBackup } from '@flashbooth/server/ops/backup';
import { restoreBackup } from '@flashbooth/server/ops/restore';
import { DEMO_ADMIN_PHONE } from '@flashbooth/server/seed';
import type { RunningServer } from '@flashbooth/server/server';
import { afterAll, describe, expect, it } from 'vitest';
import { type Launched, launch } from '../src/launch.js';

/*
 * The backup and restore of an embedded installation with demo data (apps/server/test/ops has
 * the rest of backup and restore): `npm start`'s launcher before and after, so the demo booths
 * are the simulated booth agents it runs, logging in to the broker with their saved secrets.
 */

const folders: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), `flashbooth-${prefix}-`));
  folders.push(dir);
  return dir;
};

/** `npm start`'s development configuration on free ports in `dataDir` (demo data on). */
const devConfig = (dataDir: string) =>
  loadConfig({
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
  });

async function demoAdminToken(app: RunningServer['app']): Promise<string> {
  const phone = DEMO_ADMIN_PHONE;
  await app.inject({ method: 'POST', url: '/api/enterprise/auth/sign-in', payload: { phone } });
  const outbox = await app.inject({ method: 'GET', url: '/api/dev/sms', query: { phone } });
  const code = outbox.json<{ items: { code: string }[] }>().items[0]?.code;
  const verify = await app.inject({
    method: 'POST',
    url: '/api/enterprise/auth/verify',
    payload: { phone, code },
  });
  expect(verify.statusCode, verify.body).toBe(200);
  return verify.json<{ access_token: string }>().access_token;
}

interface Booth {
  id: number;
  name: string;
  status: string;
}

/** Every booth the console lists, once the demo booths report something other than offline. */
async function boothsOnceDemoOnline(server: RunningServer): Promise<Booth[]> {
  const token = await demoAdminToken(server.app);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/enterprise/devices?limit=100',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    const booths = response.json<{ items: Booth[] }>().items.sort((a, b) => a.id - b.id);
    const demo = booths.filter((booth) => /Demo Booth$/.test(booth.name));
    if (demo.length > 0 && demo.every((booth) => booth.status !== 'offline')) return booths;
    if (Date.now() > deadline) {
      throw new Error(`the demo booths stayed offline: ${JSON.stringify(booths)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('restore of an embedded installation with demo data', () => {
  let running: Launched | undefined;
  afterAll(async () => {
    await running?.server.close();
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  it('brings demo booths 1 and 2 back online, and registers no new booth', async () => {
    const sourceDir = tempDir('demo-source');
    running = await launch({ config: devConfig(sourceDir), handleSignals: false });
    const before = await boothsOnceDemoOnline(running.server);
    expect(before.map(({ id, name }) => ({ id, name }))).toEqual([
      { id: 1, name: 'Demo Booth' },
      { id: 2, name: 'Paid Demo Booth' },
    ]);
    // The embedded database is backed up with its server stopped.
    const sourceConfig = running.server.config;
    await running.server.close();
    running = undefined;
    const { dir, manifest } = await createBackup({
      config: sourceConfig,
      outDir: tempDir('demo-backups'),
    });
    expect(manifest.demo_booth_files).toEqual(['demo-booth.json', 'demo-booth-paid.json']);

    // Restored into a new DATA_DIR (another machine): no login files there but the backup's.
    const restoredDir = tempDir('demo-restored');
    await restoreBackup({ config: devConfig(restoredDir), from: dir });
    running = await launch({ config: devConfig(restoredDir), handleSignals: false });
    expect(running.booths).toHaveLength(2);
    const after = await boothsOnceDemoOnline(running.server);
    expect(after.map(({ id, name }) => ({ id, name }))).toEqual(
      before.map(({ id, name }) => ({ id, name })),
    );
    expect(after.filter((booth) => booth.id <= 2).map((booth) => booth.status)).not.toContain(
      'offline',
    );
  }, 180_000);
});
