/**
 * What the HTTP benchmarks (bench.ts, bench-payments.ts, bench-wall.ts) share: the load runners
 * of load.ts, the app on 127.0.0.1 with a quiet configuration, and the run on PGlite and then on
 * PostgreSQL (skipped when unreachable).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type AppDependencies, buildApp } from '../apps/server/src/app.js';
import { type Config, loadConfig } from '../apps/server/src/config.js';
import { type DatabaseHandle, openDatabase } from '../apps/server/src/db/client.js';
import {
  openTemporaryPostgres,
  postgresReachable,
} from '../apps/server/test/temporary-postgres.js';

import { formatResult, type Result } from './load.js';

export { CONCURRENCY, formatResult, load, percentile, REQUESTS, type Result } from './load.js';

export const POSTGRES_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A quiet test configuration with a fresh secret and data folder, plus the benchmark's own settings. */
export function benchConfig(env: Record<string, string>): Config {
  return loadConfig({
    NODE_ENV: 'test',
    AUTH_SECRET: randomBytes(32).toString('hex'),
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'flashbooth-bench-')),
    DEMO_DATA: 'false',
    LOG_LEVEL: 'silent',
    PORT: '0',
    ...env,
  });
}

/** The app listening on a free port of 127.0.0.1, and its base URL. */
export async function listenOnLoopback(
  config: Config,
  database: DatabaseHandle,
  deps: Partial<AppDependencies> = {},
): Promise<{ app: FastifyInstance; base: string }> {
  const app = await buildApp(config, { database, logger: false, ...deps });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

/**
 * Runs `bench` on a fresh in-memory PGlite, then on a temporary PostgreSQL database at
 * POSTGRES_URL when one answers, and prints each result as it comes.
 */
export async function benchOnEachDatabase(
  labelWidth: number,
  bench: (kind: string, database: DatabaseHandle) => Promise<Result[]>,
): Promise<void> {
  const pglite = await openDatabase({});
  for (const result of await bench('PGlite', pglite)) console.log(formatResult(result, labelWidth));
  await pglite.close();
  const postgres = (await postgresReachable(POSTGRES_URL))
    ? await openTemporaryPostgres(POSTGRES_URL, 'flashbooth_bench')
    : null;
  if (postgres) {
    for (const result of await bench('PostgreSQL', postgres)) {
      console.log(formatResult(result, labelWidth));
    }
    await postgres.close();
  } else {
    console.log(`PostgreSQL: not reachable at ${POSTGRES_URL}, skipped`);
  }
}
