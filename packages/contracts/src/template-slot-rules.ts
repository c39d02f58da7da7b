/**
 * A template's image slots must lie inside its print canvas (issue 20, item 4): the server
 * refuses a slot that runs off it and the editor says so before saving, with the same words.
 * Zod-free, exported through `./rules`.
 */
import { canvasSize, type LayoutOrientation } from './layouts.js';

export interface SlotBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Canvas pixels as a person reads them: whole numbers stay whole, others get two decimals. */
const shown = (value: number) => String(Math.round(value * 100) / 100);

/**
 * Why slot number `slotNumber` (1-based, as the editor lists them) does not fit the canvas of
 * `orientation`, naming the limit and what to do; null when it fits. Negative or zero numbers
 * are the schemas' business (they have their own messages), so only the right and bottom edges
 * are checked here.
 */
export function slotCanvasProblem(
  slot: SlotBox,
  slotNumber: number,
  orientation: LayoutOrientation,
): string | null {
  const { width, height } = canvasSize(orientation);
  const canvas = `the ${width}×${height} ${orientation} canvas`;
  const right = slot.x + slot.w;
  if (right > width) {
    return `Slot ${slotNumber} runs off ${canvas}: x + w is ${shown(right)} and may be at most ${width}. Move it left or make it narrower.`;
  }
  const bottom = slot.y + slot.h;
  if (bottom > height) {
    return `Slot ${slotNumber} runs off ${canvas}: y + h is ${shown(bottom)} and may be at most ${height}. Move it up or make it shorter.`;
  }
  return null;
}

/** Whether the slot lies inside the canvas of `orientation`. */
export function slotFitsCanvas(slot: SlotBox, orientation: LayoutOrientation): boolean {
  return slotCanvasProblem(slot, 1, orientation) === null;
}
