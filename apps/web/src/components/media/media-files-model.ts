/**
 * The media file pieces every media screen shares (My Media, the wall, the staff media views):
 * texts, download and share names, who may share. Spec: visitor.md sections 7–9, staff.md
 * sections 7–9.
 */
export const MEDIA_FILE_MESSAGES = {
  noDownloadUrl: 'No download URL available for this media.',
  downloadStarted: 'Download started!',
  downloadFailed: 'Download failed. Please try again.',
  noGifUrl: 'No GIF available for this media.',
  noShareUrl: 'No shareable URL available for this media.',
  shareUnsupported: 'Sharing is not supported on this browser. Please download the image manually.',
  shareFailed: 'Sharing failed. Please try again.',
  shared: 'Media shared successfully!',
  sharedUrl: 'Media URL shared successfully!',
} as const;

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

/**
 * Spec section 9: the shared file is named after the media id with jpg; a motion item's MP4
 * with mp4.
 */
export function shareFileName(id: number, mediaType: 'image' | 'video' = 'image'): string {
  return `${id}.${mediaType === 'video' ? 'mp4' : 'jpg'}`;
}

/** The content type a shared file gets when the download did not say. */
export function shareFileType(mediaType: 'image' | 'video'): string {
  return mediaType === 'video' ? 'video/mp4' : 'image/jpeg';
}

/**
 * The `.gif` download's file name: the HD file's name (from s3_key, else the URL) with `.gif`
 * in place of its extension.
 */
export function gifFileName(s3Key: string | null, url: string, id: number): string {
  const base = downloadFileName(s3Key, url, String(id)).replace(/\.[a-z0-9]{1,5}$/i, '');
  return `${base || id}.gif`;
}

/** Spec: Share is offered only on mobile user agents. */
export function isMobileUserAgent(userAgent: string): boolean {
  return /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobi/i.test(userAgent);
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
