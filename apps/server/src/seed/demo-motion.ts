import type { CaptureKind } from '@flashbooth/contracts/rules';
import { LAYOUTS } from '@flashbooth/contracts/rules';
import { samplePhoto } from '@flashbooth/print-composition';
import sharp from 'sharp';
import type { DemoArtwork } from './demo-artwork.js';
import { SAMPLE_QUALITY } from './demo-artwork.js';

/**
 * The demo organization's motion templates: a boomerang and a GIF. Their foreground is made for
 * the video frame (1280×720, landscape): transparent but for a solid coloured band along the
 * bottom, which the booth burns into every frame, so a test can find the overlay's pixels in
 * the MP4. A print made from a motion capture stretches the same PNG over the print canvas,
 * where the band lands in the branding strip under the one photo.
 */
export interface DemoMotionTemplateDefinition {
  name: string;
  captureKind: Exclude<CaptureKind, 'photo'>;
  motionFrames: number;
  motionSeconds: number;
  motionSpeed: number;
  motionPrints: boolean;
  /** The band's colour, opaque. */
  band: { r: number; g: number; b: number };
}

export const DEMO_MOTION_TEMPLATES: readonly DemoMotionTemplateDefinition[] = Object.freeze([
  {
    name: 'Boomerang',
    captureKind: 'boomerang',
    motionFrames: 4,
    motionSeconds: 5,
    motionSpeed: 1,
    motionPrints: false,
    // Magenta: strong red and blue, little green.
    band: { r: 230, g: 30, b: 200 },
  },
  {
    name: 'GIF',
    captureKind: 'gif',
    motionFrames: 4,
    motionSeconds: 5,
    motionSpeed: 1,
    motionPrints: true,
    band: { r: 20, g: 170, b: 170 },
  },
]);

/** The video frame the foreground is drawn for, and the band's height in it. */
export const MOTION_FRAME = { width: 1280, height: 720 } as const;
export const MOTION_BAND_HEIGHT = 60;
/** The sample is the frame at half size. */
const SAMPLE_WIDTH = MOTION_FRAME.width / 2;

/** A motion template's slot: the landscape one-photo layout's, for the print it may make. */
export function demoMotionSlots() {
  return LAYOUTS.landscape1.images.map((slot) => ({ ...slot, filter: 'none' }));
}

/** The 1280×720 RGBA PNG: transparent, with the band along the bottom. */
export async function renderMotionForeground(
  definition: DemoMotionTemplateDefinition,
): Promise<Buffer> {
  const { width, height } = MOTION_FRAME;
  const band = await sharp({
    create: {
      width,
      height: MOTION_BAND_HEIGHT,
      channels: 4,
      background: { ...definition.band, alpha: 1 },
    },
  })
    .png()
    .toBuffer();
  return sharp({
    create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .composite([{ input: band, left: 0, top: height - MOTION_BAND_HEIGHT }])
    .png({ compressionLevel: 6 })
    .toBuffer();
}

/** The artwork of a motion template: its foreground, and a sample frame with it on top. */
export async function renderMotionArtwork(
  definition: DemoMotionTemplateDefinition,
  takenAt: Date,
): Promise<DemoArtwork> {
  const foreground = await renderMotionForeground(definition);
  const frame = await samplePhoto(0, {
    width: MOTION_FRAME.width,
    height: MOTION_FRAME.height,
    takenAt,
  });
  const sample = await sharp(
    await sharp(frame)
      .composite([{ input: foreground }])
      .png()
      .toBuffer(),
  )
    .resize(SAMPLE_WIDTH)
    .jpeg({ quality: SAMPLE_QUALITY, mozjpeg: true })
    .toBuffer();
  return { foreground, sample };
}
