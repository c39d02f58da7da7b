/**
 * One rule for every foreground (issue 38, item 1): the Template Studio's design, the console's
 * Upload Foreground and the API's confirmation all hold a foreground to it, in the same words.
 * A foreground is a PNG of exactly the canvas size of the template's orientation (the booth
 * stretches any other size over the whole print), transparent where the template's photo slots
 * are (else it hides the photos). The server measures the pixels (sharp); the messages, sizes and
 * thresholds live here. Zod-free, exported through `./rules`.
 */
import { canvasSize, type CanvasSize, type LayoutOrientation } from './layouts.js';

/** The only type a foreground may be: a PNG, which can be transparent. */
export const FOREGROUND_CONTENT_TYPE = 'image/png';

/** A foreground pixel lets the photo under it show when it is at most half opaque (alpha ≤ 128). */
export const FOREGROUND_CLEAR_MAX_ALPHA = 128;

/**
 * The share of each slot's area that must let the photo show: the rest may be a thin border or
 * the rounded corners the Studio cuts (50 px corners leave 99.7% of a 1080×720 slot open).
 */
export const FOREGROUND_SLOT_MIN_CLEAR = 0.9;

export const FOREGROUND_MESSAGES = {
  png: 'The foreground must be a PNG, transparent where the photos go.',
  unreadable: 'Could not read the foreground image. Please upload a valid PNG.',
} as const;

/** "Image must be 3600×2400px. Yours is 1200×800px." (staff spec section 5, the Studio's words). */
export function imageSizeMessage(expected: CanvasSize, actual: CanvasSize): string {
  return `Image must be ${expected.width}×${expected.height}px. Yours is ${actual.width}×${actual.height}px.`;
}

/** Why an image of `actual` size cannot be the foreground of `orientation`; null when it can. */
export function foregroundSizeProblem(
  orientation: LayoutOrientation,
  actual: CanvasSize,
): string | null {
  const expected = canvasSize(orientation);
  return actual.width === expected.width && actual.height === expected.height
    ? null
    : imageSizeMessage(expected, actual);
}

/**
 * Why the foreground hides the photo of slot `slotNumber` (1-based, in the template's slot
 * order) when only `clearShare` (0–1) of the slot's area lets it show; null when enough does.
 */
export function foregroundSlotProblem(slotNumber: number, clearShare: number): string | null {
  if (clearShare >= FOREGROUND_SLOT_MIN_CLEAR) return null;
  const percent = Math.floor(clearShare * 100);
  const least = Math.round(FOREGROUND_SLOT_MIN_CLEAR * 100);
  return `The foreground covers slot ${slotNumber}: ${percent}% of it is transparent and at least ${least}% must be, or its photo will not show. Make the foreground transparent where the photos go.`;
}

/**
 * The whole pixels of the canvas a slot covers (a stored slot may have fractions or run off the
 * canvas): null when none.
 */
export function slotPixels(
  slot: { x: number; y: number; w: number; h: number },
  canvas: CanvasSize,
): { left: number; top: number; width: number; height: number } | null {
  const left = Math.max(0, Math.floor(slot.x));
  const top = Math.max(0, Math.floor(slot.y));
  const right = Math.min(canvas.width, Math.ceil(slot.x + slot.w));
  const bottom = Math.min(canvas.height, Math.ceil(slot.y + slot.h));
  return right > left && bottom > top
    ? { left, top, width: right - left, height: bottom - top }
    : null;
}

/**
 * What is wrong with a foreground for a template of `orientation` with `slots`, from its decoded
 * size and its alpha channel (one byte a pixel, row by row; null when the image has none): the
 * size first, then each slot in order. Null when it may be the template's foreground.
 */
export function foregroundProblem(
  orientation: LayoutOrientation,
  size: CanvasSize,
  alpha: Uint8Array | null,
  slots: readonly { x: number; y: number; w: number; h: number }[],
): string | null {
  const sizeProblem = foregroundSizeProblem(orientation, size);
  if (sizeProblem) return sizeProblem;
  for (const [index, slot] of slots.entries()) {
    const box = slotPixels(slot, size);
    if (!box) continue;
    let clear = 0;
    if (alpha) {
      for (let y = box.top; y < box.top + box.height; y++) {
        const row = y * size.width;
        for (let x = box.left; x < box.left + box.width; x++) {
          if (alpha[row + x]! <= FOREGROUND_CLEAR_MAX_ALPHA) clear++;
        }
      }
    }
    const problem = foregroundSlotProblem(index + 1, clear / (box.width * box.height));
    if (problem) return problem;
  }
  return null;
}
