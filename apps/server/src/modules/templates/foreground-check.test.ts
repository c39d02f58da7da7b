import { LAYOUTS, TEMPLATE_STUDIO_CORNER_RADIUS } from '@flashbooth/contracts/rules';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { renderForeground } from '../../seed/demo-artwork.js';
import { designLayout } from '../../seed/demo-designs.js';
import { DEMO_PLACE, DEMO_TEMPLATES } from '../../seed/demo-templates.js';
import { uploadedForegroundProblem } from './foreground-check.js';

const text = {
  venue: 'Flashbooth Demo Café',
  place: DEMO_PLACE,
  date: '30 September 2025',
  shortDate: '30 Sep 2025',
};

/** An opaque canvas with the layout's openings cut as the Template Studio cuts them. */
async function studioOverlay(layout: (typeof LAYOUTS)[keyof typeof LAYOUTS]): Promise<Buffer> {
  const { width, height } = layout.canvas;
  const holes = layout.images
    .map(
      ({ x, y, w, h }) =>
        `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${TEMPLATE_STUDIO_CORNER_RADIUS}"/>`,
    )
    .join('');
  const mask = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${holes}</svg>`,
  );
  return sharp({ create: { width, height, channels: 4, background: '#3a2a5cff' } })
    .composite([{ input: mask, blend: 'dest-out' }])
    .png()
    .toBuffer();
}

describe('the foreground rule on uploaded files', () => {
  it("accepts the Template Studio's overlays: the canvas size, rounded openings over the slots", async () => {
    for (const layout of Object.values(LAYOUTS)) {
      const png = await studioOverlay(layout);
      expect(await uploadedForegroundProblem(png, layout.orientation, layout.images)).toBeNull();
    }
  });

  it("accepts every demo template's foreground with its slots (the seed follows the rule)", async () => {
    for (const definition of DEMO_TEMPLATES) {
      const layout = LAYOUTS[designLayout(definition.design)];
      const png = await renderForeground(definition.design, text);
      expect(
        await uploadedForegroundProblem(png, layout.orientation, layout.images),
        definition.name,
      ).toBeNull();
    }
  });

  it('refuses another size, a JPEG, a file that is no image and a slot left covered', async () => {
    const { portrait6 } = LAYOUTS;
    const small = await sharp({
      create: { width: 640, height: 480, channels: 4, background: '#ffffffff' },
    })
      .png()
      .toBuffer();
    expect(await uploadedForegroundProblem(small, 'portrait', portrait6.images)).toBe(
      'Image must be 2400×3600px. Yours is 640×480px.',
    );
    const jpeg = await sharp({
      create: { width: 2400, height: 3600, channels: 3, background: '#ffffff' },
    })
      .jpeg()
      .toBuffer();
    expect(await uploadedForegroundProblem(jpeg, 'portrait', [])).toBe(
      'The foreground must be a PNG, transparent where the photos go.',
    );
    expect(await uploadedForegroundProblem(Buffer.from('not an image'), 'portrait', [])).toBe(
      'Could not read the foreground image. Please upload a valid PNG.',
    );
    // The landscape overlay's openings do not match the portrait slots' places.
    const landscapeOpenings = await studioOverlay(LAYOUTS.landscape3);
    const turned = await sharp(landscapeOpenings).rotate(90).png().toBuffer();
    expect(await uploadedForegroundProblem(turned, 'portrait', portrait6.images)).toMatch(
      /^The foreground covers slot \d: \d+% of it is transparent and at least 90% must be/,
    );
    // Grey with alpha and half-transparent pixels: at most half opaque lets the photo show.
    const grey = Buffer.alloc(2400 * 3600 * 2);
    for (let at = 0; at < grey.length; at += 2) grey[at + 1] = 128;
    const greyHalf = await sharp(grey, { raw: { width: 2400, height: 3600, channels: 2 } })
      .toColourspace('b-w')
      .png()
      .toBuffer();
    expect((await sharp(greyHalf).metadata()).channels).toBe(2);
    expect(await uploadedForegroundProblem(greyHalf, 'portrait', portrait6.images)).toBeNull();
  });
});
