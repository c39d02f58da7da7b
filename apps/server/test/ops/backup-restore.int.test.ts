import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { devices, media, paymentTransactions, users } from '../../src/db/schema.js';
import { createBackup } from '../../src/ops/backup.js';
import { readFile } from 'node:fs/promises';
import { readManifest } from '../../src/ops/manifest.js';
import { restoreBackup } from '../../src/ops/restore.js';
import { REQUIRE_POSTGRES, TEST_POSTGRES_URL } from '../databases.js';
import { bearer, signedIn, startApp, testConfig, type TestApp } from '../harness.js';
import {
  capture,
  createBooth,
  createOrganization,
  createTemplate,
  makeJpeg,
  ScriptedLink,
} from '../media-fixtures.js';
import { S3RVER_CREDENTIALS, startS3rver } from '../s3rver.js';
import { postgresReachable } from '../temporary-postgres.js';

const postgres = await postgresReachable(TEST_POSTGRES_URL);

/** An empty PostgreSQL database of its own (its URL), dropped after the file. */
const made: string[] = [];
async function emptyDatabase(): Promise<string> {
  const name = `flashbooth_restore_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  made.push(name);
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}
afterAll(async () => {
  if (made.length === 0) return;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  for (const name of made) await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
});

const tempDir = (prefix: string) => mkdtempSync(path.join(os.tmpdir(), `flashbooth-${prefix}-`));

interface Target {
  name: 'pglite' | 'postgres';
  /** The environment of an installation's database in `dataDir`, and its open handle. */
  open(dataDir: string): Promise<{ env: Record<string, string>; database: DatabaseHandle }>;
  /** PGlite is one process's database: it is backed up with the server stopped. */
  live: boolean;
}

const targets: Target[] = [
  {
    name: 'pglite',
    live: false,
    open: async (dataDir) => ({ env: {}, database: await openDatabase({ dataDir }) }),
  },
  ...(postgres || REQUIRE_POSTGRES
    ? [
        {
          name: 'postgres' as const,
          live: true,
          open: async () => {
            const url = await emptyDatabase();
            return { env: { DATABASE_URL: url }, database: await openDatabase({ url }) };
          },
        },
      ]
    : []),
];

describe.each(targets)('backup and restore on $name', (target) => {
  const folders: string[] = [];
  afterAll(async () => {
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  it('backs up a product with media, payments and booths and restores it elsewhere, healthy and downloadable', async () => {
    // The product: a booth that captured and delivered a photo, a paid transaction, more booths.
    const dataDir = tempDir('source');
    const backups = tempDir('backups');
    folders.push(dataDir, backups);
    const source = await target.open(dataDir);
    const link = new ScriptedLink();
    const running: TestApp = await startApp(
      source.database,
      { DATA_DIR: dataDir, ...source.env },
      { deviceLink: link },
    );
    const { app } = running;
    const db = source.database.db;
    const orgId = await createOrganization(db, 'Backup Mall');
    const templateId = await createTemplate(db, { orgIds: [orgId], slots: 1 });
    const booth = await createBooth(db, link, { orgId, name: 'Atrium' });
    await createBooth(db, link, { orgId, name: 'Food court', status: 'offline' });
    const person = await signedIn(app, 'regular');
    const photo = await makeJpeg(800);
    const taken = await capture(app, person.token, booth.id, templateId);
    expect(taken.statusCode, taken.body).toBe(200);
    const upload = link.lastCapture(booth.thingName).uploads[0]!;
    await app.inject({
      method: 'PUT',
      url: upload.upload_url,
      payload: photo,
      headers: { 'content-type': 'image/jpeg' },
    });
    const confirmed = await app.inject({
      method: 'POST',
      url: `/api/device/media/${upload.media_id}/uploaded`,
      headers: booth.auth,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const now = new Date();
    await db.insert(paymentTransactions).values({
      userId: person.userId,
      deviceId: booth.id,
      orgId,
      templateId,
      provider: 'sandbox',
      orderId: `T${randomUUID().replaceAll('-', '')}`,
      amountPaise: 4900,
      state: 'COMPLETED',
      expiresAt: now,
      nextCheckAt: now,
      completedAt: now,
    });
    const snapshot = async (database: DatabaseHandle) => ({
      devices: await database.db
        .select({ id: devices.id, name: devices.name, thingName: devices.thingName })
        .from(devices)
        .orderBy(asc(devices.id)),
      media: await database.db
        .select({ id: media.id, s3Key: media.s3Key, isUploaded: media.isUploaded })
        .from(media)
        .orderBy(asc(media.id)),
      payments: await database.db
        .select({
          id: paymentTransactions.id,
          state: paymentTransactions.state,
          amountPaise: paymentTransactions.amountPaise,
          orderId: paymentTransactions.orderId,
        })
        .from(paymentTransactions)
        .orderBy(asc(paymentTransactions.id)),
    });
    const before = await snapshot(source.database);
    expect(before.media).toEqual([expect.objectContaining({ isUploaded: true })]);

    // PostgreSQL is backed up while the product runs; PGlite once its server has stopped.
    if (!target.live) {
      await app.close();
      await source.database.close();
    }
    const { dir, manifest } = await createBackup({ config: running.config, outDir: backups });
    if (target.live) {
      await app.close();
      await source.database.close();
    }
    expect(path.basename(dir)).toMatch(/^flashbooth-backup-\d{8}T\d{6}Z$/);
    expect(await readManifest(dir)).toEqual(manifest);
    expect(manifest.database).toMatchObject({
      kind: target.name,
      rows: expect.objectContaining({ devices: 2, media: 1, payment_transactions: 1 }),
    });
    expect(manifest.database.migrations.length).toBeGreaterThan(15);
    expect(manifest.storage).toMatchObject({ driver: 'local', objects: expect.any(Number) });
    expect(manifest.files.every((file) => /^[0-9a-f]{64}$/.test(file.sha256))).toBe(true);

    // Restored into an empty installation elsewhere: the same rows, the photo downloads.
    const restoredDir = tempDir('restored');
    folders.push(restoredDir);
    const restoredEnv: Record<string, string> =
      target.name === 'postgres' ? { DATABASE_URL: await emptyDatabase() } : {};
    const restoreConfig = testConfig({ DATA_DIR: restoredDir, ...restoredEnv });
    const report = await restoreBackup({ config: restoreConfig, from: dir });
    expect(report.rows).toEqual(manifest.database.rows);
    expect(report.objectsChecked).toBeGreaterThanOrEqual(1);
    expect(report.migrated).toEqual([]);

    const restoredDatabase = restoredEnv.DATABASE_URL
      ? await openDatabase({ url: restoredEnv.DATABASE_URL })
      : await openDatabase({ dataDir: restoredDir });
    const restored = await startApp(
      restoredDatabase,
      { DATA_DIR: restoredDir, ...restoredEnv },
      { deviceLink: new ScriptedLink() },
    );
    try {
      expect(await snapshot(restoredDatabase)).toEqual(before);
      expect((await restored.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(
        200,
      );
      // The visitor's session is still good (same AUTH_SECRET) and My Media downloads the photo.
      const list = await restored.app.inject({
        method: 'GET',
        url: '/api/regular/media',
        headers: bearer(person.token),
      });
      expect(list.statusCode, list.body).toBe(200);
      const [item] = list.json<{ items: { id: number; s3_url: string | null }[] }>().items;
      expect(item!.id).toBe(upload.media_id);
      const download = await restored.app.inject({ method: 'GET', url: item!.s3_url! });
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(photo)).toBe(true);
    } finally {
      await restored.app.close();
      await restoredDatabase.close();
    }

    // A second restore into the same place is refused: it holds data now.
    await expect(restoreBackup({ config: restoreConfig, from: dir })).rejects.toThrow(
      /Refusing to overwrite existing data: .*Restore into an empty DATA_DIR or database, or add --force/,
    );
    // A file-backed PGlite boots four times here (source, backup, restore, restored app).
  }, 120_000);
});

describe('backup and restore with an S3 object store', () => {
  it("keeps the bucket's key list, and a restore checks every uploaded item's object is still there", async () => {
    const s3 = await startS3rver('flashbooth-backup', 'flashbooth-backup-s3-');
    const folders: string[] = [];
    try {
      const env = {
        STORAGE_DRIVER: 's3',
        S3_BUCKET: 'flashbooth-backup',
        S3_ENDPOINT: s3.endpoint,
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
        S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      };
      const dataDir = tempDir('s3-source');
      const backups = tempDir('s3-backups');
      folders.push(dataDir, backups);
      const database = await openDatabase({ dataDir });
      const source = testConfig({ DATA_DIR: dataDir, ...env });
      await migrate(database.db);
      const [person] = await database.db
        .insert(users)
        .values({ pool: 'regular', phone: '+919811100001', name: 'S3 Visitor' })
        .returning();
      const key = `media/${person!.id}/${randomUUID()}.jpg`;
      await s3.storage.put(key, await makeJpeg(400), 'image/jpeg');
      await database.db.insert(media).values({
        userId: person!.id,
        captureId: randomUUID(),
        s3Key: key,
        isUploaded: true,
      });
      await database.close();

      const { dir, manifest } = await createBackup({ config: source, outDir: backups });
      expect(manifest.storage).toMatchObject({
        driver: 's3',
        bucket: 'flashbooth-backup',
        objects: 1,
      });
      expect(await readFile(path.join(dir, 's3-keys.txt'), 'utf8')).toContain(`${key}\t`);

      const restoredDir = tempDir('s3-restored');
      folders.push(restoredDir);
      const report = await restoreBackup({
        config: testConfig({ DATA_DIR: restoredDir, ...env }),
        from: dir,
      });
      expect(report.objectsChecked).toBe(1);

      // The object gone from the bucket: the restore says so and leaves nothing behind.
      await s3.storage.delete(key);
      const againDir = tempDir('s3-again');
      folders.push(againDir);
      await expect(
        restoreBackup({ config: testConfig({ DATA_DIR: againDir, ...env }), from: dir }),
      ).rejects.toThrow(
        /1 media objects are not in the object store \(first: media\/.*s3-keys\.txt/,
      );
      // What the failed restore had written is gone: it can be tried again there.
      expect(existsSync(path.join(againDir, 'pglite'))).toBe(false);
    } finally {
      await s3.close();
      for (const folder of folders) await rm(folder, { recursive: true, force: true });
    }
  }, 120_000);
});

describe.skipIf(!(postgres || REQUIRE_POSTGRES))('a backup taken under load on postgres', () => {
  it('restores to exactly its snapshot, starts healthy, and every restored photo downloads', async () => {
    const dataDir = tempDir('load-source');
    const backups = tempDir('load-backups');
    const restoredDir = tempDir('load-restored');
    const sourceUrl = await emptyDatabase();
    const database = await openDatabase({ url: sourceUrl });
    const link = new ScriptedLink();
    const { app, config } = await startApp(
      database,
      { DATA_DIR: dataDir, DATABASE_URL: sourceUrl },
      { deviceLink: link },
    );
    const db = database.db;
    const orgId = await createOrganization(db, 'Busy Mall');
    const templateId = await createTemplate(db, { orgIds: [orgId], slots: 1 });
    const photo = await makeJpeg(400);
    const visitors = await Promise.all([1, 2, 3].map(() => signedIn(app, 'regular')));
    const booths = await Promise.all(visitors.map(() => createBooth(db, link, { orgId })));

    // Three visitors capture and their booths deliver, over and over, until told to stop.
    let stop = false;
    let delivered = 0;
    const loop = async (index: number) => {
      const booth = booths[index]!;
      while (!stop) {
        const taken = await capture(app, visitors[index]!.token, booth.id, templateId);
        expect(taken.statusCode, taken.body).toBe(200);
        const upload = link.lastCapture(booth.thingName).uploads[0]!;
        await app.inject({
          method: 'PUT',
          url: upload.upload_url,
          payload: photo,
          headers: { 'content-type': 'image/jpeg' },
        });
        const confirmed = await app.inject({
          method: 'POST',
          url: `/api/device/media/${upload.media_id}/uploaded`,
          headers: booth.auth,
        });
        expect(confirmed.statusCode).toBe(200);
        delivered += 1;
      }
    };
    const load = Promise.all(visitors.map((_, index) => loop(index)));
    try {
      while (delivered < 3) await new Promise((resolve) => setTimeout(resolve, 20));
      const before = delivered;
      const { dir, manifest } = await createBackup({ config, outDir: backups });
      const during = delivered - before;
      stop = true;
      await load;
      // The load went on while the backup ran, and went on past its snapshot.
      expect(during).toBeGreaterThan(0);
      expect(manifest.database.rows.media!).toBeLessThan(delivered);

      const restoredUrl = await emptyDatabase();
      const restoreConfig = testConfig({ DATA_DIR: restoredDir, DATABASE_URL: restoredUrl });
      // The restore's own checks: the snapshot's row counts, every uploaded item's object.
      const report = await restoreBackup({ config: restoreConfig, from: dir });
      expect(report.rows.media).toBe(manifest.database.rows.media);
      const restoredDatabase = await openDatabase({ url: restoredUrl });
      const restored = await startApp(
        restoredDatabase,
        { DATA_DIR: restoredDir, DATABASE_URL: restoredUrl },
        { deviceLink: new ScriptedLink() },
      );
      try {
        expect((await restored.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(
          200,
        );
        let downloads = 0;
        for (const visitor of visitors) {
          const list = await restored.app.inject({
            method: 'GET',
            url: '/api/regular/media?limit=100',
            headers: bearer(visitor.token),
          });
          expect(list.statusCode, list.body).toBe(200);
          const items = list.json<{ items: { is_uploaded: boolean; s3_url: string | null }[] }>()
            .items;
          for (const item of items.filter((entry) => entry.is_uploaded)) {
            const download = await restored.app.inject({ method: 'GET', url: item.s3_url! });
            expect(download.statusCode).toBe(200);
            expect(download.rawPayload.equals(photo)).toBe(true);
            downloads += 1;
          }
        }
        // Every photo delivered by the snapshot's moment (at least the three before it) downloads.
        const uploaded = await restoredDatabase.db
          .select({ id: media.id })
          .from(media)
          .where(eq(media.isUploaded, true));
        expect(uploaded.length).toBeGreaterThanOrEqual(3);
        expect(downloads).toBe(uploaded.length);
      } finally {
        await restored.app.close();
        await restoredDatabase.close();
      }
    } finally {
      stop = true;
      await load.catch(() => undefined);
      await app.close();
      await database.close();
      for (const folder of [dataDir, backups, restoredDir]) {
        await rm(folder, { recursive: true, force: true });
      }
    }
  }, 120_000);
});
