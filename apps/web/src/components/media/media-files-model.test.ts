import { describe, expect, it } from 'vitest';
import {
  MEDIA_FILE_MESSAGES,
  MEDIA_SHARE_CAPTIONS,
  type DownloadNaming,
  downloadFileName,
  fileSlug,
  gifFileName,
  isAbortError,
  isMobileUserAgent,
  pickShareCaption,
  shareFileName,
  shareUnsupportedText,
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
  const item: DownloadNaming = {
    id: 42,
    media_type: 'video',
    s3_key: 'media/7/46d0e527-1f0c-4d9a-9a57-5b0c3f6f2a11.mp4',
    org_name: 'Sunrise Mall',
    created_at: '2025-05-14T23:59:59',
  };

  it('names a download after the venue and the date, not the stored UUID', () => {
    expect(downloadFileName(item, 'https://b/x/y.mp4')).toBe(
      'flashbooth-sunrise-mall-2025-05-14-42.mp4',
    );
    expect(
      downloadFileName(
        {
          ...item,
          media_type: 'image',
          s3_key: 'media/7/uuid.JPG',
          org_name: 'Café Zürich · Hall 2',
        },
        '',
      ),
    ).toBe('flashbooth-café-zürich-hall-2-2025-05-14-42.jpg');
  });

  it('keeps names of any script, and leaves out a venue that makes no name', () => {
    expect(downloadFileName({ ...item, org_name: 'जन्मदिन हॉल' }, '')).toBe(
      'flashbooth-जन्मदिन-हॉल-2025-05-14-42.mp4',
    );
    expect(downloadFileName({ ...item, org_name: null }, '')).toBe('flashbooth-2025-05-14-42.mp4');
    expect(downloadFileName({ ...item, org_name: '***' }, '')).toBe('flashbooth-2025-05-14-42.mp4');
  });

  it('keeps a long venue short', () => {
    const name = downloadFileName({ ...item, org_name: `${'Grand '.repeat(20)}Hall` }, '');
    expect(name).toMatch(/^flashbooth-grand-grand-[a-z-]+[a-z]-2025-05-14-42\.mp4$/);
    expect(fileSlug(`${'Grand '.repeat(20)}Hall`)).toBe('grand-grand-grand-grand-grand-grand-gran');
    // Cut where a dash was, it ends without it.
    expect(fileSlug('abcd efgh', 5)).toBe('abcd');
  });

  it("takes the extension from the s3_key, else the URL's path, else the type", () => {
    expect(
      downloadFileName(
        { ...item, s3_key: null },
        'https://bucket.s3/a/b/photo%201.jpeg?X-Amz=1&y=/z',
      ),
    ).toBe('flashbooth-sunrise-mall-2025-05-14-42.jpeg');
    expect(downloadFileName({ ...item, s3_key: 'media/42/' }, 'https://bucket.s3/')).toBe(
      'flashbooth-sunrise-mall-2025-05-14-42.mp4',
    );
    expect(downloadFileName({ ...item, s3_key: null, media_type: 'image' }, '/')).toBe(
      'flashbooth-sunrise-mall-2025-05-14-42.jpg',
    );
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
    const clip: DownloadNaming = {
      id: 7,
      media_type: 'video',
      s3_key: 'media/7/clip-7.mp4',
      org_name: 'Harbour Point',
      created_at: '2025-09-01T08:00:00',
    };
    expect(gifFileName(clip, 'https://b/x.mp4')).toBe('flashbooth-harbour-point-2025-09-01-7.gif');
    expect(gifFileName({ ...clip, s3_key: null, org_name: null }, 'https://b/')).toBe(
      'flashbooth-2025-09-01-7.gif',
    );
  });
});

describe('shareUnsupportedText', () => {
  it('asks to download the image, or the video', () => {
    expect(shareUnsupportedText('image')).toBe(
      'Sharing is not supported on this browser. Please download the image manually.',
    );
    expect(shareUnsupportedText('video')).toBe(
      'Sharing is not supported on this browser. Please download the video manually.',
    );
    expect(MEDIA_FILE_MESSAGES.shareUnsupported).toContain('image');
  });
});
