import { captureCount } from '@flashbooth/contracts';
import sharp from 'sharp';
import { applyFilter, knownFilter } from './filters.js';
import { blendOver, copyInto, whiteCanvas, type RawImage } from './raster.js';
import {
  canvasSize,
  photoIndexForSlot,
  type CanvasSize,
  type ImageSlot,
  type Template,
} from './template.js';

export interface ComposeOptions {
  /** JPEG quality of the print (default 90: no visible artefacts at 600 dpi, a third of q100's size). */
  quality?: number;
  /** Told about what the print silently works around (unknown filter, slot off the canvas). */
  onWarning?: (message: string) => void;
}

const WHITE = { r: 255, g: 255, b: 255 };

/** A slot rounded to whole pixels and clipped to the canvas; `crop` is the visible part of the photo. */
interface Placement {
  left: number;
  top: number;
  width: number;
  height: number;
  crop: { left: number; top: number; width: number; height: number } | null;
}

/**
 * Staff type slot numbers by hand, so they may be fractional or run past the canvas edge;
 * clip here instead of failing the visitor's print.
 */
function place(slot: ImageSlot, canvas: CanvasSize): Placement | null {
  const x = Math.round(slot.x);
  const y = Math.round(slot.y);
  const w = Math.round(slot.w);
  const h = Math.round(slot.h);
  if (!(w >= 1 && h >= 1)) return null;
  const left = Math.max(0, x);
  const top = Math.max(0, y);
  const right = Math.min(canvas.width, x + w);
  const bottom = Math.min(canvas.height, y + h);
  if (right <= left || bottom <= top) return null;
  const visible = { left: left - x, top: top - y, width: right - left, height: bottom - top };
  const clipped = visible.width !== w || visible.height !== h;
  return { left, top, width: w, height: h, crop: clipped ? visible : null };
}

async function toRaw(image: sharp.Sharp): Promise<RawImage> {
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/** Renders one photo, filtered, as the RGB pixels of its (visible) slot. */
function renderSlot(photo: Buffer, filter: string, at: Placement): Promise<RawImage> {
  // rotate() honours the camera's EXIF orientation; 'cover' fills the slot, cropping the centre;
  // flatten puts a transparent PNG photo on white so every slot is plain RGB.
  let image = applyFilter(sharp(photo).rotate().flatten({ background: WHITE }), filter).resize(
    at.width,
    at.height,
    { fit: 'cover' },
  );
  if (at.crop) image = image.extract(at.crop);
  return toRaw(image);
}

/**
 * The foreground as canvas-sized RGBA pixels. A designer file of another size is stretched to
 * the canvas ('fill'), which keeps every edge of the overlay on the canvas edge as designed.
 */
async function renderForeground(foreground: Buffer, canvas: CanvasSize): Promise<RawImage> {
  const image = sharp(foreground).ensureAlpha();
  const meta = await image.metadata();
  const sized =
    meta.width === canvas.width && meta.height === canvas.height
      ? image
      : image.resize(canvas.width, canvas.height, { fit: 'fill' });
  return toRaw(sized);
}

/**
 * Composes the print: photos into their slots (each through its filter), the foreground on top,
 * on a white canvas of the template's orientation, encoded once as JPEG.
 * `photos` are the captures in order; with `is_duplicated` the second half of the slots reuses them.
 */
export async function composePrint(
  template: Template,
  photos: readonly Buffer[],
  options: ComposeOptions = {},
): Promise<Buffer> {
  const warn = options.onWarning ?? (() => undefined);
  const size = canvasSize(template.orientation);
  const needed = captureCount(template.images.length, template.is_duplicated);
  if (photos.length < needed) {
    throw new Error(
      `Template ${template.id} needs ${needed} photo(s) but ${photos.length} were given`,
    );
  }

  // Identical slots of a duplicated strip render once and are copied twice.
  const rendered = new Map<string, Promise<RawImage>>();
  const slots = template.images.map((slot, index) => {
    if (!knownFilter(slot.filter)) warn(`Slot ${index + 1}: unknown filter "${slot.filter}"`);
    const at = place(slot, size);
    if (!at) {
      warn(`Slot ${index + 1} lies outside the ${size.width}×${size.height} canvas`);
      return null;
    }
    const photoIndex = photoIndexForSlot(template, index);
    const key = JSON.stringify([photoIndex, slot.filter.trim().toLowerCase(), at]);
    let pixels = rendered.get(key);
    if (!pixels) {
      // Checked against captureCount above, so the photo exists.
      pixels = renderSlot(photos[photoIndex] as Buffer, slot.filter, at);
      rendered.set(key, pixels);
    }
    return pixels.then((tile) => ({ tile, at }));
  });
  const foreground = template.foreground ? renderForeground(template.foreground, size) : null;

  // Every slot and the foreground decode in parallel on libuv's thread pool.
  const [overlay, ...tiles] = await Promise.all([foreground, ...slots]);
  const canvas = whiteCanvas(size.width, size.height);
  for (const slot of tiles) {
    if (slot) copyInto(canvas, slot.tile, slot.at.left, slot.at.top);
  }
  if (overlay) blendOver(canvas, overlay);
  return sharp(canvas.data, { raw: { width: canvas.width, height: canvas.height, channels: 3 } })
    .jpeg({ quality: options.quality ?? 90 })
    .toBuffer();
}
