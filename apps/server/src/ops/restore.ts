import { chmod, cp, mkdir, readdir, readFile, rename, rm, copyFile } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { openDatabase, rowsOf, type DatabaseHandle } from '../db/client.js';
import { lockDataDir } from '../db/data-dir-lock.js';
import { migrate } from '../db/migrate.js';
import type { DeviceLink } from '../modules/mqtt/device-link.js';
import { createStorage } from '../modules/storage/create-storage.js';
import {
  type BackupManifest,
  COUNTED_TABLES,
  DEMO_BOOTHS_FOLDER,
  readManifest,
  verifyFiles,
} from './manifest.js';
import { libpqEnvironment, runPgTool } from './pg-tools.js';

export interface RestoreOptions {
  config: Config;
  /** The backup folder (flashbooth-backup-…). */
  from: string;
  /** Replace what the target already holds (the embedded folders are kept aside until it passes). */
  force?: boolean;
  log?: (line: string) => void;
}

export interface RestoreReport {
  manifest: BackupManifest;
  /** Migrations this version applied on top of the backup's schema. */
  migrated: string[];
  rows: Record<string, number>;
  /** Media items whose objects were checked in the store. */
  objectsChecked: number;
}

const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../db/migrations');

/** A line to the booths that is never connected: the restore's health check must not reach the fleet. */
const offlineLink: DeviceLink = {
  kind: 'test',
  async start() {},
  async stop() {},
  async request() {
    throw new Error('no booths during a restore check');
  },
  onStatus() {},
  onErrorReport() {},
  async publishSettings() {},
  async ping() {},
};

const nonEmpty = (dir: string) => existsSync(dir) && readdirSync(dir).length > 0;

/** Moves `dir` aside (`dir.replaced-<stamp>`) and returns the call that puts it back. */
async function setAside(dir: string, stamp: string): Promise<() => Promise<void>> {
  const aside = `${dir}.replaced-${stamp}`;
  await rename(dir, aside);
  return async () => {
    await rm(dir, { recursive: true, force: true });
    await rename(aside, dir);
  };
}

async function postgresHasTables(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ n: number }>(
      "select count(*)::int as n from information_schema.tables where table_schema = 'public'",
    );
    return result.rows[0]!.n > 0;
  } finally {
    await client.end();
  }
}

async function emptyPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('drop schema public cascade');
    await client.query('create schema public');
  } finally {
    await client.end();
  }
}

/** Reads the restored rows and finds each media item's objects in the store. */
async function checkData(config: Config, database: DatabaseHandle, manifest: BackupManifest) {
  const rows: Record<string, number> = {};
  for (const table of COUNTED_TABLES) {
    const result = await database.db.execute(sql.raw(`select count(*)::int as n from ${table}`));
    rows[table] = Number(rowsOf<{ n: number }>(result)[0]!.n);
  }
  const differ = COUNTED_TABLES.filter((table) => rows[table] !== manifest.database.rows[table]);
  if (differ.length > 0) {
    throw new Error(
      `The restored database does not hold what the backup says: ${differ
        .map((table) => `${table} ${rows[table]} rows, the backup ${manifest.database.rows[table]}`)
        .join('; ')}.`,
    );
  }
  const storage = await createStorage(config, () => new Date());
  try {
    const keys = rowsOf<{ key: string }>(
      await database.db.execute(
        // Every file of an uploaded item: a photo's HD file and preview, a video's MP4, poster,
        // animated WebP and gif (a video's poster key is set before its upload arrives).
        sql`select s3_key as key from media where is_uploaded
            union all select lowres_key from media where is_uploaded and lowres_key is not null
            union all select preview_key from media where is_uploaded and preview_key is not null
            union all select gif_key from media where is_uploaded and gif_key is not null`,
      ),
    ).map((row) => row.key);
    const missing: string[] = [];
    for (const key of keys) if (!(await storage.head(key))) missing.push(key);
    if (missing.length > 0) {
      throw new Error(
        `${missing.length} media objects are not in the object store (first: ${missing
          .slice(0, 3)
          .join(
            ', ',
          )}). For S3, check the bucket still holds the keys in the backup's s3-keys.txt.`,
      );
    }
    return { rows, objectsChecked: keys.length };
  } finally {
    await storage.close();
  }
}

/** The restored installation starts and answers GET /api/health (database and object store). */
async function checkHealth(config: Config): Promise<void> {
  const app = await buildApp(
    { ...config, demoData: false, superUserPhones: [] },
    { deviceLink: offlineLink, logger: false },
  );
  try {
    const response = await app.inject({ method: 'GET', url: '/api/health' });
    if (response.statusCode !== 200) {
      throw new Error(`The restored installation is not healthy: ${response.body}`);
    }
  } finally {
    await app.close();
  }
}

/**
 * Restores a backup into the configured database and object store (the environment's
 * DATABASE_URL / DATA_DIR / STORAGE_DRIVER): checks every file's checksum, refuses a target that
 * holds data unless `force`, restores the database and the objects, runs the migrations this
 * version has beyond the backup's, then checks that the rows counted in the backup are there,
 * that every uploaded item's object is in the store, and that the installation starts healthy.
 * If a check fails, embedded folders that were replaced are put back (PostgreSQL replaced with
 * `force` cannot be: restore into a new database and switch DATABASE_URL when in doubt).
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreReport> {
  const { config, from } = options;
  const log = options.log ?? (() => {});
  const manifest = await readManifest(from);
  log(`checking ${manifest.files.length} files against their checksums…`);
  await verifyFiles(from, manifest);

  const known = new Set(readdirSync(MIGRATIONS_DIR).filter((file) => file.endsWith('.sql')));
  const unknown = manifest.database.migrations.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new Error(
      `This backup comes from a newer version (migration ${unknown[0]} is unknown here). Restore it with that version or newer.`,
    );
  }
  const kind = config.databaseUrl ? 'postgres' : 'pglite';
  if (kind !== manifest.database.kind) {
    throw new Error(
      `The backup holds a ${manifest.database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'} dump but the target is ${kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : 'the embedded PGlite (no DATABASE_URL)'}. Restore into the same kind of database.`,
    );
  }
  if (manifest.storage.driver !== config.storage.driver) {
    throw new Error(
      `The backup's object store is ${manifest.storage.driver} but STORAGE_DRIVER is ${config.storage.driver}. Restore into the same kind of store.`,
    );
  }

  // What the target holds already: refused, or with --force replaced (embedded folders set aside).
  const stamp = new Date().toISOString().replace(/[-:.]/g, '');
  const rollbacks: (() => Promise<void>)[] = [];
  const pgliteDir = path.join(config.dataDir, 'pglite');
  const objectsDir = config.storage.localDir;
  const occupied: string[] = [];
  if (kind === 'postgres' && (await postgresHasTables(config.databaseUrl!))) {
    occupied.push('the PostgreSQL database (DATABASE_URL) has tables');
  }
  if (kind === 'pglite' && nonEmpty(pgliteDir)) {
    // A running server holds the folder: never restore under it, --force or not.
    lockDataDir(pgliteDir)();
    occupied.push(`${pgliteDir} holds a database`);
  }
  if (config.storage.driver === 'local' && nonEmpty(objectsDir)) {
    occupied.push(`${objectsDir} holds objects`);
  }
  if (occupied.length > 0 && !options.force) {
    throw new Error(
      `Refusing to overwrite existing data: ${occupied.join('; ')}. Restore into an empty DATA_DIR or database, or add --force to replace it.`,
    );
  }

  // What this restore wrote into places that were empty: removed again if a check fails.
  const written: (() => Promise<void>)[] = [];
  try {
    if (kind === 'postgres') {
      written.push(() => emptyPostgres(config.databaseUrl!));
      if (occupied.length > 0) {
        log('emptying the PostgreSQL database (--force)…');
        await emptyPostgres(config.databaseUrl!);
      }
      log('restoring the PostgreSQL database (pg_restore)…');
      await runPgTool(
        'pg_restore',
        [
          '--no-owner',
          '--no-privileges',
          '--exit-on-error',
          '--single-transaction',
          // The name only: the host, user and password go in libpq's environment.
          `--dbname=${libpqEnvironment(config.databaseUrl!).PGDATABASE ?? 'postgres'}`,
          path.join(from, manifest.database.file),
        ],
        config.databaseUrl!,
      );
    } else {
      if (nonEmpty(pgliteDir)) rollbacks.push(await setAside(pgliteDir, stamp));
      written.push(() => rm(pgliteDir, { recursive: true, force: true }));
      log('restoring the embedded database…');
      await mkdir(pgliteDir, { recursive: true });
      const unlock = lockDataDir(pgliteDir);
      try {
        const dump = await readFile(path.join(from, manifest.database.file));
        const client = new PGlite({
          dataDir: pgliteDir,
          loadDataDir: new Blob([dump]),
          extensions: { pg_trgm },
        });
        await client.waitReady;
        await client.close();
      } finally {
        unlock();
      }
    }

    if (manifest.storage.driver === 'local') {
      if (nonEmpty(objectsDir)) rollbacks.push(await setAside(objectsDir, stamp));
      written.push(() => rm(objectsDir, { recursive: true, force: true }));
      log(`restoring ${manifest.storage.objects} objects into ${objectsDir}…`);
      await mkdir(objectsDir, { recursive: true });
      await cp(path.join(from, 'objects'), objectsDir, { recursive: true });
    }
    if (manifest.auth_secret_file && !process.env.AUTH_SECRET) {
      await copyFile(path.join(from, 'auth-secret'), path.join(config.dataDir, 'auth-secret'));
    }
    // The demo booths' logins with the rows they match: the restored booths log in again, and
    // the next start's seed finds them instead of registering new ones.
    if (manifest.demo_booth_files?.length) await mkdir(config.dataDir, { recursive: true });
    for (const name of manifest.demo_booth_files ?? []) {
      const target = path.join(config.dataDir, name);
      if (existsSync(target)) rollbacks.push(await setAside(target, stamp));
      written.push(() => rm(target, { force: true }));
      await copyFile(path.join(from, DEMO_BOOTHS_FOLDER, name), target);
      await chmod(target, 0o600);
    }

    log('running the migrations and checking the data…');
    const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
    let migrated: string[];
    let checked: Awaited<ReturnType<typeof checkData>>;
    try {
      migrated = await migrate(database.db);
      checked = await checkData(config, database, manifest);
    } finally {
      await database.close();
    }
    log('starting the restored installation for its health check…');
    await checkHealth(config);
    // Passed: what was set aside is no longer needed.
    for (const entry of await readdir(config.dataDir)) {
      if (entry.includes(`.replaced-${stamp}`)) {
        await rm(path.join(config.dataDir, entry), { recursive: true, force: true });
      }
    }
    return { manifest, migrated, rows: checked.rows, objectsChecked: checked.objectsChecked };
  } catch (error) {
    // Undo: what was written goes, and what was set aside (--force) comes back.
    for (const undo of written.reverse()) await undo().catch(() => undefined);
    for (const rollback of rollbacks.reverse()) await rollback();
    log(
      rollbacks.length > 0
        ? 'the restore failed: the data that was there is back in place'
        : 'the restore failed: what it had written is removed',
    );
    throw error;
  }
}
