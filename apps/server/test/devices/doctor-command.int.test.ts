import { execFile } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../databases.js';
import { registerDevice, signedInSuperUser, startApp, type TestApp } from '../harness.js';

const BOOTH_COMMAND = fileURLToPath(
  new URL('../../../booth-agent/bin/flashbooth-booth', import.meta.url),
);
const run = promisify(execFile);

/** Runs the booth's real command; resolves to its exit code and output (never rejects). */
async function doctor(args: string[], env: Record<string, string>, cwd: string) {
  try {
    const { stdout, stderr } = await run(BOOTH_COMMAND, ['doctor', ...args], {
      cwd,
      env: { PATH: process.env.PATH!, ...env },
      timeout: 90_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

const asRoot = process.getuid?.() === 0;

/**
 * Issue 39, item 2: `flashbooth-booth doctor` (its own process) against a running server proves
 * the booth's credentials over HTTP: a wrong secret and an unknown thing name fail and name the
 * setting; right ones pass, with "All checks passed". As root it checks as the service's user.
 */
describe('flashbooth-booth doctor against a running server', () => {
  let running: TestApp;
  let serverUrl: string;
  let device: { thingName: string; secret: string };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flashbooth-doctor-'));
  const dataDir = path.join(dir, 'data');
  const elsewhere = path.join(dir, 'elsewhere');

  beforeAll(async () => {
    running = await startApp(await openPglite());
    serverUrl = await running.app.listen({ port: 0, host: '127.0.0.1' });
    const { token } = await signedInSuperUser(running);
    device = await registerDevice(running.app, token, { name: 'Doctor booth' });
    // Reachable by the service's user once the doctor drops to it.
    chmodSync(dir, 0o755);
    mkdirSync(dataDir, { mode: 0o777 });
    chmodSync(dataDir, 0o777);
    mkdirSync(elsewhere);
  });
  afterAll(async () => {
    await running?.app.close();
    await running?.database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The settings file enroll writes (mode 600), with a simulated camera and printer. */
  const settings = (overrides: Record<string, string> = {}) => {
    const file = path.join(dir, `booth-${Math.random().toString(36).slice(2)}.env`);
    const values = {
      BOOTH_MQTT_URL: running.app.deviceBrokerUrl!,
      BOOTH_THING_NAME: device.thingName,
      BOOTH_SECRET: device.secret,
      BOOTH_SERVER_URL: serverUrl,
      BOOTH_CAMERA: 'simulated',
      BOOTH_DATA_DIR: dataDir,
      ...overrides,
    };
    writeFileSync(
      file,
      Object.entries(values)
        .map(([key, value]) => `${key}=${value}\n`)
        .join(''),
      { mode: 0o600 },
    );
    return { BOOTH_SETTINGS_FILE: file, BOOTH_SERVICE_USER: 'nobody' };
  };

  it('passes with the right credentials, from any folder, as the service user', async () => {
    const result = await doctor(['--print'], settings(), elsewhere);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`✓ login +\\d+ ms {2}the server knows ${device.thingName} as "Doctor booth"`),
    );
    expect(result.stdout.trim().split('\n').at(-1)).toBe('All checks passed.');
    // The test page went to the data folder's spool, not the folder the command ran in.
    expect(readdirSync(elsewhere)).toEqual([]);
    const spool = path.join(dataDir, 'booth-spool');
    const pages = readdirSync(spool).filter((name) => name.endsWith('.jpg'));
    expect(pages).toHaveLength(1);
    if (asRoot) {
      // Root read the settings file (mode 600), then the checks ran as the service's user.
      expect(result.stdout).toContain("Running as nobody, the service's user (dropped from root).");
      const nobody = Number((await run('id', ['-u', 'nobody'])).stdout.trim());
      expect(statSync(path.join(spool, pages[0]!)).uid).toBe(nobody);
    }
  });

  it('fails on a wrong secret and names BOOTH_SECRET', async () => {
    const result = await doctor([], settings({ BOOTH_SECRET: 'not-the-secret' }), elsewhere);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      new RegExp(
        `✗ login +\\d+ ms {2}the server refused BOOTH_SECRET for ${device.thingName} → the secret was replaced`,
      ),
    );
    expect(result.stdout).not.toContain('All checks passed');
  });

  it('fails on an unknown thing name and names BOOTH_THING_NAME', async () => {
    const result = await doctor([], settings({ BOOTH_THING_NAME: 'fb-nosuchbooth' }), elsewhere);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /✗ login +\d+ ms {2}the server has no device named fb-nosuchbooth \(BOOTH_THING_NAME\) → BOOTH_THING_NAME is wrong or the device was deleted/,
    );
    expect(result.stdout).not.toContain('All checks passed');
  });
});
