import { readFile } from 'node:fs/promises';
import { LAYOUTS } from '@flashbooth/contracts/rules';
import { asc, count, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Config } from '../../src/config.js';
import type { DatabaseHandle } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import {
  organizations,
  templateImages,
  templateOrganizations,
  templates,
  type TemplateRow,
} from '../../src/db/schema.js';
import { createStorage } from '../../src/modules/storage/create-storage.js';
import type { ObjectStorage } from '../../src/modules/storage/storage.js';
import { UsersRepository } from '../../src/modules/users/users.repository.js';
import { demoBoothFile } from '../../src/seed/demo-booth.js';
import { designLayout } from '../../src/seed/demo-designs.js';
import {
  DEMO_MOTION_TEMPLATES,
  MOTION_BAND_HEIGHT,
  MOTION_FRAME,
} from '../../src/seed/demo-motion.js';
import {
  DEMO_TEMPLATE_NAMES,
  DEMO_TEMPLATES,
  demoTemplateSlots,
  ensureDemoTemplates,
} from '../../src/seed/demo-templates.js';
import { DEMO_ADMIN_PHONE, DEMO_ORGANIZATION_NAME, seed } from '../../src/seed/seed.js';
import { checkOpenings } from './demo-artwork-checks.js';
import { databaseTargets } from '../databases.js';
import { bearer, productionTestConfig, signedIn, startApp, testConfig } from '../harness.js';

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
const now = () => new Date('2025-05-14T06:30:00Z');
const NAMES = [...DEMO_TEMPLATE_NAMES];
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

async function demoRows(db: DatabaseHandle['db']): Promise<TemplateRow[]> {
  return db.select().from(templates).orderBy(asc(templates.id));
}

async function demoOrgId(db: DatabaseHandle['db']): Promise<number> {
  const [org] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.name, DEMO_ORGANIZATION_NAME));
  return org!.id;
}

describe.each(databaseTargets)('demo templates on $name', ({ name, open }) => {
  let database: DatabaseHandle;
  let config: Config;
  let storage: ObjectStorage;
  const run = (store: ObjectStorage) =>
    seed({
      db: database.db,
      users: new UsersRepository(database.db),
      config,
      log,
      storage: store,
      now,
    });

  beforeAll(async () => {
    database = await open();
    await migrate(database.db);
    config = testConfig({ DEMO_DATA: 'true' });
    storage = await createStorage(config, now);
  });

  afterAll(async () => {
    await storage?.close();
    await database?.close();
  });

  it('the seed creates the templates with their slots, pictures and the demo organization', async () => {
    const started = performance.now();
    await run(storage);
    console.info(
      `[${name}] seed on an empty database: ${Math.round(performance.now() - started)} ms`,
    );

    const db = database.db;
    const rows = await demoRows(db);
    expect(rows.map((row) => row.name)).toEqual(NAMES);
    const orgId = await demoOrgId(db);

    for (const [index, definition] of DEMO_TEMPLATES.entries()) {
      const row = rows[index]!;
      const layout = LAYOUTS[designLayout(definition.design)];
      expect(row).toMatchObject({
        orientation: layout.orientation,
        isCut: definition.isCut,
        isDuplicated: definition.isDuplicated,
      });
      const slots = await db
        .select()
        .from(templateImages)
        .where(eq(templateImages.templateId, row.id))
        .orderBy(asc(templateImages.id));
      expect(slots.map(({ x, y, w, h, filter }) => ({ x, y, w, h, filter }))).toEqual(
        demoTemplateSlots(definition),
      );
      const associations = await db
        .select({ orgId: templateOrganizations.orgId })
        .from(templateOrganizations)
        .where(eq(templateOrganizations.templateId, row.id));
      expect(associations).toEqual([{ orgId }]);

      // Stored and confirmed: the row points at keys of the shape uploads get, and the objects
      // are there with the right type.
      expect(row.foregroundKey).toMatch(
        new RegExp(`^templates/foregrounds/${row.id}/${UUID}\\.png$`),
      );
      expect(row.sampleKey).toMatch(new RegExp(`^templates/samples/${row.id}/${UUID}\\.jpg$`));
      expect(await storage.head(row.foregroundKey!)).toMatchObject({ contentType: 'image/png' });
      expect(await storage.head(row.sampleKey!)).toMatchObject({ contentType: 'image/jpeg' });

      const foreground = (await storage.get(row.foregroundKey!))!.body;
      const report = await checkOpenings(foreground, layout.images);
      expect([report.width, report.height]).toEqual([layout.canvas.width, layout.canvas.height]);
      expect(report.firstProblem).toBeNull();
      const sample = await sharp((await storage.get(row.sampleKey!))!.body).metadata();
      expect([sample.format, sample.width, sample.height]).toEqual([
        'jpeg',
        layout.canvas.width / 4,
        layout.canvas.height / 4,
      ]);
    }

    // The motion templates, one of each kind (issue 38): their kind and settings, and a 3:2
    // foreground (the print canvas, the shape of their one slot, which frames the clip) that is
    // transparent but for a solid band along the bottom carrying the café's mark and its name.
    expect(DEMO_MOTION_TEMPLATES.map((definition) => definition.captureKind)).toEqual([
      'boomerang',
      'gif',
      'video',
    ]);
    expect(MOTION_FRAME).toEqual(LAYOUTS.landscape1.canvas);
    for (const [index, definition] of DEMO_MOTION_TEMPLATES.entries()) {
      const row = rows[DEMO_TEMPLATES.length + index]!;
      expect(row).toMatchObject({
        name: definition.name,
        orientation: 'landscape',
        captureKind: definition.captureKind,
        motionFrames: definition.motionFrames,
        motionSeconds: definition.motionSeconds,
        motionSpeed: definition.motionSpeed,
        motionPrints: definition.motionPrints,
      });
      const slots = await db
        .select()
        .from(templateImages)
        .where(eq(templateImages.templateId, row.id));
      expect(slots.map(({ w, h }) => w / h)).toEqual([1.5]);
      const { data, info } = await sharp((await storage.get(row.foregroundKey!))!.body)
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect([info.width, info.height, info.channels]).toEqual([
        MOTION_FRAME.width,
        MOTION_FRAME.height,
        4,
      ]);
      const pixel = (x: number, y: number) => [
        ...data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 4),
      ];
      const { r, g, b } = definition.band;
      const bandTop = MOTION_FRAME.height - MOTION_BAND_HEIGHT;
      // The band: its colour at its corners, nothing above it, the picture's middle clear.
      expect(MOTION_BAND_HEIGHT).toBe(360);
      expect(pixel(10, MOTION_FRAME.height - 1)).toEqual([r, g, b, 255]);
      expect(pixel(MOTION_FRAME.width - 10, bandTop)).toEqual([r, g, b, 255]);
      expect(pixel(10, bandTop - 1)[3]).toBe(0);
      expect(pixel(1800, 1200)[3]).toBe(0);
      // The mark and the lettering: white in the band (the mark at its left, the name in its
      // middle row), every pixel of the band opaque.
      let white = 0;
      let opaque = 0;
      for (let y = bandTop; y < MOTION_FRAME.height; y += 4) {
        for (let x = 0; x < MOTION_FRAME.width; x += 4) {
          const [pr, pg, pb, pa] = pixel(x, y);
          if (pa === 255) opaque += 1;
          if (pr! > 240 && pg! > 240 && pb! > 240) white += 1;
        }
      }
      const cells = (MOTION_BAND_HEIGHT / 4) * (MOTION_FRAME.width / 4);
      expect(opaque).toBe(cells);
      expect(white / cells).toBeGreaterThan(0.03);
      const mark = [...Array(40).keys()].some((step) =>
        pixel(160 + step * 5, bandTop + 180 - 100).every((v, i) => i === 3 || v > 240),
      );
      expect(mark, 'the café mark in the band').toBe(true);
      const sample = await sharp((await storage.get(row.sampleKey!))!.body).metadata();
      expect([sample.format, sample.width, sample.height]).toEqual(['jpeg', 900, 600]);
    }
  });

  it('a second run is a no-op: nothing rendered, stored or changed', async () => {
    const db = database.db;
    const before = await demoRows(db);
    const [slotsBefore] = await db.select({ value: count() }).from(templateImages);
    const put = vi.spyOn(storage, 'put');
    try {
      const started = performance.now();
      await run(storage);
      console.info(`[${name}] seed again: ${Math.round(performance.now() - started)} ms`);
      expect(put).not.toHaveBeenCalled();
    } finally {
      put.mockRestore();
    }
    expect(await demoRows(db)).toEqual(before);
    expect((await db.select({ value: count() }).from(templateImages))[0]).toEqual(slotsBefore);
    expect(await db.select().from(templateOrganizations)).toHaveLength(NAMES.length);
  });

  it('leaves an existing demo template as staff left it: dissociated, it stays so', async () => {
    const db = database.db;
    const [, golden] = await demoRows(db);
    await db.delete(templateOrganizations).where(eq(templateOrganizations.templateId, golden!.id));
    const result = await ensureDemoTemplates({
      db,
      storage,
      orgId: await demoOrgId(db),
      venue: DEMO_ORGANIZATION_NAME,
      now,
      log,
    });
    expect(result).toEqual({ created: [], repaired: [] });
    expect(
      await db
        .select()
        .from(templateOrganizations)
        .where(eq(templateOrganizations.templateId, golden!.id)),
    ).toEqual([]);
  });
});

describe.each(databaseTargets.filter((target) => target.name === 'postgres'))(
  'demo templates when two instances start together on $name',
  ({ open }) => {
    let database: DatabaseHandle;
    const stores: ObjectStorage[] = [];

    afterAll(async () => {
      await Promise.all(stores.map((store) => store.close()));
      await database?.close();
    });

    it('creates each template once', async () => {
      database = await open();
      await migrate(database.db);
      const [org] = await database.db
        .insert(organizations)
        .values({ name: DEMO_ORGANIZATION_NAME })
        .returning({ id: organizations.id });
      const config = testConfig({ DEMO_DATA: 'true' });
      stores.push(await createStorage(config, now));
      const results = await Promise.all(
        [0, 1].map(() =>
          ensureDemoTemplates({
            db: database.db,
            storage: stores[0]!,
            orgId: org!.id,
            venue: DEMO_ORGANIZATION_NAME,
            now,
            log,
          }),
        ),
      );
      expect(results.flatMap((result) => result.created).sort()).toEqual([...NAMES].sort());
      expect((await demoRows(database.db)).map((row) => row.name)).toEqual(
        expect.arrayContaining(NAMES),
      );
      expect(await demoRows(database.db)).toHaveLength(NAMES.length);
      // 3 + 1 + 6 photo slots, and one slot per motion template (its print's, framing its clip).
      expect(await database.db.select().from(templateImages)).toHaveLength(
        10 + DEMO_MOTION_TEMPLATES.length,
      );
    });
  },
);

describe('demo templates at the demo booth (PGlite)', () => {
  let database: DatabaseHandle;

  beforeAll(async () => {
    database = await databaseTargets[0]!.open();
  });

  afterAll(async () => {
    await database?.close();
  });

  it('are offered to a visitor at the demo booth, with samples and foregrounds to download', async () => {
    const { app, config } = await startApp(database, { DEMO_DATA: 'true' });
    try {
      const { device_id: deviceId } = JSON.parse(
        await readFile(demoBoothFile(config.dataDir), 'utf8'),
      ) as { device_id: number };
      const visitor = await signedIn(app, 'regular');
      const listed = await app.inject({
        url: `/api/regular/devices/${deviceId}/templates`,
        headers: bearer(visitor.token),
      });
      expect(listed.statusCode).toBe(200);
      const items = listed.json<{
        items: {
          name: string;
          sample_s3_url: string | null;
          is_cut: boolean;
          capture_kind: string;
        }[];
      }>().items;
      expect(items.map((item) => [item.name, item.is_cut, item.capture_kind])).toEqual([
        ['Café Classic', false, 'photo'],
        ['Golden Hour', false, 'photo'],
        ['Party Strip', true, 'photo'],
        ['Boomerang', false, 'boomerang'],
        ['GIF', false, 'gif'],
        ['Video', false, 'video'],
      ]);
      for (const item of items) {
        const sample = await app.inject({ url: item.sample_s3_url! });
        expect(sample.statusCode, item.name).toBe(200);
        expect(sample.headers['content-type']).toBe('image/jpeg');
      }

      // The demo administrator sees the foregrounds and the slots with their filters.
      const staff = await signedIn(app, 'enterprise', DEMO_ADMIN_PHONE);
      const orgId = await demoOrgId(database.db);
      const ofOrg = await app.inject({
        url: `/api/enterprise/orgs/${orgId}/templates`,
        headers: bearer(staff.token),
      });
      const staffItems = ofOrg.json<{
        items: { name: string; foreground_s3_url: string | null; images: { filter: string }[] }[];
      }>().items;
      expect(staffItems.map((item) => item.images.map((image) => image.filter))).toEqual([
        ...DEMO_TEMPLATES.map((template) => [...template.filters]),
        ...DEMO_MOTION_TEMPLATES.map(() => ['none']),
      ]);
      for (const item of staffItems) {
        const foreground = await app.inject({ url: item.foreground_s3_url! });
        expect(foreground.statusCode, item.name).toBe(200);
        expect(foreground.headers['content-type']).toBe('image/png');
      }
    } finally {
      await app.close();
    }
  });

  it('another object store over the same database (a new DATA_DIR) gets the missing pictures again', async () => {
    const before = await demoRows(database.db);
    const config = testConfig({ DEMO_DATA: 'true' });
    const fresh = await createStorage(config, now);
    try {
      const result = await ensureDemoTemplates({
        db: database.db,
        storage: fresh,
        orgId: await demoOrgId(database.db),
        venue: DEMO_ORGANIZATION_NAME,
        now,
        log,
      });
      expect(result).toEqual({ created: [], repaired: NAMES });
      const after = await demoRows(database.db);
      expect(after.map((row) => row.id)).toEqual(before.map((row) => row.id));
      for (const [index, row] of after.entries()) {
        expect(row.sampleKey).not.toBe(before[index]!.sampleKey);
        expect(row.foregroundKey).not.toBe(before[index]!.foregroundKey);
        expect(await fresh.head(row.sampleKey!)).not.toBeNull();
        expect(await fresh.head(row.foregroundKey!)).not.toBeNull();
      }
    } finally {
      await fresh.close();
    }
  });
});

it('production never seeds demo templates', async () => {
  const database = await databaseTargets[0]!.open();
  try {
    await migrate(database.db);
    const config = productionTestConfig({ DEMO_DATA: 'true' });
    expect(config.demoData).toBe(false);
    const storage = await createStorage(config, now);
    const put = vi.spyOn(storage, 'put');
    await seed({
      db: database.db,
      users: new UsersRepository(database.db),
      config,
      log,
      storage,
      now,
    });
    expect(put).not.toHaveBeenCalled();
    expect(await database.db.select().from(templates)).toEqual([]);
    await storage.close();
  } finally {
    await database.close();
  }
});
