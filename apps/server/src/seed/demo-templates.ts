import { LAYOUTS } from '@flashbooth/contracts/rules';
import { asc, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../db/client.js';
import { type TemplateRow, templates } from '../db/schema.js';
import { newObjectKey, type ObjectStorage } from '../modules/storage/storage.js';
import {
  type TemplateImageKind,
  TemplatesRepository,
} from '../modules/templates/templates.repository.js';
import { type DemoArtwork, type DemoArtworkRequest, renderDemoArtwork } from './demo-artwork.js';
import { type DesignName, designLayout } from './demo-designs.js';
import {
  DEMO_MOTION_TEMPLATES,
  type DemoMotionTemplateDefinition,
  demoMotionSlots,
  MOTION_FRAME,
  renderMotionArtwork,
} from './demo-motion.js';

/** One demo template: a Template Studio layout with its own design and a filter per slot. */
export interface DemoTemplateDefinition {
  name: string;
  design: DesignName;
  isCut: boolean;
  isDuplicated: boolean;
  /** One per slot of the design's layout, in slot order. */
  filters: readonly string[];
}

/**
 * The demo organization's templates, one per layout. The party strip is printed as two strips
 * (cut) showing the same three photos (duplicated), so its filters repeat per strip.
 */
export const DEMO_TEMPLATES: readonly DemoTemplateDefinition[] = Object.freeze([
  {
    name: 'Café Classic',
    design: 'cafe-classic',
    isCut: false,
    isDuplicated: false,
    filters: ['none', 'warm', 'grayscale'],
  },
  {
    name: 'Golden Hour',
    design: 'golden-hour',
    isCut: false,
    isDuplicated: false,
    filters: ['warm'],
  },
  {
    name: 'Party Strip',
    design: 'party-strip',
    isCut: true,
    isDuplicated: true,
    filters: ['none', 'high-contrast', 'grayscale', 'none', 'high-contrast', 'grayscale'],
  },
]);

/** The demo café's street, printed under its name. */
export const DEMO_PLACE = 'Church Street · Bengaluru';

/** Any constant: serialises the demo template seeding of instances starting together. */
const DEMO_TEMPLATES_LOCK = 7_265_002;

/** The folders the templates service hands out upload keys in (`templates.service.ts`). */
const FOLDER: Record<TemplateImageKind, string> = {
  sample: 'templates/samples',
  foreground: 'templates/foregrounds',
};
const UPLOAD: Record<TemplateImageKind, { extension: 'jpg' | 'png'; contentType: string }> = {
  sample: { extension: 'jpg', contentType: 'image/jpeg' },
  foreground: { extension: 'png', contentType: 'image/png' },
};

/** The slots of a definition: its layout's positions with the definition's filters. */
export function demoTemplateSlots(definition: DemoTemplateDefinition) {
  const layout = LAYOUTS[designLayout(definition.design)];
  if (definition.filters.length !== layout.images.length) {
    throw new Error(`${definition.name}: ${layout.images.length} filters expected`);
  }
  return layout.images.map((slot, index) => ({ ...slot, filter: definition.filters[index]! }));
}

/**
 * The date lines printed on the templates: the day they were made, in the café's time zone,
 * long ("21 November 2026") and short for the narrow party strip ("21 Nov 2026").
 */
export function demoDateLines(at: Date): { date: string; shortDate: string } {
  const format = (month: 'long' | 'short') =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Asia/Kolkata',
      day: 'numeric',
      month,
      year: 'numeric',
    }).format(at);
  // en-GB abbreviates September as "Sept"; the print uses three letters for every month.
  return { date: format('long'), shortDate: format('short').replace(/\bSept\b/, 'Sep') };
}

export interface DemoTemplatesResult {
  /** Names of the templates this run created. */
  created: string[];
  /** Names of existing demo templates whose missing sample or foreground was made again. */
  repaired: string[];
}

/** Every demo template's name: the photo templates, then the motion ones. */
export const DEMO_TEMPLATE_NAMES: readonly string[] = Object.freeze([
  ...DEMO_TEMPLATES.map((definition) => definition.name),
  ...DEMO_MOTION_TEMPLATES.map((definition) => definition.name),
]);

/** What seeding needs of a demo template, photo or motion alike. */
interface DemoTemplateSpec {
  name: string;
  orientation: 'portrait' | 'landscape';
  isCut: boolean;
  isDuplicated: boolean;
  slots: { x: number; y: number; w: number; h: number; filter: string }[];
  /** A motion template's settings; null for a photo template. */
  motion: Omit<DemoMotionTemplateDefinition, 'name' | 'band'> | null;
  render: (text: DemoArtworkRequest['text'], at: Date) => Promise<DemoArtwork>;
}

function photoSpec(definition: DemoTemplateDefinition): DemoTemplateSpec {
  return {
    name: definition.name,
    orientation: LAYOUTS[designLayout(definition.design)].orientation,
    isCut: definition.isCut,
    isDuplicated: definition.isDuplicated,
    slots: demoTemplateSlots(definition),
    motion: null,
    render: (text, at) =>
      renderOnce({
        design: definition.design,
        text,
        images: demoTemplateSlots(definition),
        isCut: definition.isCut,
        isDuplicated: definition.isDuplicated,
        takenAt: at,
      }),
  };
}

function motionSpec(definition: DemoMotionTemplateDefinition): DemoTemplateSpec {
  const { name, band: _band, ...motion } = definition;
  return {
    name,
    orientation: MOTION_FRAME.width > MOTION_FRAME.height ? 'landscape' : 'portrait',
    isCut: false,
    isDuplicated: false,
    slots: demoMotionSlots(),
    motion,
    render: (text, at) => renderMotionArtwork(definition, text, at),
  };
}

const DEMO_SPECS: readonly DemoTemplateSpec[] = [
  ...DEMO_TEMPLATES.map(photoSpec),
  ...DEMO_MOTION_TEMPLATES.map(motionSpec),
];

/** The first template of each demo name (staff may have made others with the same name since). */
async function findDemoTemplates(db: Executor): Promise<Map<string, TemplateRow>> {
  const rows = await db
    .select()
    .from(templates)
    .where(inArray(templates.name, [...DEMO_TEMPLATE_NAMES]))
    .orderBy(asc(templates.id));
  const byName = new Map<string, TemplateRow>();
  for (const row of rows) if (!byName.has(row.name)) byName.set(row.name, row);
  return byName;
}

/**
 * The last artwork rendered per design in this process, by what it shows (the design, its words
 * and date, its slots) but not the second its sample photos are stamped with. Rendering the three
 * designs costs seconds of CPU; a process that seeds again on the same day (a new object store
 * over the same database, a restart within the process) reuses them.
 */
const renderedArtwork = new Map<DesignName, { key: string; artwork: Promise<DemoArtwork> }>();

function renderOnce(request: DemoArtworkRequest): Promise<DemoArtwork> {
  const { design, text, images, isCut, isDuplicated } = request;
  const key = JSON.stringify({ design, text, images, isCut, isDuplicated });
  const last = renderedArtwork.get(request.design);
  if (last?.key === key) return last.artwork;
  const artwork = renderDemoArtwork(request);
  renderedArtwork.set(request.design, { key, artwork });
  // A failed render is not kept: the next seed tries again.
  artwork.catch(() => {
    if (renderedArtwork.get(request.design)?.artwork === artwork) {
      renderedArtwork.delete(request.design);
    }
  });
  return artwork;
}

/**
 * Idempotent: the demo templates exist, each with its slots, its foreground and sample in the
 * object store and, when this run creates it, associated with the demo organization.
 *
 * A template is found by its name, so a later run leaves it as staff left it (slots,
 * organizations, uploaded pictures) and never renders anything for it, except that a sample
 * or foreground whose object has gone from the store (another object store over the same
 * database) is made and stored again. Rendering happens outside the transaction; the rows and
 * keys are written under an advisory lock, so instances starting together create each
 * template once.
 */
export async function ensureDemoTemplates({
  db,
  storage,
  orgId,
  venue,
  now,
  log,
}: {
  db: Database;
  storage: ObjectStorage;
  orgId: number;
  venue: string;
  now: () => Date;
  log: FastifyBaseLogger;
}): Promise<DemoTemplatesResult> {
  const existing = await findDemoTemplates(db);
  const missingKinds = new Map<string, TemplateImageKind[]>();
  for (const definition of DEMO_SPECS) {
    const row = existing.get(definition.name);
    if (!row) continue;
    const kinds: TemplateImageKind[] = [];
    for (const kind of ['foreground', 'sample'] as const) {
      const key = kind === 'sample' ? row.sampleKey : row.foregroundKey;
      if (!key || !(await storage.head(key))) kinds.push(kind);
    }
    if (kinds.length > 0) missingKinds.set(definition.name, kinds);
  }
  const toRender = DEMO_SPECS.filter(
    (definition) => !existing.has(definition.name) || missingKinds.has(definition.name),
  );
  const result: DemoTemplatesResult = { created: [], repaired: [] };
  if (toRender.length === 0) return result;

  const started = performance.now();
  const at = now();
  const text = { venue, place: DEMO_PLACE, ...demoDateLines(at) };
  const artwork = new Map(
    await Promise.all(
      toRender.map(
        async (definition) => [definition.name, await definition.render(text, at)] as const,
      ),
    ),
  );

  // Objects stored for a transaction that then failed are removed again.
  const stored: string[] = [];
  const store = async (
    repository: TemplatesRepository,
    templateId: number,
    kind: TemplateImageKind,
    pictures: DemoArtwork,
  ) => {
    const { extension, contentType } = UPLOAD[kind];
    const key = newObjectKey(`${FOLDER[kind]}/${templateId}`, extension);
    await storage.put(key, pictures[kind], contentType);
    stored.push(key);
    // The "confirm" step of an upload: the template now points at the stored object.
    await repository.replaceKey(templateId, kind, key, now());
  };

  try {
    await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${DEMO_TEMPLATES_LOCK})`);
      const repository = new TemplatesRepository(tx);
      // Another instance may have done the work while this one rendered.
      const current = await findDemoTemplates(tx);
      for (const definition of toRender) {
        const pictures = artwork.get(definition.name)!;
        const row = current.get(definition.name);
        if (!row) {
          const { id } = await repository.create({
            name: definition.name,
            orientation: definition.orientation,
          });
          await repository.update(id, {
            isCut: definition.isCut,
            isDuplicated: definition.isDuplicated,
            ...(definition.motion && {
              captureKind: definition.motion.captureKind,
              motionFrames: definition.motion.motionFrames,
              motionSeconds: definition.motion.motionSeconds,
              motionSpeed: definition.motion.motionSpeed,
              motionPrints: definition.motion.motionPrints,
            }),
            updatedAt: now(),
          });
          for (const slot of definition.slots) {
            await repository.addImage(id, slot);
          }
          await repository.associate(id, orgId);
          await store(repository, id, 'foreground', pictures);
          await store(repository, id, 'sample', pictures);
          result.created.push(definition.name);
          continue;
        }
        let repaired = false;
        for (const kind of ['foreground', 'sample'] as const) {
          const key = kind === 'sample' ? row.sampleKey : row.foregroundKey;
          if (key && (await storage.head(key))) continue;
          // The key it had points at nothing, so there is no previous object to delete.
          await store(repository, row.id, kind, pictures);
          repaired = true;
        }
        if (repaired) result.repaired.push(definition.name);
      }
    });
  } catch (error) {
    await Promise.allSettled(stored.map((key) => storage.delete(key)));
    throw error;
  }

  const ms = Math.round(performance.now() - started);
  if (result.created.length > 0) {
    log.info({ templates: result.created, ms }, `demo templates created in ${ms} ms`);
  }
  if (result.repaired.length > 0) {
    log.warn(
      { templates: result.repaired },
      'demo template pictures were missing from the object store and have been made again',
    );
  }
  return result;
}
