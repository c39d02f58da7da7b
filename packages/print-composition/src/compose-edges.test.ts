import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BLUE,
  centre,
  GREEN,
  isNear,
  MAGENTA,
  makeTemplate,
  pixelAt,
  RED,
  solidPhoto,
  type Rgb,
} from '../test/helpers.js';
import { composePrint } from './compose.js';
import { FILTER_NAMES, knownFilter } from './filters.js';
import { LAYOUTS, type ImageSlot } from './template.js';

// Cases beyond compose.test.ts: resized foregrounds, every filter, off-canvas slots.

const YELLOW: Rgb = [250, 230, 20];
const WHITE: Rgb = [255, 255, 255];

let photos: Buffer[];
beforeAll(async () => {
  photos = await Promise.all([RED, GREEN, BLUE].map((colour) => solidPhoto(colour)));
});

function bandForeground(width: number, height: number, band: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect x="0" y="0" width="${width}" height="${band}" fill="#ff00ff"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const colourAt = (print: Buffer, slot: ImageSlot): Promise<Rgb> => pixelAt(print, ...centre(slot));

describe('composePrint edge cases', () => {
  it('stretches a foreground of another size to the canvas', async () => {
    // A 1800×1200 overlay with a 150 px band becomes a 300 px band on the 3600×2400 canvas.
    const template = makeTemplate({
      images: LAYOUTS.landscape3.images.map((slot) => ({ ...slot })),
      foreground: await bandForeground(1800, 1200, 150),
    });
    const print = await composePrint(template, photos);
    expect(isNear(await pixelAt(print, 930, 280), MAGENTA)).toBe(true);
    expect(isNear(await pixelAt(print, 930, 330), RED)).toBe(true);
  });

  it('without is_duplicated, six photos fill the six portrait slots in order', async () => {
    const slots = LAYOUTS.portrait6.images.map((slot) => ({ ...slot }));
    const extra = await Promise.all([MAGENTA, YELLOW, WHITE].map((colour) => solidPhoto(colour)));
    const print = await composePrint(makeTemplate({ orientation: 'portrait', images: slots }), [
      ...photos,
      ...extra,
    ]);
    const colours = await Promise.all(slots.map((slot) => colourAt(print, slot)));
    const expected = [RED, GREEN, BLUE, MAGENTA, YELLOW, WHITE];
    expect(colours.map((colour, i) => isNear(colour, expected[i] as Rgb))).toEqual(
      Array(6).fill(true),
    );
  });

  it('every known filter changes a colourful photo in its own way', async () => {
    const photo = await solidPhoto([200, 120, 60]);
    const grey = await solidPhoto([128, 128, 128]);
    const names = ['warm', 'cool', 'vintage', 'high-contrast', 'sepia'];
    const slots = names.map((filter, i) => ({ x: i * 700, y: 0, w: 600, h: 400, filter }));
    const print = await composePrint(makeTemplate({ images: slots }), [
      photo,
      photo,
      photo,
      photo,
      grey,
    ]);
    const [warm, cool, vintage, contrast, sepia] = await Promise.all(
      slots.map((slot) => colourAt(print, slot)),
    );
    for (const colour of [warm, cool, vintage, contrast]) {
      expect(isNear(colour as Rgb, [200, 120, 60], 6)).toBe(false);
    }
    const redMinusBlue = (c: Rgb | undefined): number => (c ? c[0] - c[2] : NaN);
    expect(redMinusBlue(warm)).toBeGreaterThan(redMinusBlue(cool));
    // High contrast pushes the channels apart; vintage (faded) pulls them together.
    expect(redMinusBlue(contrast)).toBeGreaterThan(140);
    expect(redMinusBlue(vintage)).toBeLessThan(140);
    const [sr, sg, sb] = sepia as Rgb;
    expect(sr).toBeGreaterThan(sg + 10);
    expect(sg).toBeGreaterThan(sb + 10);
  });

  it('clips a slot that runs off the canvas and skips one entirely outside it', async () => {
    const warnings: string[] = [];
    const slots: ImageSlot[] = [
      { x: 3000, y: 2000, w: 1620, h: 1080, filter: 'none' },
      { x: 5000, y: 0, w: 100, h: 100, filter: 'none' },
    ];
    const print = await composePrint(makeTemplate({ images: slots }), photos.slice(0, 2), {
      onWarning: (message) => warnings.push(message),
    });
    expect(isNear(await pixelAt(print, 3590, 2390), RED)).toBe(true);
    expect(isNear(await pixelAt(print, 2990, 1990), WHITE, 3)).toBe(true);
    expect(warnings).toEqual(['Slot 2 lies outside the 3600×2400 canvas']);
  });
});

describe('filters', () => {
  it('knows exactly the seven filter names, ignoring case and spaces', () => {
    expect([...FILTER_NAMES].sort()).toEqual(
      ['cool', 'grayscale', 'high-contrast', 'none', 'sepia', 'vintage', 'warm'].sort(),
    );
    expect(knownFilter(' High-Contrast ')).toBe(true);
    expect(knownFilter('blur')).toBe(false);
    expect(knownFilter('')).toBe(false);
  });
});
