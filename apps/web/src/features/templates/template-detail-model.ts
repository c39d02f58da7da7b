import type {
  Template,
  TemplateImage,
  TemplateImageCreate,
  TemplateImagePatch,
  TemplateOrientation,
  TemplatePatch,
  TemplatePreviewRequest,
} from '@flashbooth/contracts';
import {
  CAPTURE_KIND_LABELS,
  FOREGROUND_CONTENT_TYPE,
  FOREGROUND_MESSAGES,
  MOTION_RULES,
  TEMPLATE_FILTER_MESSAGE,
  TEMPLATE_FILTER_NAMES,
  TEMPLATE_IMAGE_CONTENT_TYPES,
  TEMPLATE_IMAGE_MAX_BYTES,
  TEMPLATE_MESSAGES,
  canvasSize,
  isTemplateFilterName,
  newTemplateSlot,
  slotCanvasProblem,
  slotFitsCanvas,
  wholePixelsMessage,
  type CanvasSize,
  type CaptureKind,
} from '@flashbooth/contracts/rules';
import type { TemplateImageKind } from '@/api/templates/upload-template-image';

/** Template pages show their messages 3 s (staff spec section 9). */
export const TEMPLATE_STATUS_MS = 3000;

export const TEMPLATE_DETAIL_TEXT = {
  loadFailed: 'Failed to load template details. Please try again.',
  updateFailed: 'Failed to update template.',
  deleteFailed: 'Failed to delete template.',
  tooLarge: 'The image must be at most 20 MB.',
  previewFailed: 'Could not make the print preview. Please try again.',
  fallbackTitle: 'Template',
  // is_cut and is_duplicated in the visitor screen's words ("2 strips", "Duplicate or Unique
  // Sides", "1 large print"; visitor spec sections 2 and 3).
  cutLabel: 'Cut into 2 strips',
  cutHint: '(off: 1 large print)',
  duplicatedLabel: 'Duplicate sides',
  duplicatedHint: '(both strips the same; off: unique sides)',
  deleteTitle: 'Confirm Deletion',
  deleteConfirm: (name: string) =>
    `Are you sure you want to delete template "${name}"? This action cannot be undone.`,
} as const;

/** The filters the select offers: exactly the ones a booth applies (print-composition's list). */
export const FILTER_OPTIONS: readonly string[] = TEMPLATE_FILTER_NAMES;

export type SlotField = 'x' | 'y' | 'w' | 'h';
export const SLOT_FIELDS: readonly SlotField[] = ['x', 'y', 'w', 'h'];

/** One image slot of the draft: `id` absent while new; `key` names it on screen either way. */
export interface DraftSlot {
  key: string;
  id?: number;
  x: number;
  y: number;
  w: number;
  h: number;
  filter: string;
}

export interface TemplateDraft {
  name: string;
  orientation: TemplateOrientation;
  is_cut: boolean;
  is_duplicated: boolean;
  images: DraftSlot[];
  /** What the booth captures, and the motion kinds' settings (NaN: a number field left empty). */
  capture_kind: CaptureKind;
  motion_frames: number;
  motion_seconds: number;
  motion_speed: number;
  motion_prints: boolean;
}

/** The capture kind's fields, in the template's own words. */
export const MOTION_FIELDS = [
  'capture_kind',
  'motion_frames',
  'motion_seconds',
  'motion_speed',
  'motion_prints',
] as const;

/** The speeds the select offers (a stored speed between them stays selectable). */
export const MOTION_SPEEDS: readonly number[] = [0.5, 0.75, 1, 1.25, 1.5, 2];

/** "0.5×", "1×", "1.25×". */
export function speedLabel(speed: number): string {
  return `${Number(speed.toFixed(2))}×`;
}

/**
 * The capture line of the template's facts: "Photo", or the motion kind with its settings
 * ("GIF · 4 frames · 1× · also prints", "Video · 5 s · 0.5× · no print").
 */
export function captureSummary(template: Pick<Template, (typeof MOTION_FIELDS)[number]>): string {
  const kind = template.capture_kind;
  if (kind === 'photo') return CAPTURE_KIND_LABELS.photo;
  const parts: string[] = [CAPTURE_KIND_LABELS[kind]];
  if (kind === 'gif') parts.push(`${template.motion_frames} frames`);
  if (kind === 'video') parts.push(`${Number(template.motion_seconds.toFixed(1))} s`);
  parts.push(speedLabel(template.motion_speed));
  parts.push(template.motion_prints ? 'also prints' : 'no print');
  return parts.join(' · ');
}

/**
 * What is wrong with the draft's motion settings (the server's messages); null when they may be
 * saved. Only the settings the chosen kind uses are checked: the others are kept as they are.
 */
export function motionProblem(draft: TemplateDraft): string | null {
  const kind = draft.capture_kind;
  if (kind === 'photo') return null;
  const { gifFrames, videoSeconds, speed } = MOTION_RULES;
  const frames = draft.motion_frames;
  if (
    kind === 'gif' &&
    !(Number.isInteger(frames) && frames >= gifFrames.min && frames <= gifFrames.max)
  ) {
    return TEMPLATE_MESSAGES.motionFrames;
  }
  const seconds = draft.motion_seconds;
  if (
    kind === 'video' &&
    !(Number.isFinite(seconds) && seconds >= videoSeconds.min && seconds <= videoSeconds.max)
  ) {
    return TEMPLATE_MESSAGES.motionSeconds;
  }
  const rate = draft.motion_speed;
  if (!(Number.isFinite(rate) && rate >= speed.min && rate <= speed.max)) {
    return TEMPLATE_MESSAGES.motionSpeed;
  }
  return null;
}

let newKeys = 0;
const newKey = () => `new-${++newKeys}`;

/** Edit copies the template into a draft (staff spec section 4). */
export function draftFromTemplate(template: Template): TemplateDraft {
  return {
    name: template.name,
    orientation: template.orientation,
    is_cut: template.is_cut,
    is_duplicated: template.is_duplicated,
    images: template.images.map((image) => ({ ...image, key: `slot-${image.id}` })),
    capture_kind: template.capture_kind,
    motion_frames: template.motion_frames,
    motion_seconds: template.motion_seconds,
    motion_speed: template.motion_speed,
    motion_prints: template.motion_prints,
  };
}

/** A new slot with the spec's defaults by count: 1080×720, "none", at the count's position. */
export function addSlot(draft: TemplateDraft): TemplateDraft {
  return {
    ...draft,
    images: [...draft.images, { key: newKey(), ...newTemplateSlot(draft.images.length) }],
  };
}

export function removeSlot(draft: TemplateDraft, key: string): TemplateDraft {
  return { ...draft, images: draft.images.filter((slot) => slot.key !== key) };
}

export function updateSlot(
  draft: TemplateDraft,
  key: string,
  change: Partial<Omit<DraftSlot, 'key' | 'id'>>,
): TemplateDraft {
  return {
    ...draft,
    images: draft.images.map((slot) => (slot.key === key ? { ...slot, ...change } : slot)),
  };
}

/** A number field's text as the draft keeps it: NaN when it is not a number (refused at save). */
export function parseSlotNumber(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

export interface SavePlan {
  create: TemplateImageCreate[];
  update: { id: number; patch: TemplateImagePatch }[];
  remove: number[];
  /** The template's own changed fields, or null when none changed. */
  template: TemplatePatch | null;
}

export type PlanResult = { ok: true; plan: SavePlan } | { ok: false; message: string };

/** Which fields of a slot differ (x, y, w, h, filter): the PATCH body, or null when unchanged. */
export function slotPatch(original: TemplateImage, slot: DraftSlot): TemplateImagePatch | null {
  const patch: TemplateImagePatch = {};
  for (const field of SLOT_FIELDS) if (slot[field] !== original[field]) patch[field] = slot[field];
  // planSave refuses a changed filter the API does not take before it gets here.
  if (slot.filter !== original.filter && isTemplateFilterName(slot.filter)) {
    patch.filter = slot.filter;
  }
  return Object.keys(patch).length > 0 ? patch : null;
}

/**
 * What is wrong with the draft's slot at `index` (numbers in whole pixels, then the canvas of
 * the draft's orientation, in the server's words); null when it may be saved. The edit panel
 * shows it under the slot as it is typed, and Save refuses the draft while any slot has one.
 */
export function slotProblem(
  slot: DraftSlot,
  index: number,
  orientation: TemplateOrientation,
): string | null {
  for (const field of SLOT_FIELDS) {
    const value = slot[field];
    if (!Number.isFinite(value)) return `Slot ${index + 1}: ${field} must be a number.`;
    if (!Number.isInteger(value)) return `Slot ${index + 1}: ${wholePixelsMessage(field)}`;
    if (value < 0) return `Slot ${index + 1}: ${field} must be 0 or more.`;
    if ((field === 'w' || field === 'h') && value <= 0) {
      return `Slot ${index + 1}: ${field} must be more than 0.`;
    }
  }
  return slotCanvasProblem(slot, index + 1, orientation);
}

/** The number fields a slot's problem is about: the bad one, or the pair past the canvas edge. */
export function slotProblemFields(slot: DraftSlot, orientation: TemplateOrientation): SlotField[] {
  const bad = SLOT_FIELDS.find(
    (field) =>
      !Number.isInteger(slot[field]) ||
      slot[field] < 0 ||
      (field !== 'x' && field !== 'y' && slot[field] <= 0),
  );
  if (bad) return [bad];
  const { width, height } = canvasSize(orientation);
  if (slot.x + slot.w > width) return ['x', 'w'];
  if (slot.y + slot.h > height) return ['y', 'h'];
  return [];
}

/**
 * What Save sends, in the spec's order: new slots to create, changed slots to update, removed
 * slots to delete, then the template's own changed fields. The name is trimmed and may not be
 * empty; slot numbers must be numbers and every slot must lie inside the canvas.
 */
export function planSave(template: Template, draft: TemplateDraft): PlanResult {
  const name = draft.name.trim();
  if (!name) return { ok: false, message: TEMPLATE_MESSAGES.nameEmpty };
  for (const [index, slot] of draft.images.entries()) {
    const problem = slotProblem(slot, index, draft.orientation);
    if (problem) return { ok: false, message: problem };
  }
  const motion = motionProblem(draft);
  if (motion) return { ok: false, message: motion };
  const originals = new Map(template.images.map((image) => [image.id, image]));
  const kept = new Set<number>();
  const plan: SavePlan = { create: [], update: [], remove: [], template: null };
  for (const [index, slot] of draft.images.entries()) {
    const original = slot.id === undefined ? undefined : originals.get(slot.id);
    const { x, y, w, h, filter } = slot;
    // A filter the booth does not know may stay on the slot that has it, but is never sent.
    const filterKnown = isTemplateFilterName(filter);
    if (!filterKnown && filter !== original?.filter) {
      return { ok: false, message: `Slot ${index + 1}: ${TEMPLATE_FILTER_MESSAGE}` };
    }
    if (!original) {
      if (filterKnown) plan.create.push({ x, y, w, h, filter });
      continue;
    }
    kept.add(original.id);
    const patch = slotPatch(original, slot);
    if (patch) plan.update.push({ id: original.id, patch });
  }
  plan.remove = template.images.filter((image) => !kept.has(image.id)).map((image) => image.id);
  const patch: TemplatePatch = {};
  if (name !== template.name) patch.name = name;
  if (draft.orientation !== template.orientation) patch.orientation = draft.orientation;
  if (draft.is_cut !== template.is_cut) patch.is_cut = draft.is_cut;
  if (draft.is_duplicated !== template.is_duplicated) patch.is_duplicated = draft.is_duplicated;
  if (draft.capture_kind !== template.capture_kind) patch.capture_kind = draft.capture_kind;
  // The settings the chosen kind does not use are not sent: they stay as stored.
  const kind = draft.capture_kind;
  if (kind === 'gif' && draft.motion_frames !== template.motion_frames) {
    patch.motion_frames = draft.motion_frames;
  }
  if (kind === 'video' && draft.motion_seconds !== template.motion_seconds) {
    patch.motion_seconds = draft.motion_seconds;
  }
  if (kind !== 'photo') {
    if (draft.motion_speed !== template.motion_speed) patch.motion_speed = draft.motion_speed;
    if (draft.motion_prints !== template.motion_prints) patch.motion_prints = draft.motion_prints;
  }
  if (Object.keys(patch).length > 0) plan.template = patch;
  return { ok: true, plan };
}

/** One call of Save, run one at a time in the order `saveSteps` gives. */
export type SaveStep =
  | { kind: 'create'; body: TemplateImageCreate }
  | { kind: 'update'; id: number; patch: TemplateImagePatch }
  | { kind: 'delete'; id: number }
  | { kind: 'template'; patch: TemplatePatch };

/** The largest box that lies inside both canvases (landscape 3600×2400, portrait 2400×3600). */
function insideBothCanvases<T extends Box>(slot: T): T {
  const side = Math.min(canvasSize('landscape').height, canvasSize('portrait').width);
  const w = Math.min(slot.w, side);
  const h = Math.min(slot.h, side);
  return { ...slot, w, h, x: Math.min(slot.x, side - w), y: Math.min(slot.y, side - h) };
}

/**
 * The calls of Save. Without a change of orientation, the spec's order (staff spec section 4):
 * create new slots, update changed ones, delete removed ones, then the template's own fields.
 *
 * A new orientation is a new canvas, and the server keeps every slot inside the canvas at every
 * call (a slot's change is checked against the template's stored orientation, a new orientation
 * against the stored slots). So then: removed slots go first; a changed slot whose stored place
 * is off the new canvas is moved before the orientation changes, to its new place if that fits
 * the old canvas too, else to a place inside both (and to its new place after); then the
 * template's fields; then the other changes and the new slots, which need the new canvas.
 */
export function saveSteps(template: Template, plan: SavePlan): SaveStep[] {
  const creates = plan.create.map((body): SaveStep => ({ kind: 'create', body }));
  const updates = plan.update.map(({ id, patch }): SaveStep => ({ kind: 'update', id, patch }));
  const deletes = plan.remove.map((id): SaveStep => ({ kind: 'delete', id }));
  const fields: SaveStep[] = plan.template ? [{ kind: 'template', patch: plan.template }] : [];
  const next = plan.template?.orientation;
  if (!next || next === template.orientation)
    return [...creates, ...updates, ...deletes, ...fields];

  const originals = new Map(template.images.map((image) => [image.id, image]));
  const before: SaveStep[] = [];
  const after: SaveStep[] = [];
  for (const { id, patch } of plan.update) {
    const original = originals.get(id);
    if (!original || slotFitsCanvas(original, next)) {
      after.push({ kind: 'update', id, patch });
      continue;
    }
    const final = { ...original, ...patch };
    if (slotFitsCanvas(final, template.orientation)) {
      before.push({ kind: 'update', id, patch });
      continue;
    }
    const interim = insideBothCanvases(final);
    const toInterim = slotPatch(original, { ...interim, key: '' });
    const toFinal = slotPatch(interim, { ...final, key: '' });
    if (toInterim) before.push({ kind: 'update', id, patch: toInterim });
    if (toFinal) after.push({ kind: 'update', id, patch: toFinal });
  }
  return [...deletes, ...before, ...fields, ...after, ...creates];
}

export function planIsEmpty(plan: SavePlan): boolean {
  return (
    plan.create.length === 0 &&
    plan.update.length === 0 &&
    plan.remove.length === 0 &&
    plan.template === null
  );
}

/** The print preview's body: the draft as it stands (the stored foreground is the server's). */
export function previewRequest(draft: TemplateDraft): TemplatePreviewRequest {
  return {
    orientation: draft.orientation,
    is_cut: draft.is_cut,
    is_duplicated: draft.is_duplicated,
    images: draft.images.map(({ x, y, w, h, filter }) => ({ x, y, w, h, filter })),
  };
}

/**
 * The upload's check (staff spec section 5): a JPEG or PNG sample, a PNG foreground, at most
 * 20 MB; null when fine.
 */
export function uploadProblem(
  kind: TemplateImageKind,
  file: { type: string; size: number },
): string | null {
  const type = file.type.toLowerCase();
  if (!(TEMPLATE_IMAGE_CONTENT_TYPES as readonly string[]).includes(type)) {
    return kind === 'sample' ? TEMPLATE_MESSAGES.sampleType : TEMPLATE_MESSAGES.foregroundType;
  }
  // The foreground rule: a PNG (its size and openings are checked by the server on confirm).
  if (kind === 'foreground' && type !== FOREGROUND_CONTENT_TYPE) return FOREGROUND_MESSAGES.png;
  if (file.size > TEMPLATE_IMAGE_MAX_BYTES) return TEMPLATE_DETAIL_TEXT.tooLarge;
  return null;
}

// ---- the visual slot editor's geometry (canvas pixels unless named otherwise) ----

/** Slots are 3:2 (staff spec section 3): w = 1.5 h. */
export const SLOT_RATIO = 3 / 2;
/** The smallest slot the editor's resize allows. */
export const MIN_SLOT_WIDTH = 150;
/** Arrow keys move a slot this far; with Shift ten times as far. */
export const NUDGE_STEP = 10;
export const NUDGE_STEP_LARGE = 100;

export function canvasOf(orientation: TemplateOrientation): CanvasSize {
  return canvasSize(orientation);
}

/** Screen pixels per canvas pixel for an editor `displayWidth` wide. */
export function editorScale(displayWidth: number, canvas: CanvasSize): number {
  return displayWidth > 0 ? displayWidth / canvas.width : 0;
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** Keeps the slot's position on the canvas (a slot larger than the canvas sits at 0). */
export function clampToCanvas<T extends Box>(slot: T, canvas: CanvasSize): T {
  return {
    ...slot,
    x: Math.round(clamp(slot.x, 0, Math.max(0, canvas.width - slot.w))),
    y: Math.round(clamp(slot.y, 0, Math.max(0, canvas.height - slot.h))),
  };
}

/** The slot moved by (dx, dy) canvas pixels, kept on the canvas. */
export function moveSlot<T extends Box>(slot: T, dx: number, dy: number, canvas: CanvasSize): T {
  return clampToCanvas({ ...slot, x: slot.x + dx, y: slot.y + dy }, canvas);
}

/**
 * The slot resized from its bottom-right corner by a pointer that moved (dx, dy) canvas pixels
 * since the resize began on `start`: the top-left corner stays, the size stays 3:2, follows the
 * pointer's larger pull, and neither shrinks below MIN_SLOT_WIDTH nor leaves the canvas.
 */
export function resizeSlot<T extends Box>(start: T, dx: number, dy: number, canvas: CanvasSize): T {
  const wanted = Math.max(start.w + dx, (start.h + dy) * SLOT_RATIO);
  const room = Math.min(canvas.width - start.x, (canvas.height - start.y) * SLOT_RATIO);
  // A slot typed in off the canvas has no room to grow into: the numbers fields fix that.
  if (room < 1) return start;
  const w = Math.round(clamp(wanted, Math.min(MIN_SLOT_WIDTH, room), Math.max(room, 0)));
  return { ...start, w, h: Math.round(w / SLOT_RATIO) };
}

export type NudgeKey = 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight' | '+' | '=' | '-';

/**
 * A key on a focused slot: arrows move it (Shift: farther), + and - grow and shrink it at 3:2.
 * Null for keys the editor leaves alone.
 */
export function nudgeSlot<T extends Box>(
  slot: T,
  key: string,
  large: boolean,
  canvas: CanvasSize,
): T | null {
  const step = large ? NUDGE_STEP_LARGE : NUDGE_STEP;
  switch (key) {
    case 'ArrowUp':
      return moveSlot(slot, 0, -step, canvas);
    case 'ArrowDown':
      return moveSlot(slot, 0, step, canvas);
    case 'ArrowLeft':
      return moveSlot(slot, -step, 0, canvas);
    case 'ArrowRight':
      return moveSlot(slot, step, 0, canvas);
    case '+':
    case '=':
      return resizeSlot(slot, step * 3, 0, canvas);
    case '-':
      return resizeSlot(
        { ...slot, h: Math.round(slot.w / SLOT_RATIO) },
        -step * 3,
        -step * 2,
        canvas,
      );
    default:
      return null;
  }
}

/** A slot's box as percentages of the canvas, for drawing it over the foreground at any scale. */
export function slotPercentBox(slot: Box, canvas: CanvasSize) {
  return {
    left: `${(slot.x / canvas.width) * 100}%`,
    top: `${(slot.y / canvas.height) * 100}%`,
    width: `${(slot.w / canvas.width) * 100}%`,
    height: `${(slot.h / canvas.height) * 100}%`,
  };
}

export function templateTitle(template: Template | undefined): string {
  return template?.name || TEMPLATE_DETAIL_TEXT.fallbackTitle;
}
