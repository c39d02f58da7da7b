import { captureCount } from '@flashbooth/contracts';
import { LAYOUTS, type TemplateLayout } from '@flashbooth/contracts/rules';
import { composePrint, type ImageSlot, samplePhoto } from '@flashbooth/print-composition';
import sharp from 'sharp';
import {
  type ArtworkText,
  type DesignName,
  designLayout,
  designSvg,
  openingSvg,
} from './demo-designs.js';

/**
 * The demo templates' two pictures, made at seed time from code: the foreground (a PNG overlay
 * of the exact print canvas, transparent in the photo openings) and the sample (what a print
 * looks like, composed by the booth's own composePrint from the simulated camera's photos).
 */

/** The sample is the print at a quarter of its size, JPEG quality 80 (the Template Studio's). */
export const SAMPLE_SCALE = 0.25;
export const SAMPLE_QUALITY = 80;

export interface DemoArtworkRequest {
  design: DesignName;
  text: ArtworkText;
  /** The template's slots (with their filters), in the order the booth fills them. */
  images: readonly ImageSlot[];
  isCut: boolean;
  isDuplicated: boolean;
  /** The time stamped on the simulated photos. */
  takenAt: Date;
}

export interface DemoArtwork {
  foreground: Buffer;
  sample: Buffer;
}

/**
 * Renders a design to a canvas-sized RGBA PNG with the photo openings punched out (alpha 0,
 * anti-aliased rounded corners).
 */
export async function renderForeground(design: DesignName, text: ArtworkText): Promise<Buffer> {
  const layout: TemplateLayout = LAYOUTS[designLayout(design)];
  const { width, height } = layout.canvas;
  const frame = await sharp(Buffer.from(designSvg(design, text)))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (frame.info.width !== width || frame.info.height !== height) {
    throw new Error(
      `the ${design} design rendered at ${frame.info.width}×${frame.info.height}, not ${width}×${height}`,
    );
  }
  const openings = new Map<string, Buffer>();
  for (const slot of layout.images) {
    const size = `${slot.w}x${slot.h}`;
    if (!openings.has(size)) {
      openings.set(
        size,
        await sharp(Buffer.from(openingSvg(slot)))
          .png()
          .toBuffer(),
      );
    }
  }
  return sharp(frame.data, { raw: frame.info })
    .composite(
      layout.images.map((slot) => ({
        input: openings.get(`${slot.w}x${slot.h}`)!,
        left: slot.x,
        top: slot.y,
        blend: 'dest-out' as const,
      })),
    )
    .png({ compressionLevel: 6, adaptiveFiltering: false })
    .toBuffer();
}

/** Composes the sample print as the demo booth would print it, scaled down for previews. */
export async function renderSample(
  request: Omit<DemoArtworkRequest, 'text'>,
  foreground: Buffer,
): Promise<Buffer> {
  const layout = LAYOUTS[designLayout(request.design)];
  const template = {
    id: 0,
    name: request.design,
    orientation: layout.orientation,
    is_cut: request.isCut,
    is_duplicated: request.isDuplicated,
    images: request.images.map((slot) => ({ ...slot })),
    foreground,
  };
  const needed = captureCount(template.images.length, template.is_duplicated);
  const photos = await Promise.all(
    Array.from({ length: needed }, (_, i) => samplePhoto(i, { takenAt: request.takenAt })),
  );
  const print = await composePrint(template, photos);
  return sharp(print)
    .resize(Math.round(layout.canvas.width * SAMPLE_SCALE))
    .jpeg({ quality: SAMPLE_QUALITY, mozjpeg: true })
    .toBuffer();
}

export async function renderDemoArtwork(request: DemoArtworkRequest): Promise<DemoArtwork> {
  const foreground = await renderForeground(request.design, request.text);
  const sample = await renderSample(request, foreground);
  return { foreground, sample };
}
