import { LOWRES_MAX_WIDTH } from '@flashbooth/contracts';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { makeTemplate, RED, solidPhoto } from '../test/helpers.js';
import { composePrint } from './compose.js';
import { makeLowresPreview } from './preview.js';
import { LAYOUTS } from './template.js';

const landscape1 = () => makeTemplate({ images: LAYOUTS.landscape1.images.map((s) => ({ ...s })) });

describe('makeLowresPreview', () => {
  it('makes a small JPEG preview', async () => {
    const print = await composePrint(landscape1(), [await solidPhoto(RED)]);
    const preview = await makeLowresPreview(print, { maxWidth: 600 });
    const meta = await sharp(preview).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 600, 400]);
  });

  it('never enlarges a small image', async () => {
    const small = await sharp(
      await makeLowresPreview(await solidPhoto(RED), { maxWidth: 2000 }),
    ).metadata();
    expect([small.format, small.width, small.height]).toEqual(['jpeg', 600, 400]);
  });

  it(`is at most LOWRES_MAX_WIDTH (${LOWRES_MAX_WIDTH} px) wide by default`, async () => {
    const print = await composePrint(landscape1(), [await solidPhoto(RED)]);
    const meta = await sharp(await makeLowresPreview(print)).metadata();
    expect([meta.width, meta.height]).toEqual([LOWRES_MAX_WIDTH, (LOWRES_MAX_WIDTH * 2) / 3]);
  });

  it('turns a photo upright by its EXIF orientation', async () => {
    // 600×400 stored, EXIF 6 (rotate 90° clockwise to view): upright it is 400×600.
    const sideways = await sharp(await solidPhoto(RED))
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const meta = await sharp(await makeLowresPreview(sideways)).metadata();
    expect([meta.width, meta.height]).toEqual([400, 600]);
  });
});
