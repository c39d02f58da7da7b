import type { CaptureKind } from '@flashbooth/contracts/rules';
import { canvasSize, LAYOUTS } from '@flashbooth/contracts/rules';
import { samplePhoto } from '@flashbooth/print-composition';
import sharp from 'sharp';
import type { DemoArtwork } from './demo-artwork.js';
import { SAMPLE_QUALITY, SAMPLE_SCALE } from './demo-artwork.js';
import { type ArtworkText, cafeMark, escapeXml, fitSize, SANS, SERIF } from './demo-designs.js';

/**
 * The demo organization's motion templates: one of each motion kind (a boomerang, a GIF and a
 * video), so a new user sees all three. Their foreground is drawn on the landscape print canvas
 * (3600×2400, 3:2: the shape of their one slot, so the clip the booth frames by that slot and
 * the print both take it whole): transparent but for a solid coloured band along the bottom
 * carrying the café's mark, its name and the place and date, as the photo templates do. The
 * booth burns it into every frame (a test finds the band's colour in the MP4); on the print the
 * band is the branding strip under the one photo (the slot ends 360 px above the canvas's foot).
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
  {
    name: 'Video',
    captureKind: 'video',
    motionFrames: 4,
    motionSeconds: 5,
    motionSpeed: 1,
    motionPrints: false,
    // Deep orange.
    band: { r: 214, g: 96, b: 18 },
  },
]);

/** The foreground's size (the landscape print canvas, 3:2), and the band's height in it. */
export const MOTION_FRAME = canvasSize('landscape');
const MOTION_SLOT = LAYOUTS.landscape1.images[0]!;
export const MOTION_BAND_HEIGHT = MOTION_FRAME.height - (MOTION_SLOT.y + MOTION_SLOT.h);
/** The sample is a frame with the foreground, at the photo templates' scale (900×600). */
const SAMPLE_WIDTH = Math.round(MOTION_FRAME.width * SAMPLE_SCALE);

/** A motion template's slot: the landscape one-photo layout's (3:2), which frames its clip. */
export function demoMotionSlots() {
  return LAYOUTS.landscape1.images.map((slot) => ({ ...slot, filter: 'none' }));
}

/** The band's drawing: its colour, the café's mark, the venue's name, the place and date. */
function bandSvg(definition: DemoMotionTemplateDefinition, text: ArtworkText): string {
  const { width, height } = MOTION_FRAME;
  const top = height - MOTION_BAND_HEIGHT;
  const mid = top + MOTION_BAND_HEIGHT / 2;
  const { r, g, b } = definition.band;
  const cx = width / 2;
  // Clear of the mark on the left, and of a player's Pause button over the clip's right corner.
  const inner = width - 2 * 520;
  const line = `${text.place}  ·  ${text.date}`.toUpperCase();
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <rect x="0" y="${top}" width="${width}" height="${MOTION_BAND_HEIGHT}" fill="rgb(${r},${g},${b})"/>
  ${cafeMark(260, mid, 1.3, '#ffffff', '#ffe3a3')}
  <text x="${cx}" y="${mid + 10}" text-anchor="middle" font-family="${SERIF}" font-weight="bold"
    font-size="${fitSize(text.venue, 140, inner, 0.6)}" fill="#ffffff">${escapeXml(text.venue)}</text>
  <text x="${cx}" y="${mid + 110}" text-anchor="middle" font-family="${SANS}"
    font-size="${fitSize(line, 52, inner, 0.68, 12)}" letter-spacing="12" fill="#ffffff"
    fill-opacity="0.92">${escapeXml(line)}</text>
</svg>`;
}

/**
 * The 3600×2400 RGBA PNG: transparent, with the band along the bottom (opaque, its own colour
 * under the mark and the lettering).
 */
export async function renderMotionForeground(
  definition: DemoMotionTemplateDefinition,
  text: ArtworkText,
): Promise<Buffer> {
  return sharp(Buffer.from(bandSvg(definition, text)))
    .ensureAlpha()
    .png({ compressionLevel: 6, adaptiveFiltering: false })
    .toBuffer();
}

/** The artwork of a motion template: its foreground, and a sample frame with it on top. */
export async function renderMotionArtwork(
  definition: DemoMotionTemplateDefinition,
  text: ArtworkText,
  takenAt: Date,
): Promise<DemoArtwork> {
  const foreground = await renderMotionForeground(definition, text);
  // Drawn at the sample's size (the simulated camera's picture is a drawing: as sharp at any size).
  const height = Math.round((SAMPLE_WIDTH * MOTION_FRAME.height) / MOTION_FRAME.width);
  const frame = await samplePhoto(0, { width: SAMPLE_WIDTH, height, takenAt });
  const overlay = await sharp(foreground).resize(SAMPLE_WIDTH, height).png().toBuffer();
  const sample = await sharp(frame)
    .composite([{ input: overlay }])
    .jpeg({ quality: SAMPLE_QUALITY, mozjpeg: true })
    .toBuffer();
  return { foreground, sample };
}
