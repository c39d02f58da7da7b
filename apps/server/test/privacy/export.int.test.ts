import type { DataExport, DataExportStatus } from '@flashbooth/contracts';
import { eq, like as sqlLike } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import type { DatabaseHandle } from '../../src/db/client.js';
import { dataExports, objectCleanup, privacyActions } from '../../src/db/schema.js';
import { DataExportBuilder } from '../../src/modules/privacy/data-export.js';
import { PrivacyRepository } from '../../src/modules/privacy/privacy.repository.js';
import { databaseTargets } from '../databases.js';
import { apiCall, eventually, signedIn } from '../harness.js';
import {
  comment,
  grant,
  like,
  payment,
  privacyApp,
  silentLog,
  storedItem,
} from './privacy-fixtures.js';

/** Every entry of a ZIP with its bytes. */
async function unzip(body: Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(body, { lazyEntries: true }, (error, opened) =>
      error ? reject(error) : resolve(opened),
    ),
  );
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream: NodeJS.ReadableStream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', reject);
        stream.on('end', () => {
          entries.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  return entries;
}

describe.each(databaseTargets)('data export on $name', ({ open }) => {
  let database: DatabaseHandle;
  let t: Awaited<ReturnType<typeof privacyApp>>;

  beforeAll(async () => {
    database = await open();
    // The job's own timer is off: the request's kick builds, and tests run the job by hand.
    t = await privacyApp(database, { DATA_EXPORT_SWEEP_INTERVAL_MS: '3600000' });
  }, 60_000);
  afterAll(async () => {
    await t.app.close();
    await t.storage.close();
    await database.close();
  });

  /** A builder as another instance would run it (the job's own timer is off). */
  const builder = (storage = t.storage) =>
    new DataExportBuilder({
      db: database.db,
      repository: new PrivacyRepository(database.db),
      storage,
      cleanup: t.cleanup,
      ttlMs: 3_600_000,
      now: t.clock.now,
      log: silentLog,
    });
  const call = (method: 'GET' | 'POST', url: string, token: string) =>
    apiCall(t.app, method, url, token, undefined, 'regular');
  const status = async (token: string) => {
    const response = await call('GET', 'users/self/data-export', token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<DataExportStatus>().current;
  };
  const ready = (token: string) =>
    eventually(
      () => status(token),
      (current) => current?.state === 'ready',
    ) as Promise<DataExport>;

  it('builds a ZIP with every item in HD and a JSON of the profile, media, transactions and credit', async () => {
    const asha = await signedIn(t.app, 'regular', undefined, 'Asha Export');
    const ravi = await signedIn(t.app, 'regular', undefined, 'Ravi Friend');
    const photo = await storedItem(database, t.storage, asha.userId, { caption: 'Sunset pier' });
    const video = await storedItem(database, t.storage, asha.userId, { video: true });
    // A GIF item: its MP4 and its .gif (My Media's "Download GIF"), issue 38.
    const gifItem = await storedItem(database, t.storage, asha.userId, { gif: true });
    const ravisPhoto = await storedItem(database, t.storage, ravi.userId);
    await like(database, photo.id, ravi.userId);
    await comment(database, photo.id, ravi.userId, 'What a view');
    await like(database, ravisPhoto.id, asha.userId);
    await comment(database, ravisPhoto.id, asha.userId, 'Great smile');
    const paid = await payment(database, asha.userId, 'COMPLETED', 14_900);
    await grant(database, asha.userId, 5_000);

    expect(await status(asha.token)).toBeNull();
    const requested = await call('POST', 'users/self/data-export', asha.token);
    expect(requested.statusCode, requested.body).toBe(202);
    expect(requested.json<DataExport>()).toMatchObject({
      state: 'pending',
      requested_by_staff: false,
      download_url: null,
    });
    // Asking again while it is being built gives the same export.
    const again = await call('POST', 'users/self/data-export', asha.token);
    expect(again.json<DataExport>().id).toBe(requested.json<DataExport>().id);

    const done = await ready(asha.token);
    expect(done).toMatchObject({
      state: 'ready',
      item_count: 3,
      size_bytes: expect.any(Number),
      download_url: expect.stringContaining('/api/storage/objects/exports/'),
    });
    // Offered for DATA_EXPORT_TTL_HOURS (72) from when it was ready.
    expect(Date.parse(`${done.expires_at!}Z`) - Date.parse(`${done.ready_at!}Z`)).toBe(
      72 * 3_600_000,
    );

    const download = await t.app.inject({ method: 'GET', url: done.download_url! });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toContain(
      `flashbooth-data-${done.ready_at!.slice(0, 10)}.zip`,
    );
    const entries = await unzip(download.rawPayload);
    expect([...entries.keys()].sort()).toEqual(
      [
        'README.txt',
        'data.json',
        `photos/${photo.id}.jpg`,
        `videos/${video.id}.mp4`,
        `videos/${gifItem.id}.mp4`,
        `videos/${gifItem.id}.gif`,
      ].sort(),
    );
    expect(entries.get(`videos/${gifItem.id}.gif`)!.equals(gifItem.gif!)).toBe(true);
    expect(entries.get(`videos/${gifItem.id}.mp4`)!.equals(gifItem.hd)).toBe(true);
    expect(entries.get(`photos/${photo.id}.jpg`)!.equals(photo.hd)).toBe(true);
    expect(entries.get(`videos/${video.id}.mp4`)!.equals(video.hd)).toBe(true);

    const json = JSON.parse(entries.get('data.json')!.toString('utf8'));
    expect(json.profile).toMatchObject({ id: asha.userId, name: 'Asha Export', phone: asha.phone });
    expect(json.media).toEqual([
      expect.objectContaining({
        id: photo.id,
        file: `photos/${photo.id}.jpg`,
        caption: 'Sunset pier',
        likes_count: 1,
        likes: [{ liked_at: expect.any(String) }],
        comments: [
          { user_name: 'Ravi Friend', comment_text: 'What a view', created_at: expect.any(String) },
        ],
      }),
      expect.objectContaining({
        id: video.id,
        media_type: 'video',
        file: `videos/${video.id}.mp4`,
      }),
      expect.objectContaining({
        id: gifItem.id,
        media_type: 'video',
        file: `videos/${gifItem.id}.mp4`,
        gif_file: `videos/${gifItem.id}.gif`,
      }),
    ]);
    expect(json.media[1]).not.toHaveProperty('gif_file');
    expect(json.likes_given).toEqual([{ media_id: ravisPhoto.id, liked_at: expect.any(String) }]);
    expect(json.comments_written).toEqual([
      expect.objectContaining({ media_id: ravisPhoto.id, comment_text: 'Great smile' }),
    ]);
    expect(json.transactions).toEqual([
      expect.objectContaining({
        id: paid.id,
        order_id: paid.orderId,
        amount_rupees: 149,
        state: 'COMPLETED',
        refunds: [],
      }),
    ]);
    expect(json.credit_history).toEqual([
      expect.objectContaining({ change_rupees: 50, reason: 'grant' }),
    ]);

    // Logged once, by the person, with ids only.
    expect(
      await database.db
        .select()
        .from(privacyActions)
        .where(eq(privacyActions.subjectId, asha.userId)),
    ).toEqual([
      expect.objectContaining({ actorId: asha.userId, subjectId: asha.userId, action: 'export' }),
    ]);

    // After its lifetime the link is gone at once, and the job deletes the ZIP.
    const [row] = await database.db.select().from(dataExports).where(eq(dataExports.id, done.id));
    const key = row!.objectKey!;
    t.clock.advance(72 * 3600 + 1);
    const later = await signedIn(t.app, 'regular', asha.phone); // the old session has expired
    expect(await status(later.token)).toMatchObject({ state: 'expired', download_url: null });
    expect(await t.storage.head(key)).not.toBeNull();
    expect(await t.app.jobs.runNow('data-export-expiry')).toMatchObject({
      counts: { expired: 1 },
    });
    expect(await t.storage.head(key)).toBeNull();
    const [expired] = await database.db
      .select()
      .from(dataExports)
      .where(eq(dataExports.id, done.id));
    expect(expired).toMatchObject({ state: 'expired', objectKey: null });
    // A new copy can be asked for.
    const fresh = await call('POST', 'users/self/data-export', later.token);
    expect(fresh.statusCode).toBe(202);
    expect(fresh.json<DataExport>().id).not.toBe(done.id);
    await ready(later.token);
  });

  it('two instances never build the same export', async () => {
    const person = await signedIn(t.app, 'regular');
    await storedItem(database, t.storage, person.userId);
    // Pending without a kick: written straight in the database.
    await database.db.insert(dataExports).values({ userId: person.userId });
    const [one, two] = await Promise.all([builder().runOnce(), builder().runOnce()]);
    expect((one.counts.built ?? 0) + (two.counts.built ?? 0)).toBe(1);
    expect((one.counts.failed ?? 0) + (two.counts.failed ?? 0)).toBe(0);
    const rows = await database.db
      .select()
      .from(dataExports)
      .where(eq(dataExports.userId, person.userId));
    expect(rows).toEqual([expect.objectContaining({ state: 'ready', attempts: 1 })]);
    // One ZIP, referenced by the row and not waiting for cleanup.
    expect(
      await database.db
        .select()
        .from(objectCleanup)
        .where(sqlLike(objectCleanup.objectKey, 'exports/%')),
    ).toEqual([]);
  });

  it('fails the attempt, and does not hang, when an item disappears while the ZIP is written', async () => {
    const person = await signedIn(t.app, 'regular');
    await storedItem(database, t.storage, person.userId);
    await database.db.insert(dataExports).values({ userId: person.userId });
    // The object is there when the export looks (head) and gone when the ZIP reaches it (open),
    // as when the visitor is erased during the build.
    const vanishing = new Proxy(t.storage, {
      get(target, property) {
        if (property === 'open') return async () => null;
        const value: unknown = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const run = await builder(vanishing).runOnce();
    expect(run.counts).toMatchObject({ built: 0, failed: 1 });
    const [row] = await database.db
      .select()
      .from(dataExports)
      .where(eq(dataExports.userId, person.userId));
    expect(row).toMatchObject({ state: 'pending', attempts: 1 });
  });

  it('says what a dry run of the builder would do without building', async () => {
    const person = await signedIn(t.app, 'regular');
    const [row] = await database.db
      .insert(dataExports)
      .values({ userId: person.userId })
      .returning();
    const dry = await t.app.jobs.runNow('data-export-builder', { dryRun: true });
    expect(dry.plan).toContain(
      `export ${row!.id} of user ${person.userId}: would be built (attempt 1)`,
    );
    const [still] = await database.db.select().from(dataExports).where(eq(dataExports.id, row!.id));
    expect(still).toMatchObject({ state: 'pending', attempts: 0 });
  });
});
