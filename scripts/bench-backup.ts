/**
 * npm run bench:backup: how long `npm run backup` and `npm run restore` take, and how large a
 * backup is, on the demo data (organization, templates, booths) plus BENCH_BACKUP_MEDIA delivered
 * photos (default 300, each the same 1200 × 800 JPEG of about 420 KB, in the local object store): on the embedded PGlite
 * (backed up with its server stopped) and on PostgreSQL (backed up while the server runs), when
 * reachable. The restore includes its checks (checksums, row counts, every object, a health
 * check of the restored installation). docs/operations.md has the figures.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { type Config, loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { devices, media, users } from '../apps/server/src/db/schema.js';
import { createStorage } from '../apps/server/src/modules/storage/create-storage.js';
import { createBackup } from '../apps/server/src/ops/backup.js';
import { restoreBackup } from '../apps/server/src/ops/restore.js';
import { postgresReachable } from '../apps/server/test/temporary-postgres.js';
import { POSTGRES_URL } from './bench-support.js';

const MEDIA = Number(process.env.BENCH_BACKUP_MEDIA ?? 300);
const secret = randomBytes(32).toString('hex');
const folders: string[] = [];
const databases: string[] = [];

function config(env: Record<string, string>): Config {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'flashbooth-bench-backup-'));
  folders.push(dataDir);
  return loadConfig({
    NODE_ENV: 'test',
    AUTH_SECRET: secret,
    DATA_DIR: dataDir,
    DEMO_DATA: 'true',
    LOG_LEVEL: 'silent',
    ...env,
  });
}

async function emptyPostgres(): Promise<string> {
  const name = `flashbooth_bench_backup_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  databases.push(name);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A 1200 × 800 JPEG of a busy pattern, about the size of a booth's photo. */
async function photo(seed: number): Promise<Buffer> {
  const width = 1200;
  const height = 800;
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 1) pixels[i] = (i * 31 + seed * 17 + (i >> 7)) & 0xff;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 70 })
    .toBuffer();
}

/** The demo installation with MEDIA delivered photos; stops it unless `keepRunning`. */
async function product(source: Config) {
  const database = await openDatabase({ url: source.databaseUrl, dataDir: source.dataDir });
  const app = await buildApp(
    { ...source, mqtt: { ...source.mqtt, port: 0 } },
    { database, logger: false },
  );
  const storage = await createStorage(source, () => new Date());
  const [booth] = await database.db.select().from(devices).limit(1);
  const [visitor] = await database.db
    .insert(users)
    .values({ pool: 'regular', phone: '+919800000001', name: 'Bench Visitor' })
    .returning();
  const jpeg = await photo(1);
  for (let i = 0; i < MEDIA; i += 1) {
    const key = `media/${visitor!.id}/${randomUUID()}.jpg`;
    await storage.put(key, jpeg, 'image/jpeg');
    await database.db.insert(media).values({
      userId: visitor!.id,
      deviceId: booth?.id ?? null,
      orgId: booth?.orgId ?? null,
      captureId: randomUUID(),
      s3Key: key,
      isUploaded: true,
      uploadedAt: new Date(),
    });
  }
  await storage.close();
  return { app, database };
}

async function bench(kind: string, env: () => Promise<Record<string, string>>): Promise<void> {
  const source = config(await env());
  const running = await product(source);
  const live = Boolean(source.databaseUrl);
  if (!live) {
    await running.app.close();
    await running.database.close();
  }
  const backups = mkdtempSync(path.join(os.tmpdir(), 'flashbooth-bench-backups-'));
  folders.push(backups);
  let started = performance.now();
  const { dir, manifest } = await createBackup({ config: source, outDir: backups });
  const backupSeconds = (performance.now() - started) / 1000;
  if (live) {
    await running.app.close();
    await running.database.close();
  }
  const bytes = manifest.files.reduce((sum, file) => sum + file.bytes, 0);
  const databaseBytes = manifest.files.find((file) => file.path === manifest.database.file)!.bytes;

  const target = config(await env());
  started = performance.now();
  await restoreBackup({ config: target, from: dir });
  const restoreSeconds = (performance.now() - started) / 1000;
  console.log(
    `${kind.padEnd(10)} ${String(manifest.database.rows.media).padStart(5)} media, ` +
      `${manifest.storage.objects} objects: backup ${backupSeconds.toFixed(1)} s` +
      `${live ? ' (server running)' : ' (server stopped)'}, ` +
      `${(bytes / 1e6).toFixed(1)} MB (database ${(databaseBytes / 1e6).toFixed(2)} MB); ` +
      `restore with its checks ${restoreSeconds.toFixed(1)} s`,
  );
}

async function main(): Promise<void> {
  const size = (await photo(1)).length;
  console.log(
    `Backup and restore of the demo data with ${MEDIA} photos of ${(size / 1000).toFixed(0)} KB`,
  );
  await bench('PGlite', async () => ({}));
  if (await postgresReachable(POSTGRES_URL)) {
    await bench('PostgreSQL', async () => ({ DATABASE_URL: await emptyPostgres() }));
  } else {
    console.log(`PostgreSQL: not reachable at ${POSTGRES_URL}, skipped`);
  }
}

try {
  await main();
} finally {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  if (databases.length > 0) {
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    for (const name of databases) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
