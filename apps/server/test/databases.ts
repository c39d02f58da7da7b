import { type DatabaseHandle, openDatabase } from '../src/db/client.js';
import { openTemporaryPostgres, postgresReachable } from './temporary-postgres.js';

/** The PostgreSQL server the integration tests use (trust auth on the dev and CI machines). */
export const TEST_POSTGRES_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** In CI the PostgreSQL suite must run: an unreachable server fails the run instead of skipping. */
export const REQUIRE_POSTGRES = process.env.CI === 'true' || process.env.REQUIRE_POSTGRES === '1';

const postgresAvailable = await postgresReachable(TEST_POSTGRES_URL);
if (!postgresAvailable && REQUIRE_POSTGRES) {
  throw new Error(
    `PostgreSQL is required in CI but ${TEST_POSTGRES_URL} is not reachable. Start it or set TEST_POSTGRES_URL.`,
  );
}

export interface DatabaseTarget {
  name: 'pglite' | 'postgres';
  open: () => Promise<DatabaseHandle>;
}

/** The same integration tests run on every target: PGlite always, PostgreSQL when reachable. */
export const databaseTargets: DatabaseTarget[] = [
  { name: 'pglite', open: () => openDatabase({}) },
  ...(postgresAvailable
    ? [{ name: 'postgres' as const, open: () => openTemporaryPostgres(TEST_POSTGRES_URL) }]
    : []),
];

/**
 * For tests of several server instances, or many connections racing, on one database: PostgreSQL,
 * the only target where that happens in production (PGlite is one process's embedded database and
 * runs one query at a time, so a race there proves nothing and only costs time). PGlite stands in
 * where no PostgreSQL is reachable, so the test still runs.
 */
export const sharedDatabaseTargets: DatabaseTarget[] = databaseTargets.filter(
  (target) => target.name === (postgresAvailable ? 'postgres' : 'pglite'),
);

if (!postgresAvailable) {
  console.warn(`PostgreSQL not reachable at ${TEST_POSTGRES_URL}: running the PGlite suite only.`);
}
