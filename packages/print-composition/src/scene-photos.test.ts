import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { SCENE_PHOTO_COUNT, scenePhoto, scenePhotoUrl } from './scene-photos.js';

describe('scene photos', () => {
  it('are five distinct 1620×1080 JPEGs of a few tens of KB', async () => {
    const files = await Promise.all(
      Array.from({ length: SCENE_PHOTO_COUNT }, (_, index) => scenePhoto(index)),
    );
    for (const file of files) {
      const meta = await sharp(file).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1620, 1080]);
      expect(file.length).toBeLessThan(100 * 1024);
    }
    expect(new Set(files.map((file) => file.toString('base64'))).size).toBe(SCENE_PHOTO_COUNT);
  });

  it('wraps the index around the five', () => {
    expect(scenePhotoUrl(5).href).toBe(scenePhotoUrl(0).href);
    expect(scenePhotoUrl(-1).href).toBe(scenePhotoUrl(4).href);
  });
});
