import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { MEDIA_MESSAGES, MediaSchema } from '@flashbooth/contracts';
import { makeLowresPreview } from '@flashbooth/print-composition';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { media } from '../../src/db/schema.js';
import { MediaRepository } from '../../src/modules/media/media.repository.js';
import {
  PREVIEW_MAX_ATTEMPTS,
  type PreviewMaker,
  PreviewWorker,
} from '../../src/modules/media/preview-worker.js';
import { createStorage } from '../../src/modules/storage/create-storage.js';
import type { ObjectStorage } from '../../src/modules/storage/storage.js';
import { databaseTargets } from '../databases.js';
import {
  bearer,
  eventually,
  signedIn,
  sleep,
  startApp,
  type TestApp,
  testConfig,
  TestClock,
} from '../harness.js';
import {
  capture,
  createBooth,
  createOrganization,
  createTemplate,
  makeJpeg,
  ScriptedLink,
} from '../media-fixtures.js';

/** A preview maker held at a gate: `started` counts calls, `open()` lets them (and later ones) run. */
class GatedMaker {
  started = 0;
  finished = 0;
  private release!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.release = resolve));
  readonly make: PreviewMaker = async (jpeg) => {
    this.started += 1;
    await this.gate;
    const preview = await makeLowresPreview(jpeg);
    this.finished += 1;
    return preview;
  };
  open() {
    this.release();
  }
}

/** The real maker, counting its calls. */
function countingMaker(delayMs = 0) {
  const counter = {
    calls: 0,
    make: (async (jpeg) => {
      counter.calls += 1;
      if (delayMs > 0) await sleep(delayMs);
      return makeLowresPreview(jpeg);
    }) as PreviewMaker,
  };
  return counter;
}

/** Valid JPEG markers up to the frame header, then bytes that are no image data at all. */
async function corruptAfterHeader(): Promise<Buffer> {
  const jpeg = await makeJpeg(1200);
  const header = jpeg.subarray(0, 2048);
  expect((await sharp(header).metadata()).width).toBe(1200);
  return Buffer.concat([header, Buffer.alloc(150_000, 0x55)]);
}

describe.each(databaseTargets)('background previews on $name', ({ open }) => {
  let database: DatabaseHandle;
  let storage: ObjectStorage;
  let storageRoot: string;
  const link = new ScriptedLink();
  let orgId: number;
  let templateId: number;
  let booth: Awaited<ReturnType<typeof createBooth>>;
  let jpeg: Buffer;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    database = await open();
    await migrate(database.db);
    // Every instance in these tests shares one object store, as instances behind one bucket do.
    const storageConfig = testConfig();
    storageRoot = storageConfig.storage.localDir;
    storage = await createStorage(storageConfig, () => new Date());
    orgId = await createOrganization(database.db, 'Harbour Mall');
    templateId = await createTemplate(database.db, { orgIds: [orgId], slots: 3 });
    booth = await createBooth(database.db, link, { orgId, name: 'Quay booth' });
    jpeg = await makeJpeg(2400);
  });
  afterAll(async () => {
    for (const testApp of apps) await testApp.app.close();
    await storage.close();
    await database.close();
  });

  /** An instance on the shared database and store; its preview sweep every `sweepMs`. */
  async function instance(makePreview: PreviewMaker, sweepMs = 3_600_000, lease = 120) {
    const testApp = await startApp(
      database,
      {
        OTP_SEND_LIMIT_PER_IP: '1000',
        DEVICE_COMMAND_TIMEOUT_MS: '200',
        MEDIA_PREVIEW_SWEEP_INTERVAL_MS: String(sweepMs),
        MEDIA_PREVIEW_LEASE_SECONDS: String(lease),
      },
      { deviceLink: link, storage, makePreview },
    );
    apps.push(testApp);
    return testApp;
  }

  async function closeInstance(testApp: TestApp) {
    apps.splice(apps.indexOf(testApp), 1);
    await testApp.app.close();
  }

  /** A capture for `token` on `app`: its first media item, uploaded with `body`. */
  async function uploadedItem(app: FastifyInstance, token: string, body: Buffer) {
    const response = await capture(app, token, booth.id, templateId);
    expect(response.statusCode, response.body).toBe(200);
    const upload = link.lastCapture(booth.thingName).uploads[0]!;
    const put = await app.inject({
      method: 'PUT',
      url: upload.upload_url,
      payload: body,
      headers: { 'content-type': 'image/jpeg' },
    });
    expect(put.statusCode).toBe(204);
    return upload.media_id;
  }
  const confirm = (app: FastifyInstance, id: number) =>
    app.inject({ method: 'POST', url: `/api/device/media/${id}/uploaded`, headers: booth.auth });
  const rowOf = async (id: number) =>
    (await database.db.select().from(media).where(eq(media.id, id)))[0]!;
  async function listed(app: FastifyInstance, token: string, id: number) {
    const list = await app.inject({
      method: 'GET',
      url: '/api/regular/media',
      headers: bearer(token),
    });
    expect(list.statusCode).toBe(200);
    const item = list.json<{ items: Record<string, unknown>[] }>().items.find((m) => m.id === id);
    expect(item).toBeDefined();
    // The same shape as ever: exactly the contract's fields.
    expect(Object.keys(item!).sort()).toEqual(Object.keys(MediaSchema.shape).sort());
    return MediaSchema.parse(item);
  }
  const fetchObject = async (app: FastifyInstance, url: string) => {
    const response = await app.inject(url);
    expect(response.statusCode).toBe(200);
    return response.rawPayload;
  };
  /** Preview files in the shared store for `userId`. */
  const previewFiles = async (userId: number) =>
    (
      await readdir(path.join(storageRoot, 'media', String(userId), 'lowres')).catch(() => [])
    ).filter((name) => name.endsWith('.jpg'));

  it('answers the confirmation before the preview exists and shows the HD image until it does', async () => {
    const maker = new GatedMaker();
    const { app } = await instance(maker.make);
    const person = await signedIn(app, 'regular');
    const id = await uploadedItem(app, person.token, jpeg);

    // The preview is held at its gate, yet the booth has its answer and the item is uploaded.
    const done = await confirm(app, id);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ id, is_uploaded: true });
    await eventually(
      async () => maker.started,
      (started) => started === 1,
    );
    expect(maker.finished).toBe(0);
    expect(await rowOf(id)).toMatchObject({ isUploaded: true, lowresKey: null });
    const uploaded = await app.inject({
      method: 'GET',
      url: `/api/regular/media/uploaded?media_ids=${id}`,
      headers: bearer(person.token),
    });
    // Uploaded, and no preview link yet for the capture screen's photo.
    expect(uploaded.json()).toEqual({
      media_items: [{ id, is_uploaded: true, lowres_s3_url: null, orientation: 'portrait' }],
    });

    // Meanwhile the preview link is a signed link of the HD image.
    const waiting = await listed(app, person.token, id);
    expect(waiting.is_uploaded).toBe(true);
    expect(waiting.lowres_s3_url).toEqual(expect.any(String));
    expect((await fetchObject(app, waiting.lowres_s3_url!)).equals(jpeg)).toBe(true);
    expect((await fetchObject(app, waiting.s3_url!)).equals(jpeg)).toBe(true);
    // Confirming again changes nothing and queues nothing more.
    expect((await confirm(app, id)).json()).toEqual({ id, is_uploaded: true });

    maker.open();
    const row = await eventually(
      () => rowOf(id),
      (r) => r.lowresKey !== null,
    );
    expect(row.lowresKey).toMatch(
      new RegExp(`^media/${person.userId}/lowres/[0-9a-f-]{36}\\.jpg$`),
    );
    expect(row).toMatchObject({
      previewAttempts: 1,
      previewError: null,
      previewClaimedUntil: null,
    });
    expect(maker.started).toBe(1);
    expect(maker.finished).toBe(1);

    const ready = await listed(app, person.token, id);
    expect(ready.lowres_s3_url).not.toBe(ready.s3_url);
    const meta = await sharp(await fetchObject(app, ready.lowres_s3_url!)).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 1200, height: 800 });
    expect((await fetchObject(app, ready.s3_url!)).equals(jpeg)).toBe(true);
    expect(await previewFiles(person.userId)).toHaveLength(1);
  });

  it('still refuses a file with JPEG magic bytes but no readable header, and removes it', async () => {
    const { app } = await instance(makeLowresPreview);
    const person = await signedIn(app, 'regular');
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4000, 0)]);
    const id = await uploadedItem(app, person.token, fake);
    const refused = await confirm(app, id);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(MEDIA_MESSAGES.notJpeg);
    expect((await confirm(app, id)).statusCode).toBe(409);
    expect(await rowOf(id)).toMatchObject({ isUploaded: false, previewAttempts: 0 });
  });

  it('heals a crash before the preview: the sweep of another instance makes it, once', async () => {
    // Instance A dies with one preview half made (claimed, held at the gate forever as far as
    // anyone can tell) and one still in its queue (unclaimed); B sweeps.
    const stuck = new GatedMaker();
    const a = await instance(stuck.make);
    const bMaker = countingMaker();
    const b = await instance(bMaker.make);
    const person = await signedIn(a.app, 'regular');
    const first = await uploadedItem(a.app, person.token, jpeg);
    const second = await uploadedItem(a.app, person.token, jpeg);
    expect((await confirm(a.app, first)).statusCode).toBe(200);
    expect((await confirm(a.app, second)).statusCode).toBe(200);
    await eventually(
      async () => stuck.started,
      (started) => started === 1,
    );
    expect(await rowOf(first)).toMatchObject({ previewAttempts: 1, lowresKey: null });
    expect(await rowOf(second)).toMatchObject({ previewAttempts: 0, lowresKey: null });

    // B's sweep takes the unclaimed item at once and leaves A's claimed one while A's lease holds.
    const bWorker = standaloneWorker(b, bMaker.make);
    expect(await bWorker.runOnce()).toBe(1);
    expect((await rowOf(second)).lowresKey).not.toBeNull();
    expect((await rowOf(first)).lowresKey).toBeNull();
    expect(bMaker.calls).toBe(1);

    // A's lease runs out (120 s on B's clock): B takes the item over.
    b.clock.advance(121);
    expect(await bWorker.runOnce()).toBe(1);
    const healed = await rowOf(first);
    expect(healed).toMatchObject({ previewAttempts: 2, previewError: null });
    expect(healed.lowresKey).toMatch(/\/lowres\/[0-9a-f-]{36}\.jpg$/);
    expect(bMaker.calls).toBe(2);
    expect(await bWorker.runOnce()).toBe(0);

    // A comes back to life: its late preview loses to B's and is deleted; its queued item is done.
    stuck.open();
    await closeInstance(a);
    expect(stuck.started).toBe(1);
    expect((await rowOf(first)).lowresKey).toBe(healed.lowresKey);
    expect(await rowOf(second)).toMatchObject({ previewAttempts: 1 });
    expect(await previewFiles(person.userId)).toHaveLength(2);
    const list = await listed(b.app, person.token, first);
    expect(list.lowres_s3_url).toContain(healed.lowresKey);
  });

  /** A second worker over the app's database and store, as another instance would run. */
  function standaloneWorker(testApp: TestApp, makePreview: PreviewMaker, concurrency = 1) {
    return new PreviewWorker({
      media: new MediaRepository(database.db),
      storage,
      makePreview,
      concurrency,
      leaseMs: 120_000,
      now: testApp.clock.now,
      log: testApp.app.log,
    });
  }

  it('shares the work between instances sweeping at once: every preview made exactly once', async () => {
    const testApp = await instance(makeLowresPreview);
    const person = await signedIn(testApp.app, 'regular');
    // Twelve items a crash left uploaded without a preview (marked, never queued).
    const ids: number[] = [];
    for (let i = 0; i < 12; i += 1) ids.push(await uploadedItem(testApp.app, person.token, jpeg));
    await database.db.update(media).set({ isUploaded: true }).where(inArray(media.id, ids));

    const makers = [countingMaker(15), countingMaker(15), countingMaker(15)];
    const workers = makers.map((maker) => standaloneWorker(testApp, maker.make, 2));
    const handled = await Promise.all(workers.map((worker) => worker.runOnce()));
    expect(handled.reduce((sum, n) => sum + n, 0)).toBe(12);
    expect(makers.reduce((sum, maker) => sum + maker.calls, 0)).toBe(12);

    const rows = await database.db.select().from(media).where(inArray(media.id, ids));
    expect(rows).toHaveLength(12);
    for (const row of rows) {
      expect(row.lowresKey).toMatch(/\/lowres\/[0-9a-f-]{36}\.jpg$/);
      expect(row).toMatchObject({ previewAttempts: 1, previewError: null });
    }
    expect(new Set(rows.map((row) => row.lowresKey)).size).toBe(12);
    expect(await previewFiles(person.userId)).toHaveLength(12);
    expect(await Promise.all(workers.map((worker) => worker.runOnce()))).toEqual([0, 0, 0]);
    await Promise.all(workers.map((worker) => worker.stop()));
  });

  it('records a JPEG corrupt beyond its header once, never retries it, and keeps the HD image', async () => {
    const maker = countingMaker();
    // This instance sweeps every 25 ms.
    const testApp = await instance(maker.make, 25);
    const { app } = testApp;
    const person = await signedIn(app, 'regular');
    const corrupt = await corruptAfterHeader();
    const id = await uploadedItem(app, person.token, corrupt);

    const done = await confirm(app, id);
    expect(done.statusCode, done.body).toBe(200);
    const row = await eventually(
      () => rowOf(id),
      (r) => r.previewError !== null,
    );
    expect(row.previewError).toMatch(/^Not a readable JPEG: /);
    expect(row).toMatchObject({
      isUploaded: true,
      lowresKey: null,
      previewAttempts: 1,
      previewClaimedUntil: null,
    });
    expect(maker.calls).toBe(1);

    // Many sweeps later, and long past any lease, it was not tried again.
    testApp.clock.advance(200);
    await sleep(300);
    expect(maker.calls).toBe(1);
    expect(await rowOf(id)).toMatchObject({ previewAttempts: 1, lowresKey: null });

    // The visitor still gets the delivered file in the preview's place.
    const item = await listed(app, person.token, id);
    expect(item.is_uploaded).toBe(true);
    expect((await fetchObject(app, item.lowres_s3_url!)).equals(corrupt)).toBe(true);
    expect((await fetchObject(app, item.s3_url!)).equals(corrupt)).toBe(true);
    expect(await previewFiles(person.userId)).toHaveLength(0);
    // Its fast sweep would take the next test's items.
    await closeInstance(testApp);
  });

  it('retries a failing store when the claim runs out, then gives up and records it', async () => {
    const testApp = await instance(makeLowresPreview);
    const person = await signedIn(testApp.app, 'regular');
    const id = await uploadedItem(testApp.app, person.token, jpeg);
    await database.db.update(media).set({ isUploaded: true }).where(eq(media.id, id));

    let puts = 0;
    const failingStore: ObjectStorage = Object.assign(Object.create(storage) as ObjectStorage, {
      put: async () => {
        puts += 1;
        throw new Error('store unavailable');
      },
    });
    const clock = new TestClock();
    const worker = new PreviewWorker({
      media: new MediaRepository(database.db),
      storage: failingStore,
      makePreview: makeLowresPreview,
      concurrency: 1,
      leaseMs: 60_000,
      now: clock.now,
      log: testApp.app.log,
    });
    for (let attempt = 1; attempt <= PREVIEW_MAX_ATTEMPTS; attempt += 1) {
      expect(await worker.runOnce()).toBe(1);
      const row = await rowOf(id);
      expect(row.previewAttempts).toBe(attempt);
      // Not before the claim runs out.
      expect(await worker.runOnce()).toBe(0);
      if (attempt < PREVIEW_MAX_ATTEMPTS) {
        expect(row.previewError).toBeNull();
        expect(row.previewClaimedUntil).not.toBeNull();
      }
      clock.advance(61);
    }
    const row = await rowOf(id);
    expect(row.previewError).toBe(
      `No preview after ${PREVIEW_MAX_ATTEMPTS} attempts: store unavailable`,
    );
    expect(row.lowresKey).toBeNull();
    expect(puts).toBe(PREVIEW_MAX_ATTEMPTS);
    expect(await worker.runOnce()).toBe(0);
    expect(puts).toBe(PREVIEW_MAX_ATTEMPTS);
    expect(await previewFiles(person.userId)).toHaveLength(0);

    // An item whose every attempt died with its instance (nothing recorded) is given up too.
    const orphan = await uploadedItem(testApp.app, person.token, jpeg);
    await database.db
      .update(media)
      .set({ isUploaded: true, previewAttempts: PREVIEW_MAX_ATTEMPTS })
      .where(eq(media.id, orphan));
    expect(await worker.runOnce()).toBe(0);
    expect((await rowOf(orphan)).previewError).toBe(
      `No preview after ${PREVIEW_MAX_ATTEMPTS} attempts.`,
    );
    await worker.stop();
  });
});
