/**
 * What the HTTP benchmarks (bench.ts, bench-payments.ts) share: the request budget, a load
 * runner that measures every call, the app on 127.0.0.1, one printed line per figure, and the
 * run on PGlite and then on PostgreSQL (skipped when unreachable).
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

export const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
export const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
export const POSTGRES_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface Result {
  label: string;
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  errors: number;
}

/** The value at index floor(p% × n) of an ascending list (the figures in docs/benchmarks.md). */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Runs `total` calls with `CONCURRENCY` in flight and measures each call. */
export async function load(
  label: string,
  total: number,
  call: (i: number) => Promise<boolean>,
): Promise<Result> {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        const ok = await call(i).catch(() => false);
        latencies.push(performance.now() - t);
        if (!ok) errors += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    label,
    requests: total,
    seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
  };
}

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

export function formatResult(r: Result, labelWidth: number): string {
  return `${r.label.padEnd(labelWidth)} ${(r.requests / r.seconds).toFixed(0).padStart(6)} req/s   p50 ${r.p50.toFixed(1).padStart(6)} ms   p99 ${r.p99.toFixed(1).padStart(6)} ms   errors ${r.errors}`;
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
