import type { Media } from '@flashbooth/contracts';

/** My Media texts (spec: visitor.md section 8, "Media"). */
export const MEDIA_SCREEN_MESSAGES = {
  loadFailed: 'Failed to load media. Please try again.',
  empty: 'No media found.',
  noDownloadUrl: 'No download URL available for this media.',
  downloadStarted: 'Download started!',
  downloadFailed: 'Download failed. Please try again.',
  publicFailed: 'Failed to toggle public status. Please try again.',
  repostFailed: 'Failed to update repost status. Please try again.',
  noShareUrl: 'No shareable URL available for this media.',
  shareUnsupported: 'Sharing is not supported on this browser. Please download the image manually.',
  shareFailed: 'Sharing failed. Please try again.',
  shared: 'Media shared successfully!',
  sharedUrl: 'Media URL shared successfully!',
  captionFailed: 'Failed to update caption. Please try again.',
  captionUnchanged: 'No changes detected.',
} as const;

/** Spec section 9: messages on the media screen hide after 5 s. */
export const MEDIA_STATUS_MS = 5000;
/** The server's caption limit (contracts CAPTION_MAX_LENGTH; not on the zod-free rules path). */
export const MEDIA_CAPTION_MAX = 500;

/** Spec section 9: the share text is one of 10 preset captions on the media list. */
export const MEDIA_SHARE_CAPTIONS = [
  'Snapped it, loved it, sharing it! 📸',
  'Memories made at the Flashbooth ✨',
  'Strike a pose — this one’s a keeper!',
  'Good times, captured in a flash ⚡',
  'Say cheese! 🧀',
  'Picture perfect moments with my favourite people.',
  'Just a little photobooth magic 💫',
  'Caught in the flash and loving it!',
  'One click, a thousand smiles 😄',
  'Making memories one frame at a time 🎞️',
] as const;

/** A random preset caption; `random` is injectable so tests can pin it. */
export function pickShareCaption(random: () => number = Math.random): string {
  const index = Math.min(
    MEDIA_SHARE_CAPTIONS.length - 1,
    Math.max(0, Math.floor(random() * MEDIA_SHARE_CAPTIONS.length)),
  );
  return MEDIA_SHARE_CAPTIONS[index]!;
}

/** Spec: previews use 3:2 for landscape and 2:3 for portrait. */
export function mediaAspectRatio(orientation: Media['orientation']): string {
  return orientation === 'landscape' ? '3 / 2' : '2 / 3';
}

/**
 * What the card shows as its preview: the low-resolution copy (a JPEG for a photo, a short clip
 * for a video), or the HD file when there is no low-resolution one.
 */
export function previewUrl(
  media: Pick<Media, 'lowres_s3_url' | 's3_url' | 'is_uploaded'>,
): string | null {
  if (!media.is_uploaded) return null;
  return media.lowres_s3_url ?? media.s3_url;
}

function lastSegment(path: string): string {
  const parts = path.split('/').filter((part) => part !== '');
  return parts.at(-1) ?? '';
}

/**
 * Spec section 7: the download is saved under the file name taken from s3_key (its last
 * segment), or else from the URL's path; `fallback` when neither has one.
 */
export function downloadFileName(s3Key: string | null, url: string, fallback: string): string {
  const fromKey = s3Key ? lastSegment(s3Key) : '';
  if (fromKey) return fromKey;
  let fromUrl = '';
  try {
    fromUrl = decodeURIComponent(lastSegment(new URL(url, 'https://x.invalid').pathname));
  } catch {
    fromUrl = '';
  }
  return fromUrl || fallback;
}

/** Spec section 9: the shared file is named after the media id with jpg. */
export function shareFileName(id: number): string {
  return `${id}.jpg`;
}

/** Spec: Share is offered only on mobile user agents. */
export function isMobileUserAgent(userAgent: string): boolean {
  return /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobi/i.test(userAgent);
}

export type CaptionChange = { kind: 'unchanged' } | { kind: 'save'; caption: string | null };

/** Spec: the caption is trimmed, an empty one becomes null; the same caption is no change. */
export function captionChange(current: string | null, draft: string): CaptionChange {
  const trimmed = draft.trim();
  const next = trimmed === '' ? null : trimmed;
  const before = current?.trim() ? current.trim() : null;
  return next === before ? { kind: 'unchanged' } : { kind: 'save', caption: next };
}

/** A share-sheet dismissal: silent (spec section 8). */
export function isAbortError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'name' in error &&
    (error as { name: unknown }).name === 'AbortError'
  );
}
