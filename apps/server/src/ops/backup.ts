import { copyFile, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import type { Config } from '../config.js';
import { lockDataDir } from '../db/data-dir-lock.js';
import { DEMO_BOOTHS, demoBoothFile } from '../seed/demo-booth.js';
import {
  BACKUP_FORMAT,
  DEMO_BOOTHS_FOLDER,
  BACKUP_NAME,
  type BackupManifest,
  COUNTED_TABLES,
  describeFiles,
  MANIFEST_FILE,
} from './manifest.js';
import { runPgTool } from './pg-tools.js';

export interface BackupOptions {
  config: Config;
  /** The folder backups are kept in; each backup is a new folder inside it. */
  outDir: string;
  /** Keep this many newest backups in `outDir` and delete older ones; 0 = keep all. */
  keep?: number;
  now?: () => Date;
  log?: (line: string) => void;
}

export interface BackupResult {
  dir: string;
  manifest: BackupManifest;
  /** Older backups deleted by `keep`. */
  removed: string[];
}

/** `flashbooth-backup-20260128T031500Z` for that moment (UTC). */
export function backupName(at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
  return `flashbooth-backup-${stamp}`;
}

const serverVersion = (): string => {
  const file = path.resolve(import.meta.dirname, '../../package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
};

interface DatabaseFacts {
  server_version: string;
  migrations: string[];
  rows: Record<string, number>;
}

/** Reads the schema level and the row counts through `query` (inside the dumped snapshot). */
async function databaseFacts(
  query: (text: string) => Promise<{ rows: Record<string, unknown>[] }>,
): Promise<DatabaseFacts> {
  const version = await query('show server_version');
  const migrations = await query('select name from schema_migrations order by name');
  const rows: Record<string, number> = {};
  for (const table of COUNTED_TABLES) {
    const counted = await query(`select count(*)::int as n from ${table}`);
    rows[table] = Number(counted.rows[0]!.n);
  }
  return {
    server_version: String(version.rows[0]!.server_version),
    migrations: migrations.rows.map((row) => String(row.name)),
    rows,
  };
}

/**
 * PostgreSQL: a repeatable-read transaction exports its snapshot; pg_dump dumps exactly that
 * snapshot (--snapshot) while the counts are read in it, so the manifest describes the dump even
 * while the product keeps writing.
 */
async function dumpPostgres(url: string, file: string): Promise<DatabaseFacts> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id'))
      .rows[0]!.id;
    const facts = await databaseFacts((text) => client.query(text));
    await runPgTool(
      'pg_dump',
      [
        '--format=custom',
        '--no-owner',
        '--no-privileges',
        `--snapshot=${snapshot}`,
        `--file=${file}`,
      ],
      url,
    );
    await client.query('commit');
    return facts;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The embedded PGlite: its own dump of the data folder (`dumpDataDir`, a gzipped tar). PGlite is
 * one process's database, so the folder is locked: a running server refuses the backup (stop it,
 * or run PostgreSQL where backups must be taken live).
 */
async function dumpPglite(dataDir: string, file: string): Promise<DatabaseFacts> {
  const folder = path.join(dataDir, 'pglite');
  if (!existsSync(path.join(folder, 'PG_VERSION'))) {
    throw new Error(`There is no embedded database in ${folder}: check DATA_DIR.`);
  }
  const unlock = lockDataDir(folder);
  try {
    const client = new PGlite({ dataDir: folder, extensions: { pg_trgm } });
    await client.waitReady;
    try {
      const facts = await databaseFacts((text) =>
        client.query<Record<string, unknown>>(text).then((result) => ({ rows: result.rows })),
      );
      const dump = await client.dumpDataDir('gzip');
      await writeFile(file, Buffer.from(await dump.arrayBuffer()));
      return facts;
    } finally {
      await client.close();
    }
  } finally {
    unlock();
  }
}

/**
 * Copies the local store's files while the server may be writing: its `.tmp/` folder (writes in
 * progress, renamed into place when complete) is left out, and a file deleted between the listing
 * and its copy (an erased item's object) is skipped; a restore checks that every object a row names
 * is there.
 */
async function copyObjects(from: string, to: string): Promise<void> {
  const entries = await readdir(from, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const source = path.join(entry.parentPath, entry.name);
    const relative = path.relative(from, source);
    if (relative.split(path.sep)[0] === '.tmp') continue;
    const destination = path.join(to, relative);
    await mkdir(path.dirname(destination), { recursive: true });
    try {
      await copyFile(source, destination);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/** Every key in the bucket with its size: what a restore checks is still there. */
async function listBucket(config: Config, file: string) {
  const { bucket, region, endpoint, forcePathStyle, credentials } = config.storage.s3;
  const client = new S3Client({
    region,
    endpoint,
    forcePathStyle,
    ...(credentials ? { credentials } : {}),
  });
  const lines: string[] = [];
  let bytes = 0;
  let token: string | undefined;
  try {
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        lines.push(`${object.Key}\t${object.Size ?? 0}`);
        bytes += object.Size ?? 0;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  } finally {
    client.destroy();
  }
  await writeFile(file, lines.length > 0 ? `${lines.join('\n')}\n` : '');
  return { objects: lines.length, bytes };
}

/**
 * Writes one backup: the database (pg_dump custom format, or PGlite's dump), then the object
 * store (the local folder copied, or for S3 the list of keys to keep), the development
 * auth-secret when that is what signs, and a manifest with the schema level, row counts and
 * every file's SHA-256. The database goes first: every object its rows name existed by then
 * (uploads are confirmed after they are stored), so the copy made after it holds them all.
 * Written under a `.partial` name and renamed when complete, so a folder with a backup's name
 * is always a whole backup.
 */
export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  const { config, outDir } = options;
  const log = options.log ?? (() => {});
  const now = options.now ?? (() => new Date());
  const createdAt = now();
  const name = backupName(createdAt);
  const dir = path.join(outDir, name);
  const partial = `${dir}.partial`;
  if (existsSync(dir)) throw new Error(`${dir} already exists; wait a second and run it again.`);
  await mkdir(outDir, { recursive: true, mode: 0o700 });
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { mode: 0o700 });
  try {
    const kind = config.databaseUrl ? 'postgres' : 'pglite';
    const databaseFile = kind === 'postgres' ? 'database.pgdump' : 'database.pglite.tar.gz';
    log(`dumping the ${kind === 'postgres' ? 'PostgreSQL' : 'embedded'} database…`);
    const facts =
      kind === 'postgres'
        ? await dumpPostgres(config.databaseUrl!, path.join(partial, databaseFile))
        : await dumpPglite(config.dataDir, path.join(partial, databaseFile));

    let storage: BackupManifest['storage'];
    if (config.storage.driver === 'local') {
      log(`copying the object store ${config.storage.localDir}…`);
      const target = path.join(partial, 'objects');
      await mkdir(target);
      if (existsSync(config.storage.localDir)) await copyObjects(config.storage.localDir, target);
      storage = { driver: 'local', folder: 'objects', objects: 0, bytes: 0 };
    } else {
      log(`listing the bucket ${config.storage.s3.bucket}…`);
      const listed = await listBucket(config, path.join(partial, 's3-keys.txt'));
      storage = {
        driver: 's3',
        bucket: config.storage.s3.bucket,
        key_list: 's3-keys.txt',
        ...listed,
      };
    }

    const secretFile = path.join(config.dataDir, 'auth-secret');
    const keepSecret = !process.env.AUTH_SECRET && existsSync(secretFile);
    if (keepSecret) await copyFile(secretFile, path.join(partial, 'auth-secret'));
    const demoBoothFiles = await copyDemoBoothLogins(config.dataDir, partial);

    log('checksumming…');
    const files = await describeFiles(partial);
    if (storage.driver === 'local') {
      const objects = files.filter((file) => file.path.startsWith('objects/'));
      storage.objects = objects.length;
      storage.bytes = objects.reduce((sum, file) => sum + file.bytes, 0);
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: 1,
      created_at: createdAt.toISOString(),
      made_by: { server: serverVersion(), node: process.version },
      database: { kind, file: databaseFile, ...facts },
      storage,
      auth_secret_file: keepSecret,
      demo_booth_files: demoBoothFiles,
      files,
    };
    await writeFile(path.join(partial, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, {
      mode: 0o600,
    });
    await rename(partial, dir);
    const removed = options.keep ? await prune(outDir, options.keep) : [];
    return { dir, manifest, removed };
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The demo booths' login files (their serial and secret: the database holds only the secret's
 * hash) into `<backup>/demo-booths/`; the names copied.
 */
async function copyDemoBoothLogins(dataDir: string, backupDir: string): Promise<string[]> {
  const copied: string[] = [];
  for (const spec of DEMO_BOOTHS) {
    const file = demoBoothFile(dataDir, spec);
    if (!existsSync(file)) continue;
    await mkdir(path.join(backupDir, DEMO_BOOTHS_FOLDER), { recursive: true, mode: 0o700 });
    const name = path.basename(file);
    await copyFile(file, path.join(backupDir, DEMO_BOOTHS_FOLDER, name));
    copied.push(name);
  }
  return copied;
}

/** Deletes all but the `keep` newest backups in `outDir` (by their names' timestamps). */
export async function prune(outDir: string, keep: number): Promise<string[]> {
  const names = (await readdir(outDir)).filter((name) => BACKUP_NAME.test(name)).sort();
  const old = names.slice(0, Math.max(0, names.length - keep));
  for (const name of old) await rm(path.join(outDir, name), { recursive: true, force: true });
  return old.map((name) => path.join(outDir, name));
}
