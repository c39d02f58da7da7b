import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/** The file in every backup folder that says what it holds. */
export const MANIFEST_FILE = 'manifest.json';
export const BACKUP_FORMAT = 'flashbooth-backup';
/** Folders made by `npm run backup` are named flashbooth-backup-YYYYMMDDTHHMMSSZ. */
export const BACKUP_NAME = /^flashbooth-backup-\d{8}T\d{6}Z$/;

/** Where a backup keeps the demo booths' login files. */
export const DEMO_BOOTHS_FOLDER = 'demo-booths';

/** Tables whose row counts are kept, so a restore can show it has the same data. */
export const COUNTED_TABLES = [
  'users',
  'organizations',
  'devices',
  'templates',
  'media',
  'captures',
  'payment_transactions',
  'credit_ledger',
] as const;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: 1;
  created_at: string;
  /** The server package's version and the Node.js that made the backup. */
  made_by: { server: string; node: string };
  database: {
    kind: 'postgres' | 'pglite';
    /** database.pgdump (pg_dump custom format) or database.pglite.tar.gz (PGlite's dump). */
    file: string;
    server_version: string;
    /** The migrations applied (schema_migrations), oldest first: the backup's schema level. */
    migrations: string[];
    /** Rows per table in the dumped snapshot. */
    rows: Record<string, number>;
  };
  storage:
    | { driver: 'local'; folder: 'objects'; objects: number; bytes: number }
    | { driver: 's3'; bucket: string; key_list: 's3-keys.txt'; objects: number; bytes: number };
  /** DATA_DIR/auth-secret, kept when AUTH_SECRET is not set (it keys sessions and local URLs). */
  auth_secret_file: boolean;
  /**
   * The demo booths' logins (DATA_DIR/demo-booth*.json, demo data only), kept under
   * demo-booths/: a restore puts them back so the restored demo booths log in again instead of
   * new ones being registered. Absent in backups made before they were kept.
   */
  demo_booth_files?: string[];
  /** Every file in the folder but this manifest, with its size and SHA-256. */
  files: { path: string; bytes: number; sha256: string }[];
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every regular file under `dir`, as paths relative to it with '/' separators, sorted. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) =>
      path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    )
    .sort();
}

/** Size and checksum of each file of the backup folder (the manifest aside). */
export async function describeFiles(dir: string): Promise<BackupManifest['files']> {
  const files: BackupManifest['files'] = [];
  for (const relative of await filesUnder(dir)) {
    if (relative === MANIFEST_FILE) continue;
    const file = path.join(dir, relative);
    files.push({ path: relative, bytes: (await stat(file)).size, sha256: await sha256Of(file) });
  }
  return files;
}

/** Reads a backup's manifest, or says why the folder is not a backup. */
export async function readManifest(dir: string): Promise<BackupManifest> {
  let text: string;
  try {
    text = await readFile(path.join(dir, MANIFEST_FILE), 'utf8');
  } catch {
    throw new Error(`${dir} is not a Flashbooth backup: it has no ${MANIFEST_FILE}.`);
  }
  const manifest = JSON.parse(text) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT || manifest.version !== 1) {
    throw new Error(`${dir}/${MANIFEST_FILE} is not a Flashbooth backup manifest (version 1).`);
  }
  return manifest;
}

/** Checks every file against the manifest; throws naming the first that differs or is missing. */
export async function verifyFiles(dir: string, manifest: BackupManifest): Promise<void> {
  const present = new Set(await filesUnder(dir));
  for (const file of manifest.files) {
    if (!present.has(file.path)) {
      throw new Error(`The backup in ${dir} is incomplete: ${file.path} is missing.`);
    }
    const actual = await sha256Of(path.join(dir, file.path));
    if (actual !== file.sha256) {
      throw new Error(
        `The backup in ${dir} is damaged: ${file.path} does not match its checksum. Use another backup.`,
      );
    }
  }
}
