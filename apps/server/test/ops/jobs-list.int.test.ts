import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_DESCRIPTIONS } from '../../src/jobs.js';

const root = path.resolve(import.meta.dirname, '../../../..');

/** `npm run jobs -- <args>`'s program as its own process; resolves with its output once it ends. */
async function jobsCommand(args: string[], env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    ['--no-warnings', '--import', 'tsx', 'apps/server/src/jobs-cli.ts', ...args],
    {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stdout, stderr };
}

describe('npm run jobs -- --list', () => {
  let dir: string;
  let closedPort: number;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'flashbooth-jobs-list-'));
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('lists every job without opening a database (none answers here)', async () => {
    const dataDir = path.join(dir, 'data');
    const { code, stdout, stderr } = await jobsCommand(['--list'], {
      DATABASE_URL: `postgres://flashbooth:x@127.0.0.1:${closedPort}/flashbooth`,
      DATA_DIR: dataDir,
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines.map((line) => line.split(/\s+/)[0])).toEqual(Object.keys(JOB_DESCRIPTIONS));
    expect(lines[0]).toMatch(/^delivery-deadline\s+Closes captures past their deadline/);
    // Not the embedded database either: DATA_DIR was never made.
    expect(existsSync(dataDir)).toBe(false);
  }, 60_000);

  it('refuses an unknown job name before opening anything, and a refusing database in one line', async () => {
    const env = { DATABASE_URL: `postgres://flashbooth:x@127.0.0.1:${closedPort}/flashbooth` };
    const unknown = await jobsCommand(['no-such-job'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No job is named "no-such-job". The jobs are:');
    const run = await jobsCommand(['invitation-expiry', '--dry-run'], env);
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toMatch(
      new RegExp(`^DATABASE_URL: nothing accepts connections at 127\\.0\\.0\\.1:${closedPort} `),
    );
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);
});
