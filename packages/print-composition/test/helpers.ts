import sharp from 'sharp';
import type { ImageSlot, Template } from '../src/template.js';

export type Rgb = [number, number, number];

export const RED: Rgb = [230, 20, 20];
export const GREEN: Rgb = [20, 200, 40];
export const BLUE: Rgb = [20, 40, 220];
export const MAGENTA: Rgb = [255, 0, 255];

/** A camera-sized (3:2) photo of one colour. */
export function solidPhoto([r, g, b]: Rgb, width = 600, height = 400): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r, g, b } } })
    .jpeg({ quality: 95 })
    .toBuffer();
}

/** The colour at (x, y) of an encoded image. */
export async function pixelAt(image: Buffer, x: number, y: number): Promise<Rgb> {
  const data = await sharp(image)
    .extract({ left: x, top: y, width: 1, height: 1 })
    .removeAlpha()
    .raw()
    .toBuffer();
  return [data[0] ?? -1, data[1] ?? -1, data[2] ?? -1];
}

export const centre = (slot: ImageSlot): [number, number] => [
  Math.round(slot.x + slot.w / 2),
  Math.round(slot.y + slot.h / 2),
];

/** JPEG keeps flat colours within a few levels. */
export function isNear(actual: Rgb, expected: Rgb, tolerance = 12): boolean {
  return actual.every((value, i) => Math.abs(value - (expected[i] ?? 0)) <= tolerance);
}

export function makeTemplate(overrides: Partial<Template> & Pick<Template, 'images'>): Template {
  return {
    id: 7,
    name: 'Test template',
    orientation: 'landscape',
    is_cut: false,
    is_duplicated: false,
    foreground: null,
    ...overrides,
  };
}
