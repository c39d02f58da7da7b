import { describe, expect, it } from 'vitest';
import {
  MEDIA_SHARE_CAPTIONS,
  downloadFileName,
  gifFileName,
  isAbortError,
  isMobileUserAgent,
  pickShareCaption,
  shareFileName,
} from './media-files-model';

describe('pickShareCaption', () => {
  it('has 10 preset captions', () => {
    expect(MEDIA_SHARE_CAPTIONS).toHaveLength(10);
    expect(new Set(MEDIA_SHARE_CAPTIONS).size).toBe(10);
  });

  it('picks across the whole list and stays in range', () => {
    expect(pickShareCaption(() => 0)).toBe(MEDIA_SHARE_CAPTIONS[0]);
    expect(pickShareCaption(() => 0.55)).toBe(MEDIA_SHARE_CAPTIONS[5]);
    expect(pickShareCaption(() => 0.9999)).toBe(MEDIA_SHARE_CAPTIONS[9]);
    expect(pickShareCaption(() => 1)).toBe(MEDIA_SHARE_CAPTIONS[9]);
  });
});

describe('downloadFileName', () => {
  it("takes the s3_key's last segment", () => {
    expect(downloadFileName('media/42/print-42.jpg', 'https://b/x/y.jpg', 'f.jpg')).toBe(
      'print-42.jpg',
    );
    expect(downloadFileName('media/42/', 'https://b/x/y.jpg', 'f.jpg')).toBe('42');
  });

  it("falls back to the URL's path without its query", () => {
    expect(downloadFileName('', 'https://bucket.s3/a/b/photo%201.jpg?X-Amz=1&y=/z', 'f.jpg')).toBe(
      'photo 1.jpg',
    );
    expect(downloadFileName(null, 'https://bucket.s3/', 'f.jpg')).toBe('f.jpg');
  });
});

describe('shareFileName', () => {
  it('names the file after the media id with jpg', () => {
    expect(shareFileName(17)).toBe('17.jpg');
  });
});

describe('isMobileUserAgent', () => {
  it('recognises phones and tablets', () => {
    expect(
      isMobileUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
      ),
    ).toBe(true);
    expect(
      isMobileUserAgent('Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/124.0 Mobile Safari/537'),
    ).toBe(true);
  });

  it('leaves desktops out', () => {
    expect(
      isMobileUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/124.0 Safari/537.36'),
    ).toBe(false);
    expect(isMobileUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Safari/605.1')).toBe(
      false,
    );
  });
});

describe('isAbortError', () => {
  it('recognises a dismissed share sheet', () => {
    expect(isAbortError(new DOMException('x', 'AbortError'))).toBe(true);
    expect(isAbortError(new Error('x'))).toBe(false);
    expect(isAbortError(null)).toBe(false);
  });
});

describe('motion file names', () => {
  it('names a shared MP4 .mp4 and the GIF download after the HD file', () => {
    expect(shareFileName(7, 'video')).toBe('7.mp4');
    expect(shareFileName(7)).toBe('7.jpg');
    expect(gifFileName('media/7/clip-7.mp4', 'https://b/x.mp4', 7)).toBe('clip-7.gif');
    expect(gifFileName(null, 'https://b/files/party.mp4?sig=1', 7)).toBe('party.gif');
    expect(gifFileName(null, 'https://b/', 7)).toBe('7.gif');
  });
});
