import {
  LAYOUT_NAMES,
  LAYOUTS,
  STRIP_WIDTH,
  TEMPLATE_STUDIO_CORNER_RADIUS,
  foregroundSizeProblem,
  type LayoutName,
  type LayoutSlot,
  type TemplateFilterName,
  type TemplateLayout,
} from '@flashbooth/contracts/rules';

/**
 * Template Studio's pure rules (staff spec sections 2, 5 and 9): the layouts, where the photo
 * openings and QR codes go, the output sizes, the messages and the flow's states. The worker
 * (studio.worker.ts) draws what this decides; the screen shows it.
 */

export { LAYOUT_NAMES, LAYOUTS, type LayoutName };

/** Spec section 9: the constants of the two outputs. */
export const STUDIO = Object.freeze({
  cornerRadius: TEMPLATE_STUDIO_CORNER_RADIUS,
  qrSize: 230,
  sampleScale: 0.25,
  sampleQuality: 0.8,
  samplePhotoCount: 5,
  /** Message time on template pages (spec sections 4 and 9). */
  messageMs: 3000,
  acceptedTypes: ['image/jpeg', 'image/png'] as readonly string[],
});

export const STUDIO_MESSAGES = Object.freeze({
  unreadable: "Could not load the image file. Please ensure it's a valid JPG or PNG.",
  noPng: 'No PNG data to download. Please upload a file first.',
  noJpg: 'No JPG data to download. Please upload a file first.',
  downloadStarted: 'Download started!',
});

/**
 * The size check of a decoded design: null when it fits the layout's canvas exactly, else
 * "Image must be 3600×2400px. Yours is 1200×800px." (spec section 5). These are the foreground
 * rule's size and words (contracts), which every foreground upload is held to on the server too.
 */
export function designSizeError(
  layout: LayoutName,
  actual: { width: number; height: number },
): string | null {
  return foregroundSizeProblem(LAYOUTS[layout].orientation, actual);
}

/** Whether the chosen file claims to be a JPG or PNG (its type, else its name's extension). */
export function isAcceptedDesignFile(file: { type: string; name: string }): boolean {
  if (file.type) return STUDIO.acceptedTypes.includes(file.type.toLowerCase());
  return /\.(jpe?g|png)$/i.test(file.name);
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A photo opening cut into the design: the layout's slot with the spec's corner radius. */
export interface Opening extends Rect {
  radius: number;
}

/** The transparent openings of a layout, one per photo slot, in slot order. */
export function openings(layout: LayoutName): Opening[] {
  return LAYOUTS[layout].images.map(({ x, y, w, h }) => ({
    x,
    y,
    w,
    h,
    radius: Math.min(STUDIO.cornerRadius, w / 2, h / 2),
  }));
}

/** How many strips the print is cut into: portrait6's two side by side, otherwise one. */
export function stripCount(layout: LayoutName): number {
  return layout === 'portrait6' ? 2 : 1;
}

/**
 * Where the 230×230 QR codes go: one per strip, in the strip's bottom-right corner, right-aligned
 * with the strip's photos and centred in the free band below its lowest photo (landscape3's free
 * bottom-right cell, landscape1's branding band, portrait6's band below each strip's photos).
 */
export function qrPlacements(layout: LayoutName): Rect[] {
  const { canvas, images } = LAYOUTS[layout];
  const size = STUDIO.qrSize;
  const strips = stripCount(layout);
  const stripWidth = strips === 1 ? canvas.width : STRIP_WIDTH;
  return Array.from({ length: strips }, (_, strip) => {
    const left = strip * stripWidth;
    const inStrip = images.filter((slot) => slot.x >= left && slot.x + slot.w <= left + stripWidth);
    const right = Math.max(...inStrip.map((slot) => slot.x + slot.w));
    // The column under the QR code: the photos that share its horizontal span.
    const column = inStrip.filter((slot) => slot.x < right && slot.x + slot.w > right - size);
    const bottom = Math.max(...column.map((slot) => slot.y + slot.h));
    const margin = Math.min(...inStrip.map((slot) => slot.y));
    // Below the column's last photo: centred in the band, or in the corner if the band is tall.
    const band = canvas.height - bottom;
    const y =
      band >= size + 2 * margin ? canvas.height - margin - size : bottom + (band - size) / 2;
    return { x: right - size, y: Math.round(y), w: size, h: size };
  });
}

/** The overlay PNG is the canvas; the JPG sample is the canvas scaled by 0.25. */
export function outputSizes(layout: LayoutName) {
  const { canvas } = LAYOUTS[layout];
  return {
    png: { width: canvas.width, height: canvas.height },
    jpg: {
      width: Math.round(canvas.width * STUDIO.sampleScale),
      height: Math.round(canvas.height * STUDIO.sampleScale),
    },
  };
}

/**
 * The source rectangle of a photo drawn to fill `target` without distortion (CSS object-fit:
 * cover): the photo's centre, cut to the target's aspect ratio.
 */
export function coverCrop(photo: { width: number; height: number }, target: Rect): Rect {
  const targetRatio = target.w / target.h;
  const photoRatio = photo.width / photo.height;
  if (photoRatio > targetRatio) {
    const w = photo.height * targetRatio;
    return { x: (photo.width - w) / 2, y: 0, w, h: photo.height };
  }
  const h = photo.width / targetRatio;
  return { x: 0, y: (photo.height - h) / 2, w: photo.width, h };
}

/** Which of the five sample photos goes into slot `slotIndex` (cycling through them). */
export function samplePhotoFor(slotIndex: number): number {
  return slotIndex % STUDIO.samplePhotoCount;
}

/**
 * A QR code's modules laid into a square of `size` px: a whole number of pixels per module (so
 * the code stays crisp and scannable), a quiet zone of at least `quiet` modules, centred.
 */
export function qrModuleGrid(modules: number, size: number = STUDIO.qrSize, quiet = 2) {
  const cell = Math.max(1, Math.floor(size / (modules + 2 * quiet)));
  const offset = Math.floor((size - cell * modules) / 2);
  return { cell, offset };
}

/** The address the QR code carries: the field's text, else the site's public address. */
export function qrAddress(field: string, publicUrl: string | undefined, origin: string): string {
  const typed = field.trim();
  if (typed) return typed;
  return (publicUrl?.trim() || origin).replace(/\/+$/, '');
}

/** The layout's name on screen: "Landscape · 3 photos". */
export function layoutLabel(layout: LayoutName): string {
  const { orientation, images, canvas } = LAYOUTS[layout];
  const photos = `${images.length} photo${images.length === 1 ? '' : 's'}`;
  const side = orientation === 'landscape' ? 'Landscape' : 'Portrait strips';
  return `${side} · ${photos} (${canvas.width}×${canvas.height})`;
}

/** The file names the downloads are saved under. */
export function outputFileNames(layout: LayoutName) {
  return { png: `${layout}-overlay.png`, jpg: `${layout}-sample.jpg` };
}

// ---- the flow (spec section 4: idle, processing, error, success) ----

export interface StudioResult {
  layout: LayoutName;
  png: Blob;
  jpg: Blob;
  /** A small copy of the overlay for the screen (the full one is 3600×2400). */
  overlayPreview: Blob;
  /** How long the worker took, in ms. */
  ms: number;
}

export type StudioState =
  | { status: 'idle' }
  | { status: 'processing'; run: number; fileName: string }
  | { status: 'error'; message: string }
  | { status: 'success'; result: StudioResult; fileName: string };

export type StudioEvent =
  | { type: 'start'; run: number; fileName: string }
  | { type: 'done'; run: number; result: StudioResult }
  | { type: 'failed'; run: number; message: string }
  /** A newer message took the error's place (one error at a time): the error is dropped. */
  | { type: 'dismiss' }
  | { type: 'reset' };

export const STUDIO_IDLE: StudioState = Object.freeze({ status: 'idle' });

/**
 * The flow's transitions. A run's answer counts only while that run is the one in progress, so a
 * layout change (reset) or a newer upload makes an older worker answer harmless.
 */
export function studioReducer(state: StudioState, event: StudioEvent): StudioState {
  switch (event.type) {
    case 'start':
      return { status: 'processing', run: event.run, fileName: event.fileName };
    case 'done':
      return state.status === 'processing' && state.run === event.run
        ? { status: 'success', result: event.result, fileName: state.fileName }
        : state;
    case 'failed':
      return state.status === 'processing' && state.run === event.run
        ? { status: 'error', message: event.message }
        : state;
    case 'dismiss':
      return state.status === 'error' ? STUDIO_IDLE : state;
    case 'reset':
      return STUDIO_IDLE;
  }
}

/** What a download button does now: the blob to save, or the spec's message. */
export function downloadOf(
  state: StudioState,
  kind: 'png' | 'jpg',
): { blob: Blob; fileName: string } | { message: string } {
  if (state.status !== 'success') {
    return { message: kind === 'png' ? STUDIO_MESSAGES.noPng : STUDIO_MESSAGES.noJpg };
  }
  const names = outputFileNames(state.result.layout);
  return { blob: state.result[kind], fileName: names[kind] };
}

// ---- "Create template from this design" ----

export type CreateStep = 'template' | 'slots' | 'foreground' | 'sample';
export const CREATE_STEPS: readonly CreateStep[] = ['template', 'slots', 'foreground', 'sample'];
export const CREATE_STEP_LABELS: Record<CreateStep, string> = {
  template: 'Create the template',
  slots: 'Add the photo slots',
  foreground: 'Upload the PNG overlay as foreground',
  sample: 'Upload the JPG as sample',
};

/** "Studio landscape3 2025-05-14": a name the person may change before creating. */
export function defaultTemplateName(layout: LayoutName, fileName: string, now: Date): string {
  const base = fileName.replace(/\.[^.]+$/, '').trim();
  const day = now.toISOString().slice(0, 10);
  return (base ? `${base} (${layout})` : `Studio ${layout} ${day}`).slice(0, 100);
}

/** The template's slots: the layout's, each with filter "none". */
export function layoutSlots(layout: LayoutName): (LayoutSlot & { filter: TemplateFilterName })[] {
  // A layout's slots have no filter: "none", one of the filters the API takes.
  return LAYOUTS[layout].images.map((slot) => ({ ...slot, filter: 'none' }));
}

export function layoutOf(layout: LayoutName): TemplateLayout {
  return LAYOUTS[layout];
}

/** The failure's words: which step failed, and why. */
export function createFailureMessage(step: CreateStep, reason: string): string {
  const what: Record<CreateStep, string> = {
    template: 'Could not create the template',
    slots: 'The template was created, but adding its photo slots failed',
    foreground: 'The template was created, but uploading the PNG overlay as its foreground failed',
    sample: 'The template was created, but uploading the JPG as its sample failed',
  };
  return `${what[step]}: ${reason}`;
}
