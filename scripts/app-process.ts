/**
 * `npm start`'s server as a child process, for the benchmarks that drive it from outside
 * (bench-lighthouse.ts, bench-template-studio.ts): a free loopback port, a fresh data folder,
 * demo data, development SMS outbox.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Calls `attempt` every 500 ms until it answers something (errors count as nothing). */
export async function waitFor<T>(
  what: string,
  attempt: () => Promise<T | undefined>,
  ms = 90_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await attempt().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * `npm run serve` (what `npm start` runs after the build, without npm in between) on a free port
 * of 127.0.0.1 with a fresh data folder, once it answers /api/health; `env` is added to its
 * environment (NODE_ENV=production there starts it as production does). `stop` ends it and
 * removes the folder, unless the folder was given.
 */
export async function startServer(
  env: Record<string, string> = {},
  options: {
    /** The port (default: a free one). */
    port?: number;
    /** A data folder to use and keep (default: a fresh one, removed by `stop`). */
    dataDir?: string;
  } = {},
): Promise<{ base: string; dataDir: string; stop: () => Promise<void> }> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'flashbooth-bench-'));
  const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: { serve: string };
  };
  const [node, ...args] = scripts.serve.split(/\s+/);
  if (node !== 'node') throw new Error(`unexpected serve script: ${scripts.serve}`);
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      MQTT_PORT: '0',
      ...env,
    },
  });
  const base = `http://127.0.0.1:${port}`;
  const state = await waitFor('the server', async () => {
    if (child.exitCode !== null) return 'exited';
    return (await fetch(`${base}/api/health`)).ok ? 'up' : undefined;
  });
  if (state === 'exited') throw new Error('the server exited before it answered');
  return {
    base,
    dataDir,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
