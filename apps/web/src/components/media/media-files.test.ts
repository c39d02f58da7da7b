import { afterEach, describe, expect, it, vi } from 'vitest';
import { MEDIA_FILE_MESSAGES } from './media-files-model';
import { shareMedia, type MediaFile } from './media-files';

const video: MediaFile = {
  id: 42,
  media_type: 'video',
  s3_url: 'https://files.example/media/42/clip.mp4',
  s3_key: 'media/42/clip.mp4',
  org_name: 'Sunrise Mall',
  created_at: '2025-05-14T09:05:59',
};
const photo: MediaFile = { ...video, media_type: 'image', s3_url: '/p.jpg', s3_key: 'p.jpg' };

/** A phone's share sheet: `canShareFiles` says whether it takes files; records what it got. */
function phone(canShareFiles: boolean, body = new Blob(['mp4'], { type: '' })) {
  const shared: ShareData[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(new Response(body))),
  );
  vi.stubGlobal('navigator', {
    share: vi.fn((data: ShareData) => {
      shared.push(data);
      return Promise.resolve();
    }),
    canShare: vi.fn(() => canShareFiles),
  });
  return shared;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('shareMedia', () => {
  it('shares a motion item’s MP4 itself where the phone takes files', async () => {
    const shared = phone(true);
    const outcome = await shareMedia(video, 'https://venue.example/p/abc');
    expect(outcome).toEqual({ kind: 'success', text: MEDIA_FILE_MESSAGES.shared, done: true });
    const file = shared[0]!.files![0]!;
    expect(file.name).toBe('42.mp4');
    expect(file.type).toBe('video/mp4');
    expect(shared[0]!.url).toBeUndefined();
  });

  it('falls back to the share page link, else the file’s link', async () => {
    let shared = phone(false);
    await shareMedia(video, 'https://venue.example/p/abc');
    expect(shared[0]!.url).toBe('https://venue.example/p/abc');
    expect(shared[0]!.files).toBeUndefined();
    vi.unstubAllGlobals();
    shared = phone(false);
    const outcome = await shareMedia(video);
    expect(shared[0]!.url).toBe(video.s3_url);
    expect(outcome).toMatchObject({ kind: 'success', text: MEDIA_FILE_MESSAGES.sharedUrl });
  });

  it('keeps a photo’s file a JPEG', async () => {
    const shared = phone(true);
    await shareMedia(photo);
    expect(shared[0]!.files![0]!.name).toBe('42.jpg');
    expect(shared[0]!.files![0]!.type).toBe('image/jpeg');
  });

  it('asks to download a video, not an image, where the browser cannot share', async () => {
    vi.stubGlobal('navigator', {});
    expect(await shareMedia(video)).toEqual({
      kind: 'error',
      text: 'Sharing is not supported on this browser. Please download the video manually.',
      done: false,
    });
    expect(await shareMedia(photo)).toMatchObject({ text: MEDIA_FILE_MESSAGES.shareUnsupported });
  });
});
