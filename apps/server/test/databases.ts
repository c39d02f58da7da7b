import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../src/db/client.js';

/** The PostgreSQL server the integration tests use (trust auth on the dev and CI machines). */
export const TEST_POSTGRES_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** In CI the PostgreSQL suite must run: an unreachable server fails the run instead of skipping. */
export const REQUIRE_POSTGRES = process.env.CI === 'true' || process.env.REQUIRE_POSTGRES === '1';

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({
    connectionString: TEST_POSTGRES_URL,
    connectionTimeoutMillis: 2000,
  });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const postgresAvailable = await postgresReachable();
if (!postgresAvailable && REQUIRE_POSTGRES) {
  throw new Error(
    `PostgreSQL is required in CI but ${TEST_POSTGRES_URL} is not reachable. Start it or set TEST_POSTGRES_URL.`,
  );
}

/** A fresh, empty PostgreSQL database, dropped again on close. */
async function openTemporaryPostgres(): Promise<DatabaseHandle> {
  const name = `flashbooth_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString() });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const dropper = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

export interface DatabaseTarget {
  name: 'pglite' | 'postgres';
  open: () => Promise<DatabaseHandle>;
}

/** The same integration tests run on every target: PGlite always, PostgreSQL when reachable. */
export const databaseTargets: DatabaseTarget[] = [
  { name: 'pglite', open: () => openDatabase({}) },
  ...(postgresAvailable ? [{ name: 'postgres' as const, open: openTemporaryPostgres }] : []),
];

if (!postgresAvailable) {
  console.warn(`PostgreSQL not reachable at ${TEST_POSTGRES_URL}: running the PGlite suite only.`);
}
