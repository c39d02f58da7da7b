import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkJpeg, parseSize } from './check-jpeg.js';

const image = (format: 'jpeg' | 'png', width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: '#336699' } })
    .toFormat(format)
    .toBuffer();

describe('checkJpeg', () => {
  it('accepts a JPEG of the expected size and returns it', async () => {
    await expect(
      checkJpeg(await image('jpeg'), { size: { width: 64, height: 48 } }, 'Cam'),
    ).resolves.toEqual({
      width: 64,
      height: 48,
    });
  });

  it('names an empty file, a non-image, a PNG, a wrong size and a small photo', async () => {
    await expect(checkJpeg(Buffer.alloc(0), {}, 'Cam')).rejects.toThrow(
      'Cam gave back an empty file',
    );
    await expect(checkJpeg(Buffer.from('ERROR'), {}, 'Cam')).rejects.toThrow(
      'Cam gave back a file that is not an image (5 bytes)',
    );
    await expect(checkJpeg(await image('png'), {}, 'Cam')).rejects.toThrow(
      'Cam gave back a png image instead of a JPEG',
    );
    await expect(
      checkJpeg(await image('jpeg'), { size: { width: 48, height: 64 } }, 'Cam'),
    ).rejects.toThrow('Cam gave back a 64x48 photo instead of 48x64');
    await expect(checkJpeg(await image('jpeg'), { minShortSide: 100 }, 'Cam')).rejects.toThrow(
      'Cam gave back a 64x48 photo, too small to print',
    );
  });
});

describe('parseSize', () => {
  it('reads WIDTHxHEIGHT only', () => {
    expect(parseSize('1920x1080')).toEqual({ width: 1920, height: 1080 });
    expect(parseSize(' 640X480 ')).toEqual({ width: 640, height: 480 });
    expect(parseSize('1920')).toBeUndefined();
    expect(parseSize('0x0')).toBeUndefined();
  });
});
