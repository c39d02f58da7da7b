import { describe, expect, it } from 'vitest';
import { mediaAspectRatio, previewUrl } from './media-preview-model';

describe('previews', () => {
  it('uses 3:2 for landscape and 2:3 for portrait', () => {
    expect(mediaAspectRatio('landscape')).toBe('3 / 2');
    expect(mediaAspectRatio('portrait')).toBe('2 / 3');
  });

  it('prefers the low-resolution copy, photo or video, and falls back to the HD file', () => {
    const base = { lowres_s3_url: 'low', s3_url: 'hd', is_uploaded: true };
    expect(previewUrl(base)).toBe('low');
    expect(previewUrl({ ...base, lowres_s3_url: null })).toBe('hd');
    expect(previewUrl({ ...base, lowres_s3_url: null, s3_url: null })).toBeNull();
  });

  it('has no preview until uploaded', () => {
    expect(previewUrl({ lowres_s3_url: 'low', s3_url: 'hd', is_uploaded: false })).toBeNull();
  });
});
