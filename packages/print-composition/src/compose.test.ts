import { captureCount } from '@flashbooth/contracts';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { composePrint } from './compose.js';
import { knownFilter } from './filters.js';
import { LAYOUTS, photoIndexForSlot, printLayout, type Template } from './template.js';

type Rgb = [number, number, number];

/** A solid-colour 3:2 photo. */
function solid([r, g, b]: Rgb, width = 600, height = 400): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r, g, b } } })
    .jpeg()
    .toBuffer();
}

/** The RGB colour at (x, y) of an encoded image. */
async function pixel(image: Buffer, x: number, y: number): Promise<Rgb> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}

function near(actual: Rgb, expected: Rgb, tolerance = 24): boolean {
  return actual.every((value, i) => Math.abs(value - expected[i]!) <= tolerance);
}

function template(layout: keyof typeof LAYOUTS, overrides: Partial<Template> = {}): Template {
  const { orientation, images } = LAYOUTS[layout];
  return {
    id: 7,
    name: layout,
    orientation,
    is_cut: false,
    is_duplicated: false,
    images: images.map((slot) => ({ ...slot })),
    foreground: null,
    ...overrides,
  };
}

const centre = (slot: { x: number; y: number; w: number; h: number }) => ({
  x: Math.round(slot.x + slot.w / 2),
  y: Math.round(slot.y + slot.h / 2),
});

const RED: Rgb = [220, 30, 30];
const GREEN: Rgb = [30, 200, 40];
const BLUE: Rgb = [30, 40, 220];

describe('composePrint', () => {
  it('makes a 3600×2400 landscape print with each photo in its own slot', async () => {
    const t = template('landscape3');
    const print = await composePrint(t, [await solid(RED), await solid(GREEN), await solid(BLUE)]);
    const meta = await sharp(print).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 3600, 2400]);
    const colours = [RED, GREEN, BLUE];
    for (const [i, slot] of t.images.entries()) {
      const { x, y } = centre(slot);
      expect(near(await pixel(print, x, y), colours[i]!)).toBe(true);
    }
    // Outside every slot the canvas is white.
    expect(near(await pixel(print, 3500, 2300), [255, 255, 255])).toBe(true);
  });

  it('makes a 2400×3600 portrait print', async () => {
    const t = template('portrait6');
    const photos = await Promise.all([RED, GREEN, BLUE, RED, GREEN, BLUE].map((c) => solid(c)));
    const meta = await sharp(await composePrint(t, photos)).metadata();
    expect([meta.width, meta.height]).toEqual([2400, 3600]);
  });

  it('repeats the first strip in the second when the template is duplicated', async () => {
    const t = template('portrait6', { is_duplicated: true });
    expect(captureCount(t.images.length, t.is_duplicated)).toBe(3);
    const print = await composePrint(t, [await solid(RED), await solid(GREEN), await solid(BLUE)]);
    for (let i = 0; i < 3; i += 1) {
      const first = centre(t.images[i]!);
      const second = centre(t.images[i + 3]!);
      const a = await pixel(print, first.x, first.y);
      expect(near(a, [RED, GREEN, BLUE][i]!)).toBe(true);
      expect(near(await pixel(print, second.x, second.y), a, 2)).toBe(true);
    }
  });

  it('draws the foreground over the photos and lets them show where it is transparent', async () => {
    const t = template('landscape1');
    const slot = t.images[0]!;
    // An opaque magenta band across the middle of the slot, transparent elsewhere.
    const band = { top: 1000, height: 200 };
    t.foreground = await sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="3600" height="2400"><rect x="0" y="${band.top}" width="3600" height="${band.height}" fill="#ff00ff"/></svg>`,
      ),
    )
      .png()
      .toBuffer();
    const print = await composePrint(t, [await solid(GREEN)]);
    expect(near(await pixel(print, slot.x + 400, band.top + 100), [255, 0, 255])).toBe(true);
    expect(near(await pixel(print, slot.x + 400, slot.y + 300), GREEN)).toBe(true);
  });

  it('applies a slot filter: grayscale makes r, g and b equal', async () => {
    const t = template('landscape1');
    t.images[0]!.filter = 'Grayscale';
    const print = await composePrint(t, [await solid(RED)]);
    const { x, y } = centre(t.images[0]!);
    const [r, g, b] = await pixel(print, x, y);
    expect(Math.max(r, g, b) - Math.min(r, g, b)).toBeLessThanOrEqual(3);
    expect(r).toBeLessThan(200);
  });

  it('prints an unknown filter unfiltered and says so', async () => {
    const t = template('landscape1');
    t.images[0]!.filter = 'lomo-deluxe';
    const warnings: string[] = [];
    const print = await composePrint(t, [await solid(BLUE)], {
      onWarning: (m) => warnings.push(m),
    });
    const { x, y } = centre(t.images[0]!);
    expect(near(await pixel(print, x, y), BLUE)).toBe(true);
    expect(warnings.join(' ')).toContain('lomo-deluxe');
    expect(knownFilter('lomo-deluxe')).toBe(false);
    expect(knownFilter('SEPIA')).toBe(true);
  });

  it('refuses too few photos', async () => {
    await expect(composePrint(template('landscape3'), [await solid(RED)])).rejects.toThrow(
      /needs 3 photo/,
    );
  });
});

describe('template rules', () => {
  it('takes one photo per slot, half of them for a duplicated template', () => {
    const photos = (t: Template) => captureCount(t.images.length, t.is_duplicated);
    expect(photos(template('landscape3'))).toBe(3);
    expect(photos(template('landscape1'))).toBe(1);
    expect(photos(template('portrait6'))).toBe(6);
    expect(photos(template('portrait6', { is_duplicated: true }))).toBe(3);
    expect(photoIndexForSlot(template('portrait6', { is_duplicated: true }), 4)).toBe(1);
  });

  it('uses the Template Studio slot sizes', () => {
    expect(LAYOUTS.landscape3.images.every((s) => s.w === 1620 && s.h === 1080)).toBe(true);
    expect(LAYOUTS.landscape1.images).toEqual([expect.objectContaining({ w: 2880, h: 1920 })]);
    expect(LAYOUTS.portrait6.images.every((s) => s.w === 1080 && s.h === 720)).toBe(true);
  });

  it('cuts a cut template into two strips', () => {
    expect(printLayout({ is_cut: true })).toEqual({ strips: 2 });
    expect(printLayout({ is_cut: false })).toEqual({ strips: 1 });
  });
});
