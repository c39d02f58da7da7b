import { readFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { type DatabaseHandle, openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import {
  migratedTemplate,
  migratedTemplateName,
  openTemporaryPostgres,
  postgresReachable,
} from './temporary-postgres.js';

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
  /** A new database with every migration applied. */
  open: () => Promise<DatabaseHandle>;
  /** A new, empty database: for tests of the migrations themselves. */
  openEmpty: () => Promise<DatabaseHandle>;
}

/** PGlite's version (its package.json, beside its dist/ folder, which it does not export). */
const PGLITE_VERSION = (
  JSON.parse(
    readFileSync(
      path.join(
        path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')),
        '..',
        'package.json',
      ),
      'utf8',
    ),
  ) as { version: string }
).version;
/**
 * Where the migrated PGlite snapshot is kept between runs: named by the migrations' hash and
 * PGlite's version, so a snapshot of other migrations (or another PGlite's files) is never loaded.
 */
const SNAPSHOT_FILE = path.join(
  os.tmpdir(),
  `${migratedTemplateName()}-pglite-${PGLITE_VERSION}.tar`,
);

/** Migrates an empty in-memory PGlite and writes its files (written whole, then renamed). */
async function writePgliteSnapshot(): Promise<Blob> {
  const handle = await openDatabase({});
  let snapshot: Blob;
  try {
    await migrate(handle.db);
    snapshot = await handle.dumpDataDir!();
  } finally {
    await handle.close();
  }
  const partial = `${SNAPSHOT_FILE}.${process.pid}`;
  await writeFile(partial, Buffer.from(await snapshot.arrayBuffer()));
  await rename(partial, SNAPSHOT_FILE);
  return snapshot;
}

/**
 * The files of an in-memory PGlite with every migration applied, read once per test worker (the
 * integration tier runs without isolation, so a worker's files share it) and loaded by each
 * `openPglite`: loading skips the migrations (about 1 s of CPU per database, some 40% of opening
 * one), and the app's `migrate` then finds nothing to do. Made before the tests start
 * (`prepareMigratedDatabases`, the tier's global setup), or here when missing.
 */
let pgliteSnapshot: Promise<Blob> | undefined;
function migratedPgliteSnapshot(): Promise<Blob> {
  if (!pgliteSnapshot) {
    pgliteSnapshot = readFile(SNAPSHOT_FILE).then(
      (bytes) => new Blob([bytes]),
      () => writePgliteSnapshot(),
    );
    // A failed snapshot is made again by the next caller instead of failing every later file.
    pgliteSnapshot.catch(() => (pgliteSnapshot = undefined));
  }
  return pgliteSnapshot;
}

/**
 * Makes the migrated PGlite snapshot and PostgreSQL template when they are not there yet: run once
 * before the integration tests (vitest.config.ts, globalSetup), so no test's hook pays for it.
 */
export async function prepareMigratedDatabases(): Promise<void> {
  await readFile(SNAPSHOT_FILE).catch(() => writePgliteSnapshot());
  if (postgresAvailable) await migratedTemplate(TEST_POSTGRES_URL);
}

/**
 * A new in-memory PGlite database with every migration applied (a test of the migrations
 * themselves opens an empty one: `openDatabase({})`, a target's `openEmpty`).
 */
export async function openPglite(): Promise<DatabaseHandle> {
  return openDatabase({ loadDataDir: await migratedPgliteSnapshot() });
}

/**
 * The same integration tests run on every target: PGlite always, PostgreSQL when reachable. Each
 * `open` gives a new database with every migration applied (a copy of a migrated one).
 */
export const databaseTargets: DatabaseTarget[] = [
  { name: 'pglite', open: openPglite, openEmpty: () => openDatabase({}) },
  ...(postgresAvailable
    ? [
        {
          name: 'postgres' as const,
          open: () => openTemporaryPostgres(TEST_POSTGRES_URL, undefined, { migrated: true }),
          openEmpty: () => openTemporaryPostgres(TEST_POSTGRES_URL),
        },
      ]
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
