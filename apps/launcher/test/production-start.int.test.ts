import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const recorder = path.join(import.meta.dirname, 'fixtures/record-modules.mjs');

/**
 * Runs `npm start`'s program (apps/launcher/src/main.ts) as a separate process until it
 * listens, records every module it resolved, then stops it with SIGTERM.
 */
async function modulesLoadedBy(env: Record<string, string>, dir: string): Promise<string[]> {
  const file = path.join(dir, 'modules.txt');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', recorder, 'apps/launcher/src/main.ts'],
    {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), RECORD_MODULES_FILE: file, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 60 s:\n${output}`)), 60_000);
    const watch = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('Flashbooth is running at')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', watch);
    child.stderr.on('data', watch);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening:\n${output}`));
    });
  });
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  return (await readFile(file, 'utf8')).split('\n').filter(Boolean);
}

describe('a production start', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'flashbooth-production-start-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('never loads the booth agent (nor the demo booths module)', async () => {
    const modules = await modulesLoadedBy(
      {
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://booths.example.com',
        AUTH_SECRET: 'production-start-test-secret-0123456789abcdef',
        SMS_PROVIDER: 'sns',
        PAYMENT_PROVIDER: 'sandbox',
        DATA_DIR: path.join(dir, 'data'),
        PORT: '0',
        HOST: '127.0.0.1',
        MQTT_PORT: '0',
        MQTT_HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
      },
      dir,
    );
    // The recorder saw the program: the launcher and the server it starts.
    expect(modules.some((url) => url.endsWith('/apps/launcher/src/launch.ts'))).toBe(true);
    expect(modules.some((url) => url.endsWith('/apps/server/src/app.ts'))).toBe(true);
    expect(modules.filter((url) => /\/apps\/booth-agent\/|\/demo-booths\.ts$/.test(url))).toEqual(
      [],
    );
    // Its own start waits up to 60 s (a cold tsx start on a busy machine), then its stop.
  }, 90_000);
});
