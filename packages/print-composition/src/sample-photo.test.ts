import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { samplePhoto } from './sample-photo.js';

const takenAt = new Date('2026-01-02T03:04:05Z');

describe('samplePhoto', () => {
  it('is a JPEG of the size asked for (1620×1080 by default)', async () => {
    const [standard, small] = await Promise.all([
      samplePhoto(0, { takenAt }),
      samplePhoto(0, { takenAt, width: 300, height: 200 }),
    ]);
    const [a, b] = await Promise.all([sharp(standard).metadata(), sharp(small).metadata()]);
    expect([a.format, a.width, a.height]).toEqual(['jpeg', 1620, 1080]);
    expect([b.format, b.width, b.height]).toEqual(['jpeg', 300, 200]);
  });

  it('draws the same photo for the same shot and time, so demo samples are reproducible', async () => {
    const [first, again, next] = await Promise.all([
      samplePhoto(2, { takenAt, width: 300, height: 200 }),
      samplePhoto(2, { takenAt, width: 300, height: 200 }),
      samplePhoto(3, { takenAt, width: 300, height: 200 }),
    ]);
    expect(first.equals(again)).toBe(true);
    expect(first.equals(next)).toBe(false);
  });
});
