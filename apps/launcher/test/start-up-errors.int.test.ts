import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

interface Outcome {
  code: number | null;
  /** What the program wrote to stderr, line by line (blank lines dropped). */
  lines: string[];
  seconds: number;
}

/**
 * `npm start`'s program (apps/launcher/src/main.ts) as its own process with `env` on top of a
 * development start on free ports in a fresh DATA_DIR (demo data on, as `npm start` has it);
 * resolves when it exits. `--no-warnings` keeps Node's own notices (the AWS SDK's about the Node
 * version) out of stderr, so what is left is what the program printed.
 */
async function start(dataDir: string, env: Record<string, string>): Promise<Outcome> {
  const started = Date.now();
  const child = spawn(
    process.execPath,
    ['--no-warnings', '--import', 'tsx', 'apps/launcher/src/main.ts'],
    {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: os.tmpdir(),
        NODE_ENV: 'development',
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: '0',
        MQTT_HOST: '127.0.0.1',
        MQTT_PORT: '0',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`still running after 90 s:\n${stdout}\n${stderr}`));
    }, 90_000);
    child.on('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  const lines = stderr.split('\n').filter((line) => line.trim() !== '');
  return { code, lines, seconds: (Date.now() - started) / 1000 };
}

/** A port on 127.0.0.1 nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A TCP server that accepts connections and never says a word (a hung host, a wrong service). */
async function silentServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One line, naming `setting` first, without a stack; exit status 1. */
function expectOneLine(outcome: Outcome, pattern: RegExp) {
  expect(outcome.code, outcome.lines.join('\n')).toBe(1);
  expect(outcome.lines, 'one line, no stack').toHaveLength(1);
  expect(outcome.lines[0]).toMatch(pattern);
  expect(outcome.lines[0]).not.toMatch(/\bat .+:\d+:\d+/);
}

describe('start-up errors name the setting (npm start)', () => {
  let dir: string;
  let runs = 0;
  const dataDir = () => path.join(dir, `data-${(runs += 1)}`);
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'flashbooth-start-up-errors-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('DATABASE_URL on a port nothing listens on', async () => {
    const port = await closedPort();
    const outcome = await start(dataDir(), {
      DATABASE_URL: `postgres://flashbooth:secret-password@127.0.0.1:${port}/flashbooth`,
    });
    expectOneLine(
      outcome,
      new RegExp(
        `^DATABASE_URL: nothing accepts connections at 127\\.0\\.0\\.1:${port} \\(connection refused\\); start PostgreSQL there, or correct`,
      ),
    );
    expect(outcome.lines[0]).not.toContain('secret-password');
  }, 120_000);

  it('DATABASE_URL on a host name that does not exist', async () => {
    const outcome = await start(dataDir(), {
      DATABASE_URL: 'postgres://flashbooth:x@no-such-host.invalid:5432/flashbooth',
    });
    expectOneLine(
      outcome,
      /^DATABASE_URL: the host name in no-such-host\.invalid:5432 is not known \(E[A-Z_]+\); correct the host in DATABASE_URL/,
    );
  }, 120_000);

  it('DATABASE_URL on a host that accepts the connection and never answers', async () => {
    const silent = await silentServer();
    try {
      const outcome = await start(dataDir(), {
        DATABASE_URL: `postgres://flashbooth:x@127.0.0.1:${silent.port}/flashbooth`,
      });
      expectOneLine(
        outcome,
        new RegExp(
          `^DATABASE_URL: PostgreSQL at 127\\.0\\.0\\.1:${silent.port} did not answer within 10 s .*; check that it runs`,
        ),
      );
    } finally {
      await silent.close();
    }
  }, 120_000);

  it('an S3 endpoint nothing listens on, with demo data (it would seed the store)', async () => {
    const port = await closedPort();
    const outcome = await start(dataDir(), {
      DEMO_DATA: 'true',
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'flashbooth',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'start-up-test',
      S3_SECRET_ACCESS_KEY: 'start-up-test-secret',
    });
    expectOneLine(
      outcome,
      new RegExp(
        `^S3_ENDPOINT: the object store http://127\\.0\\.0\\.1:${port} refused the connection; start the object store there, or correct S3_ENDPOINT\\.$`,
      ),
    );
  }, 120_000);

  it('a PORT that is not a port', async () => {
    const outcome = await start(dataDir(), { PORT: 'abc' });
    expectOneLine(
      outcome,
      /^PORT: must be a port number from 0 to 65535 \(the HTTP port; leave it unset for 8080.*\); got "abc"$/,
    );
  }, 120_000);

  it('a PORT another program already listens on', async () => {
    const taken = await silentServer();
    try {
      const outcome = await start(dataDir(), { PORT: String(taken.port) });
      expectOneLine(
        outcome,
        new RegExp(
          `^PORT: 127\\.0\\.0\\.1:${taken.port} is already in use .*; stop that program, or set PORT to a free port\\.$`,
        ),
      );
    } finally {
      await taken.close();
    }
  }, 120_000);

  it('a setting the configuration already checks keeps its words, one line each', async () => {
    const outcome = await start(dataDir(), { AUTH_SECRET: 'short' });
    expectOneLine(outcome, /^AUTH_SECRET: must be at least 32 characters$/);
  }, 120_000);
});
