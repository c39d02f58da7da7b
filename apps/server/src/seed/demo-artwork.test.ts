import { LAYOUTS } from '@flashbooth/contracts/rules';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { type DemoArtwork, renderDemoArtwork, SAMPLE_SCALE } from './demo-artwork.js';
import { designLayout, designSvg, escapeXml, fitSize, splitVenue } from './demo-designs.js';
import { DEMO_PLACE, DEMO_TEMPLATES, demoDateLines, demoTemplateSlots } from './demo-templates.js';
import { checkOpenings } from '../../test/seed/demo-artwork-checks.js';

const text = {
  venue: 'Flashbooth Demo Café',
  place: DEMO_PLACE,
  date: '30 September 2025',
  shortDate: '30 Sep 2025',
};

/** Mean absolute difference per channel of two equally sized RGB images. */
async function meanDifference(
  a: sharp.Sharp,
  b: sharp.Sharp,
  region: { left: number; top: number; width: number; height: number },
): Promise<number> {
  const [first, second] = await Promise.all(
    [a, b].map((image) => image.extract(region).removeAlpha().raw().toBuffer()),
  );
  let sum = 0;
  for (let i = 0; i < first!.length; i += 1) sum += Math.abs(first![i]! - second![i]!);
  return sum / first!.length;
}

/** Mean R, G, B of a region (sharp's stats() would describe the whole image, not the region). */
async function regionMean(
  image: Buffer,
  region: { left: number; top: number; width: number; height: number },
): Promise<number[]> {
  const raw = await sharp(image).extract(region).removeAlpha().raw().toBuffer();
  const sums = [0, 0, 0];
  for (let i = 0; i < raw.length; i += 1) sums[i % 3]! += raw[i]!;
  return sums.map((sum) => sum / (raw.length / 3));
}

describe('the demo template definitions', () => {
  it('cover the three Template Studio layouts once each, with a mix of filters', () => {
    expect(DEMO_TEMPLATES.map((t) => [t.name, designLayout(t.design)])).toEqual([
      ['Café Classic', 'landscape3'],
      ['Golden Hour', 'landscape1'],
      ['Party Strip', 'portrait6'],
    ]);
    for (const template of DEMO_TEMPLATES) {
      const slots = demoTemplateSlots(template);
      const layout = LAYOUTS[designLayout(template.design)];
      expect(slots.map(({ x, y, w, h }) => ({ x, y, w, h }))).toEqual(
        layout.images.map(({ x, y, w, h }) => ({ x, y, w, h })),
      );
    }
    const cafe = demoTemplateSlots(DEMO_TEMPLATES[0]!).map((slot) => slot.filter);
    expect(cafe).toContain('none');
    expect(cafe).toContain('grayscale');
    expect(cafe).toContain('warm');
  });

  it('cut and duplicate only the party strip, whose two strips share their filters', () => {
    const flags = DEMO_TEMPLATES.map((t) => [t.isCut, t.isDuplicated]);
    expect(flags).toEqual([
      [false, false],
      [false, false],
      [true, true],
    ]);
    const strip = DEMO_TEMPLATES[2]!.filters;
    expect(strip.slice(3)).toEqual(strip.slice(0, 3));
  });

  it('print the date in the café’s time zone, long and short', () => {
    // 20:00 UTC is already the next day in Bengaluru.
    expect(demoDateLines(new Date('2025-05-13T20:00:00Z'))).toEqual({
      date: '14 May 2025',
      shortDate: '14 May 2025',
    });
    expect(demoDateLines(new Date('2026-09-21T06:00:00Z'))).toEqual({
      date: '21 September 2026',
      shortDate: '21 Sep 2026',
    });
  });

  it('shrink a line that would run off its panel, and only then', () => {
    expect(fitSize('21 NOV 2026', 112, 1060, 0.66, 6)).toBe(112);
    const size = fitSize('21 SEPTEMBER 2026', 112, 1060, 0.66, 6);
    expect(size).toBeLessThan(112);
    expect(17 * (size * 0.66 + 6)).toBeLessThanOrEqual(1060);
  });

  it('escape what they print, so any venue name makes valid SVG', () => {
    expect(escapeXml(`Tom & Jerry's <"Bar">`)).toBe(
      'Tom &amp; Jerry&apos;s &lt;&quot;Bar&quot;&gt;',
    );
    expect(designSvg('golden-hour', { ...text, venue: 'A & B <C>' })).toContain(
      '>A &amp; B &lt;C&gt;<',
    );
    expect(splitVenue('Flashbooth Demo Café')).toEqual({ kicker: 'Flashbooth', name: 'Demo Café' });
    expect(splitVenue(' Solo ')).toEqual({ kicker: '', name: 'Solo' });
  });
});

describe.each(DEMO_TEMPLATES)('the $name artwork', (template) => {
  const layout = LAYOUTS[designLayout(template.design)];
  const slots = demoTemplateSlots(template);
  let artwork: DemoArtwork;

  beforeAll(async () => {
    artwork = await renderDemoArtwork({
      design: template.design,
      text,
      images: slots,
      isCut: template.isCut,
      isDuplicated: template.isDuplicated,
      takenAt: new Date('2025-05-14T06:30:00Z'),
    });
  });

  it('has a canvas-sized PNG foreground, clear in every opening and opaque everywhere else', async () => {
    expect(artwork.foreground.subarray(1, 4).toString('latin1')).toBe('PNG');
    const report = await checkOpenings(artwork.foreground, layout.images);
    expect([report.width, report.height]).toEqual([layout.canvas.width, layout.canvas.height]);
    expect(report.channels).toBe(4);
    expect(report.firstProblem).toBeNull();
    expect(report.opaqueInOpenings).toBe(0);
    expect(report.clearInFrame).toBe(0);
  });

  it('has a quarter-size JPEG sample: the frame is the foreground, the openings show photos', async () => {
    const sample = sharp(artwork.sample);
    const meta = await sample.metadata();
    expect(meta.format).toBe('jpeg');
    const width = Math.round(layout.canvas.width * SAMPLE_SCALE);
    const height = Math.round(layout.canvas.height * SAMPLE_SCALE);
    expect([meta.width, meta.height]).toEqual([width, height]);

    // The foreground on white, scaled the same way, is what the sample shows in the frame:
    // compare the band above the first slot (frame only on every layout).
    const frame = sharp(
      await sharp(artwork.foreground)
        .flatten({ background: '#ffffff' })
        .resize(width, height)
        .png()
        .toBuffer(),
    );
    const top = Math.floor(slots[0]!.y * SAMPLE_SCALE) - 4;
    const band = { left: 0, top: 0, width, height: top };
    expect(await meanDifference(sharp(artwork.sample), frame.clone(), band)).toBeLessThan(6);

    // Inside each opening the photo shows, not the white canvas or the frame.
    for (const slot of slots) {
      const inside = {
        left: Math.round((slot.x + slot.w * 0.3) * SAMPLE_SCALE),
        top: Math.round((slot.y + slot.h * 0.3) * SAMPLE_SCALE),
        width: Math.round(slot.w * 0.4 * SAMPLE_SCALE),
        height: Math.round(slot.h * 0.4 * SAMPLE_SCALE),
      };
      const mean = await regionMean(artwork.sample, inside);
      expect(Math.min(...mean), `slot at ${slot.x},${slot.y}`).toBeLessThan(235);
      // A grey slot (grayscale filter) has equal channels; the others keep their colour.
      const spread = Math.max(...mean) - Math.min(...mean);
      if (slot.filter === 'grayscale') expect(spread).toBeLessThan(3);
      else expect(spread, `${slot.filter} slot keeps its colour`).toBeGreaterThan(15);
    }
  });
});
