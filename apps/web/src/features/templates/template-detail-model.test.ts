import type { Template } from '@flashbooth/contracts';
import {
  TEMPLATE_FILTER_NAMES,
  TEMPLATE_MESSAGES,
  slotFitsCanvas,
  type TemplateOrientation,
} from '@flashbooth/contracts/rules';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FILTER_OPTIONS,
  MIN_SLOT_WIDTH,
  SLOT_RATIO,
  addSlot,
  canvasOf,
  captureSummary,
  clampToCanvas,
  draftFromTemplate,
  editorScale,
  moveSlot,
  nudgeSlot,
  parseSlotNumber,
  planIsEmpty,
  planSave,
  previewRequest,
  removeSlot,
  resizeSlot,
  saveSteps,
  slotPercentBox,
  slotProblem,
  slotProblemFields,
  type SaveStep,
  updateSlot,
  uploadProblem,
} from './template-detail-model';

const template = (overrides: Partial<Template> = {}): Template => ({
  id: 7,
  name: 'Strip',
  orientation: 'portrait',
  is_cut: false,
  is_duplicated: false,
  sample_s3_url: null,
  foreground_s3_url: null,
  capture_kind: 'photo',
  motion_frames: 4,
  motion_seconds: 5,
  motion_speed: 1,
  motion_prints: true,
  images: [
    { id: 11, x: 61, y: 555, w: 1080, h: 720, filter: 'none' },
    { id: 12, x: 61, y: 1440, w: 1080, h: 720, filter: 'sepia' },
  ],
  ...overrides,
});

const LANDSCAPE = canvasOf('landscape');
const PORTRAIT = canvasOf('portrait');

describe('the draft', () => {
  it('copies the template and gives every slot a key', () => {
    const draft = draftFromTemplate(template());
    expect(draft).toMatchObject({ name: 'Strip', orientation: 'portrait', is_cut: false });
    expect(draft.images.map((slot) => [slot.key, slot.id])).toEqual([
      ['slot-11', 11],
      ['slot-12', 12],
    ]);
  });

  it('adds new slots with the defaults by count (x 61; y 555, 1440, 2325; then 0,0)', () => {
    let draft = draftFromTemplate(template({ images: [] }));
    for (let i = 0; i < 5; i++) draft = addSlot(draft);
    expect(draft.images.map(({ x, y, w, h, filter, id }) => ({ x, y, w, h, filter, id }))).toEqual([
      { x: 61, y: 555, w: 1080, h: 720, filter: 'none', id: undefined },
      { x: 61, y: 1440, w: 1080, h: 720, filter: 'none', id: undefined },
      { x: 61, y: 2325, w: 1080, h: 720, filter: 'none', id: undefined },
      { x: 0, y: 0, w: 1080, h: 720, filter: 'none', id: undefined },
      { x: 0, y: 0, w: 1080, h: 720, filter: 'none', id: undefined },
    ]);
    expect(new Set(draft.images.map((slot) => slot.key)).size).toBe(5);
  });

  it('places a new slot by the count of slots already in the draft', () => {
    const draft = addSlot(draftFromTemplate(template()));
    expect(draft.images[2]).toMatchObject({ x: 61, y: 2325 });
    expect(draft.images[2]?.id).toBeUndefined();
  });

  it('reads number fields as numbers, empty or junk as not a number', () => {
    expect(parseSlotNumber('12.5')).toBe(12.5);
    expect(parseSlotNumber(' ')).toBeNaN();
    expect(parseSlotNumber('abc')).toBeNaN();
  });
});

describe('planSave (the spec save order)', () => {
  it('finds nothing to do in an untouched draft', () => {
    const result = planSave(template(), draftFromTemplate(template()));
    expect(result).toEqual({
      ok: true,
      plan: { create: [], update: [], remove: [], template: null },
    });
    if (result.ok) expect(planIsEmpty(result.plan)).toBe(true);
  });

  it('creates new slots, updates only changed fields, deletes removed ones', () => {
    const original = template({
      images: [...template().images, { id: 13, x: 0, y: 0, w: 300, h: 200, filter: 'none' }],
    });
    let draft = draftFromTemplate(original);
    draft = updateSlot(draft, 'slot-11', { x: 70, filter: 'warm' });
    draft = updateSlot(draft, 'slot-12', { y: 1440 }); // same value: not a change
    draft = removeSlot(draft, 'slot-13');
    draft = addSlot(draft);
    const result = planSave(original, draft);
    expect(result).toEqual({
      ok: true,
      plan: {
        create: [{ x: 61, y: 2325, w: 1080, h: 720, filter: 'none' }],
        update: [{ id: 11, patch: { x: 70, filter: 'warm' } }],
        remove: [13],
        template: null,
      },
    });
  });

  it('sends only the template fields that changed, the name trimmed', () => {
    const draft = { ...draftFromTemplate(template()), name: '  Strip  ', is_cut: true };
    expect(planSave(template(), draft)).toMatchObject({
      ok: true,
      plan: { template: { is_cut: true } },
    });
    const all = {
      ...draftFromTemplate(template()),
      name: ' New ',
      orientation: 'landscape' as const,
      is_cut: true,
      is_duplicated: true,
    };
    expect(planSave(template(), all)).toMatchObject({
      ok: true,
      plan: {
        template: { name: 'New', orientation: 'landscape', is_cut: true, is_duplicated: true },
      },
    });
  });

  it('refuses an empty name and slots that are not numbers', () => {
    expect(planSave(template(), { ...draftFromTemplate(template()), name: '   ' })).toEqual({
      ok: false,
      message: TEMPLATE_MESSAGES.nameEmpty,
    });
    const notNumber = updateSlot(draftFromTemplate(template()), 'slot-12', { w: Number.NaN });
    expect(planSave(template(), notNumber)).toEqual({
      ok: false,
      message: 'Slot 2: w must be a number.',
    });
    const negative = updateSlot(draftFromTemplate(template()), 'slot-11', { y: -1 });
    expect(planSave(template(), negative)).toMatchObject({ ok: false });
    const zero = updateSlot(draftFromTemplate(template()), 'slot-11', { h: 0 });
    expect(planSave(template(), zero)).toEqual({
      ok: false,
      message: 'Slot 1: h must be more than 0.',
    });
  });

  it('refuses what the API refuses: fractions of a pixel and filters it does not take (issue 38)', () => {
    const half = updateSlot(draftFromTemplate(template()), 'slot-11', { x: 1.5 });
    expect(planSave(template(), half)).toEqual({
      ok: false,
      message: 'Slot 1: x must be a whole number of pixels.',
    });
    expect(slotProblem(half.images[0]!, 0, 'portrait')).toBe(
      'Slot 1: x must be a whole number of pixels.',
    );
    expect(slotProblemFields(half.images[0]!, 'portrait')).toEqual(['x']);
    const filterMessage =
      'Filter must be one of: none, grayscale, sepia, warm, cool, vintage, high-contrast.';
    // A new slot, or a stored one changed to a filter the API does not take: refused.
    const bogusNew = addSlot(draftFromTemplate(template()));
    bogusNew.images[2]!.filter = 'bogus';
    expect(planSave(template(), bogusNew)).toEqual({
      ok: false,
      message: `Slot 3: ${filterMessage}`,
    });
    const bogusChanged = updateSlot(draftFromTemplate(template()), 'slot-12', { filter: 'bw' });
    expect(planSave(template(), bogusChanged)).toEqual({
      ok: false,
      message: `Slot 2: ${filterMessage}`,
    });
    // A filter stored before the rule stays on its slot, unsent, while the rest is saved.
    const legacy = template({
      images: [{ id: 11, x: 61, y: 555, w: 1080, h: 720, filter: 'bw' }],
    });
    const moved = updateSlot(draftFromTemplate(legacy), 'slot-11', { x: 100 });
    expect(planSave(legacy, moved)).toMatchObject({
      ok: true,
      plan: { update: [{ id: 11, patch: { x: 100 } }] },
    });
  });

  it('refuses a slot that runs off the canvas of the draft orientation, naming the limit', () => {
    const wide = updateSlot(draftFromTemplate(template()), 'slot-12', { w: 99999 });
    const message =
      'Slot 2 runs off the 2400×3600 portrait canvas: x + w is 100060 and may be at most 2400. Move it left or make it narrower.';
    expect(planSave(template(), wide)).toEqual({ ok: false, message });
    expect(slotProblem(wide.images[1]!, 1, 'portrait')).toBe(message);
    const low = updateSlot(draftFromTemplate(template()), 'slot-11', { y: 3000 });
    expect(planSave(template(), low)).toEqual({
      ok: false,
      message:
        'Slot 1 runs off the 2400×3600 portrait canvas: y + h is 3720 and may be at most 3600. Move it up or make it shorter.',
    });
    // Exactly on the edge is inside; the same slot is off a landscape canvas (2400 high).
    const edge = updateSlot(draftFromTemplate(template()), 'slot-11', { x: 1320, y: 2880 });
    expect(planSave(template(), edge)).toMatchObject({ ok: true });
    expect(planSave(template(), { ...edge, orientation: 'landscape' })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Slot 1 runs off the 3600×2400 landscape canvas: y \+ h/),
    });
  });

  it('marks only the fields a slot problem is about', () => {
    const slot = { key: 's', x: 120, y: 80, w: 1620, h: 1080, filter: 'none' };
    expect(slotProblemFields(slot, 'landscape')).toEqual([]);
    expect(slotProblemFields({ ...slot, w: 99999 }, 'landscape')).toEqual(['x', 'w']);
    expect(slotProblemFields({ ...slot, y: 2000 }, 'landscape')).toEqual(['y', 'h']);
    expect(slotProblemFields({ ...slot, h: 0 }, 'landscape')).toEqual(['h']);
    expect(slotProblemFields({ ...slot, x: Number.NaN }, 'landscape')).toEqual(['x']);
  });

  it('treats a slot whose id the template no longer has as new', () => {
    const draft = draftFromTemplate(template());
    const stale = template({ images: [template().images[1]!] });
    const result = planSave(stale, draft);
    expect(result).toMatchObject({ ok: true, plan: { create: [{ x: 61, y: 555 }], remove: [] } });
  });

  it('property: applying the plan to the template gives the draft', () => {
    // Slots on the portrait canvas (2400×3600), as a draft must have them to be saved.
    const slotArb = fc
      .record({
        x: fc.integer({ min: 0, max: 3000 }),
        y: fc.integer({ min: 0, max: 3000 }),
        w: fc.integer({ min: 1, max: 2400 }),
        h: fc.integer({ min: 1, max: 3000 }),
        filter: fc.constantFrom(...TEMPLATE_FILTER_NAMES),
      })
      .map((slot) => ({ ...slot, x: slot.x % (2401 - slot.w), y: slot.y % (3601 - slot.h) }));
    fc.assert(
      fc.property(
        fc.array(slotArb, { maxLength: 6 }),
        fc.array(fc.oneof(fc.constant('keep'), fc.constant('drop'), slotArb), { maxLength: 6 }),
        fc.array(slotArb, { maxLength: 3 }),
        (stored, edits, added) => {
          const original = template({ images: stored.map((slot, i) => ({ ...slot, id: i + 1 })) });
          let draft = draftFromTemplate(original);
          original.images.forEach((image, i) => {
            const edit = edits[i] ?? 'keep';
            if (edit === 'drop') draft = removeSlot(draft, `slot-${image.id}`);
            else if (edit !== 'keep') draft = updateSlot(draft, `slot-${image.id}`, edit);
          });
          for (const slot of added) {
            draft = addSlot(draft);
            draft = updateSlot(draft, draft.images.at(-1)!.key, slot);
          }
          const result = planSave(original, draft);
          if (!result.ok) throw new Error(result.message);
          const { plan } = result;
          // Apply in the save order, as the server would.
          let images = original.images.map((image) => ({ ...image }));
          let nextId = 1000;
          for (const body of plan.create)
            images.push({ ...body, id: nextId++, filter: body.filter ?? 'none' });
          for (const { id, patch } of plan.update) {
            images = images.map((image) => (image.id === id ? { ...image, ...patch } : image));
          }
          images = images.filter((image) => !plan.remove.includes(image.id));
          const shape = (list: { x: number; y: number; w: number; h: number; filter: string }[]) =>
            list.map(({ x, y, w, h, filter }) => ({ x, y, w, h, filter }));
          const kept = images.filter((image) => image.id < 1000);
          const made = images.filter((image) => image.id >= 1000);
          expect(shape([...kept, ...made])).toEqual(
            shape([
              ...draft.images.filter((slot) => slot.id !== undefined),
              ...draft.images.filter((slot) => slot.id === undefined),
            ]),
          );
          expect(plan.update.every(({ patch }) => Object.keys(patch).length > 0)).toBe(true);
        },
      ),
    );
  });

  it('keeps the spec order when the orientation stays', () => {
    const draft = addSlot(updateSlot(draftFromTemplate(template()), 'slot-11', { x: 70 }));
    const result = planSave(template(), removeSlot({ ...draft, name: 'New' }, 'slot-12'));
    if (!result.ok) throw new Error(result.message);
    expect(saveSteps(template(), result.plan).map((step) => step.kind)).toEqual([
      'create',
      'update',
      'delete',
      'template',
    ]);
  });

  it('property: with a new orientation every call fits the canvas of its moment', () => {
    const onCanvas = (orientation: TemplateOrientation) => {
      const { width, height } = canvasOf(orientation);
      return fc
        .record({
          x: fc.nat(),
          y: fc.nat(),
          w: fc.integer({ min: 1, max: width }),
          h: fc.integer({ min: 1, max: height }),
        })
        .map((slot) => ({
          ...slot,
          x: slot.x % (width - slot.w + 1),
          y: slot.y % (height - slot.h + 1),
          filter: 'none',
        }));
    };
    const scenario = fc.constantFrom<TemplateOrientation>('landscape', 'portrait').chain((from) => {
      const to: TemplateOrientation = from === 'landscape' ? 'portrait' : 'landscape';
      return fc.record({
        from: fc.constant(from),
        to: fc.constant(to),
        stored: fc.array(onCanvas(from), { maxLength: 4 }),
        moved: fc.array(fc.option(onCanvas(to)), { maxLength: 4 }),
        added: fc.array(onCanvas(to), { maxLength: 2 }),
      });
    });
    fc.assert(
      fc.property(scenario, ({ from, to, stored, moved, added }) => {
        const original = template({
          orientation: from,
          images: stored.map((slot, i) => ({ ...slot, id: i + 1 })),
        });
        let draft: ReturnType<typeof draftFromTemplate> = {
          ...draftFromTemplate(original),
          orientation: to,
        };
        // A stored slot either moves onto the new canvas or, if it does not fit it, is removed.
        original.images.forEach((image, i) => {
          const move = moved[i];
          if (move) draft = updateSlot(draft, `slot-${image.id}`, move);
          else if (!slotFitsCanvas(image, to)) draft = removeSlot(draft, `slot-${image.id}`);
        });
        for (const slot of added) {
          draft = addSlot(draft);
          draft = updateSlot(draft, draft.images.at(-1)!.key, slot);
        }
        const result = planSave(original, draft);
        if (!result.ok) throw new Error(result.message);
        // A server as strict as ours: every call leaves every slot on the current canvas.
        let orientation = original.orientation;
        let images = original.images.map((image) => ({ ...image }));
        let nextId = 1000;
        const apply = (step: SaveStep) => {
          if (step.kind === 'create') images.push({ ...step.body, id: nextId++ });
          else if (step.kind === 'update') {
            images = images.map((image) =>
              image.id === step.id ? { ...image, ...step.patch } : image,
            );
          } else if (step.kind === 'delete') {
            images = images.filter((image) => image.id !== step.id);
          } else orientation = step.patch.orientation ?? orientation;
          for (const image of images) {
            expect(slotFitsCanvas(image, orientation), JSON.stringify({ step, image })).toBe(true);
          }
        };
        saveSteps(original, result.plan).forEach(apply);
        expect(orientation).toBe(to);
        const shape = (list: { x: number; y: number; w: number; h: number }[]) =>
          list.map(({ x, y, w, h }) => ({ x, y, w, h }));
        expect(shape(images)).toEqual(
          shape([
            ...draft.images.filter((slot) => slot.id !== undefined),
            ...draft.images.filter((slot) => slot.id === undefined),
          ]),
        );
      }),
    );
  });

  it('makes the preview body from the draft without ids or keys', () => {
    const draft = addSlot({ ...draftFromTemplate(template()), is_duplicated: true });
    expect(previewRequest(draft)).toEqual({
      orientation: 'portrait',
      is_cut: false,
      is_duplicated: true,
      images: [
        { x: 61, y: 555, w: 1080, h: 720, filter: 'none' },
        { x: 61, y: 1440, w: 1080, h: 720, filter: 'sepia' },
        { x: 61, y: 2325, w: 1080, h: 720, filter: 'none' },
      ],
    });
  });
});

describe('uploads', () => {
  it('accepts JPEG and PNG up to 20 MB with the spec messages otherwise', () => {
    expect(uploadProblem('sample', { type: 'image/jpeg', size: 1000 })).toBeNull();
    expect(uploadProblem('foreground', { type: 'image/png', size: 20 * 1024 * 1024 })).toBeNull();
    expect(uploadProblem('sample', { type: 'text/plain', size: 10 })).toBe(
      TEMPLATE_MESSAGES.sampleType,
    );
    expect(uploadProblem('foreground', { type: '', size: 10 })).toBe(
      TEMPLATE_MESSAGES.foregroundType,
    );
    expect(uploadProblem('sample', { type: 'image/png', size: 20 * 1024 * 1024 + 1 })).toMatch(
      /20 MB/,
    );
  });

  it('takes only a PNG as the foreground, in the server’s words (issue 38)', () => {
    expect(uploadProblem('foreground', { type: 'image/jpeg', size: 1000 })).toBe(
      'The foreground must be a PNG, transparent where the photos go.',
    );
    expect(uploadProblem('foreground', { type: 'IMAGE/PNG', size: 1000 })).toBeNull();
  });
});

describe('filters', () => {
  it('offers exactly the filters the booth applies', () => {
    expect(FILTER_OPTIONS).toEqual(TEMPLATE_FILTER_NAMES);
    expect(FILTER_OPTIONS).toContain('none');
  });
});

describe('slot editor geometry', () => {
  const slot = { x: 61, y: 555, w: 1080, h: 720, filter: 'none' };

  it('scales the canvas to the editor width', () => {
    expect(editorScale(360, LANDSCAPE)).toBe(0.1);
    expect(editorScale(0, LANDSCAPE)).toBe(0);
    expect(slotPercentBox({ x: 360, y: 240, w: 1800, h: 1200 }, LANDSCAPE)).toEqual({
      left: '10%',
      top: '10%',
      width: '50%',
      height: '50%',
    });
  });

  it('moves and keeps slots on the canvas', () => {
    expect(moveSlot(slot, 100, -50, PORTRAIT)).toMatchObject({ x: 161, y: 505, w: 1080 });
    expect(moveSlot(slot, -500, -5000, PORTRAIT)).toMatchObject({ x: 0, y: 0 });
    expect(moveSlot(slot, 9000, 9000, PORTRAIT)).toMatchObject({ x: 2400 - 1080, y: 3600 - 720 });
    expect(clampToCanvas({ ...slot, w: 5000 }, PORTRAIT)).toMatchObject({ x: 0 });
    expect(moveSlot(slot, 0.4, 0.6, PORTRAIT)).toMatchObject({ x: 61, y: 556 });
  });

  it('resizes from the corner at 3:2, within the canvas and above the minimum', () => {
    expect(resizeSlot(slot, 300, 0, PORTRAIT)).toMatchObject({ x: 61, y: 555, w: 1380, h: 920 });
    expect(resizeSlot(slot, 0, 200, PORTRAIT)).toMatchObject({ w: 1380, h: 920 });
    expect(resizeSlot(slot, -5000, -5000, PORTRAIT)).toMatchObject({
      w: MIN_SLOT_WIDTH,
      h: MIN_SLOT_WIDTH / SLOT_RATIO,
    });
    expect(resizeSlot(slot, 5000, 0, PORTRAIT)).toMatchObject({ w: 2400 - 61 });
    const low = { ...slot, y: 3300 };
    expect(resizeSlot(low, 2000, 0, PORTRAIT)).toMatchObject({ w: 450, h: 300 });
    const off = { ...slot, x: 5000 };
    expect(resizeSlot(off, 100, 0, PORTRAIT)).toEqual(off);
  });

  it('property: a resized slot is 3:2 and stays on the canvas', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2300 }),
        fc.integer({ min: 0, max: 3500 }),
        fc.integer({ min: -5000, max: 5000 }),
        fc.integer({ min: -5000, max: 5000 }),
        (x, y, dx, dy) => {
          const resized = resizeSlot({ x, y, w: 90, h: 60 }, dx, dy, PORTRAIT);
          expect(Math.abs(resized.w / SLOT_RATIO - resized.h)).toBeLessThanOrEqual(0.5);
          expect(resized.w).toBeGreaterThanOrEqual(1);
          expect(resized.x + resized.w).toBeLessThanOrEqual(2400);
          expect(resized.y + resized.h).toBeLessThanOrEqual(3600 + 0.5);
        },
      ),
    );
  });

  it('nudges with the arrow keys and resizes with + and -', () => {
    expect(nudgeSlot(slot, 'ArrowRight', false, PORTRAIT)).toMatchObject({ x: 71, y: 555 });
    expect(nudgeSlot(slot, 'ArrowUp', true, PORTRAIT)).toMatchObject({ x: 61, y: 455 });
    expect(nudgeSlot(slot, 'ArrowLeft', true, PORTRAIT)).toMatchObject({ x: 0 });
    expect(nudgeSlot(slot, 'ArrowDown', false, PORTRAIT)).toMatchObject({ y: 565 });
    expect(nudgeSlot(slot, '+', false, PORTRAIT)).toMatchObject({ w: 1110, h: 740 });
    expect(nudgeSlot(slot, '-', false, PORTRAIT)).toMatchObject({ w: 1050, h: 700 });
    expect(nudgeSlot(slot, 'Enter', false, PORTRAIT)).toBeNull();
  });
});

describe('capture kind', () => {
  it('sends the kind and the settings it uses, and keeps the others as stored', () => {
    const draft = {
      ...draftFromTemplate(template()),
      capture_kind: 'boomerang' as const,
      motion_speed: 0.5,
      motion_prints: false,
      // A gif's frames mean nothing to a boomerang: not sent.
      motion_frames: 6,
    };
    expect(planSave(template(), draft)).toEqual({
      ok: true,
      plan: {
        create: [],
        update: [],
        remove: [],
        template: { capture_kind: 'boomerang', motion_speed: 0.5, motion_prints: false },
      },
    });
    const gif = {
      ...draftFromTemplate(template()),
      capture_kind: 'gif' as const,
      motion_frames: 3,
    };
    expect(planSave(template(), gif)).toMatchObject({
      ok: true,
      plan: { template: { capture_kind: 'gif', motion_frames: 3 } },
    });
  });

  it('refuses settings out of range with the server’s words', () => {
    const base = draftFromTemplate(template());
    const cases: [Partial<typeof base>, string][] = [
      [{ capture_kind: 'gif', motion_frames: 7 }, TEMPLATE_MESSAGES.motionFrames],
      [{ capture_kind: 'gif', motion_frames: 2.5 }, TEMPLATE_MESSAGES.motionFrames],
      [{ capture_kind: 'video', motion_seconds: 2 }, TEMPLATE_MESSAGES.motionSeconds],
      [{ capture_kind: 'video', motion_seconds: Number.NaN }, TEMPLATE_MESSAGES.motionSeconds],
      [{ capture_kind: 'boomerang', motion_speed: 3 }, TEMPLATE_MESSAGES.motionSpeed],
    ];
    for (const [change, message] of cases) {
      expect(planSave(template(), { ...base, ...change })).toEqual({ ok: false, message });
    }
    // A photo ignores the motion settings.
    expect(planSave(template(), { ...base, motion_frames: 9 }).ok).toBe(true);
  });

  it('sums the capture up for the facts', () => {
    expect(captureSummary(template())).toBe('Photo');
    expect(captureSummary(template({ capture_kind: 'gif', motion_frames: 4 }))).toBe(
      'GIF · 4 frames · 1× · also prints',
    );
    expect(
      captureSummary(
        template({
          capture_kind: 'video',
          motion_seconds: 7.5,
          motion_speed: 0.5,
          motion_prints: false,
        }),
      ),
    ).toBe('Video · 7.5 s · 0.5× · no print');
  });
});
