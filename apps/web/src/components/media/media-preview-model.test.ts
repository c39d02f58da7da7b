import { describe, expect, it } from 'vitest';
import { mediaAspectRatio, previewBox, previewUrl } from './media-preview-model';

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

  it("sizes a motion clip's box by the clip itself (its poster's size), the print's ratio until known", () => {
    // A clip framed by a 3:2 slot, a 16:9 one made before issue 38, a portrait one.
    expect(previewBox('landscape', { width: 1280, height: 854 })).toEqual({
      ratio: '1280 / 854',
      portrait: false,
      squareInset: '16.641% 0',
    });
    expect(previewBox('landscape', { width: 1280, height: 720 })).toEqual({
      ratio: '1280 / 720',
      portrait: false,
      squareInset: '21.875% 0',
    });
    // A portrait template whose slot is landscape (the party strip's): a landscape box.
    expect(previewBox('portrait', { width: 1280, height: 854 })).toMatchObject({
      ratio: '1280 / 854',
      portrait: false,
    });
    expect(previewBox('landscape', { width: 854, height: 1280 })).toMatchObject({
      portrait: true,
      squareInset: '0 16.641%',
    });
    expect(previewBox('portrait', null)).toEqual({
      ratio: '2 / 3',
      portrait: true,
      squareInset: null,
    });
    expect(previewBox('landscape', { width: 0, height: 0 })).toEqual({
      ratio: '3 / 2',
      portrait: false,
      squareInset: null,
    });
  });
});
