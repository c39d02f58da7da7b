import { describe, expect, it } from 'vitest';
import type { MediaRow } from '../../db/schema.js';
import { zipPathOf } from './data-export.js';
import { objectKeysOf } from './media-eraser.js';

const video = {
  id: 42,
  mediaType: 'video',
  s3Key: 'media/7/a.mp4',
  lowresKey: 'media/7/lowres/b.jpg',
  previewKey: 'media/7/preview/c.webp',
  gifKey: 'media/7/gif/d.gif',
} as Partial<MediaRow> as MediaRow;

describe("a video item's objects", () => {
  it('are all erased: the MP4, its poster, animated WebP and gif, and the share images', () => {
    expect(objectKeysOf(video)).toEqual([
      'media/7/a.mp4',
      'media/7/lowres/b.jpg',
      'media/7/preview/c.webp',
      'media/7/gif/d.gif',
      'share/42/w600.jpg',
      'share/42/w1200.jpg',
    ]);
  });

  it('puts the MP4 in the export', () => {
    expect(zipPathOf(video)).toBe('videos/42.mp4');
  });
});
