/**
 * The media file pieces every media screen shares (My Media, the wall, the staff media views):
 * texts, download and share names, who may share. Spec: visitor.md sections 7–9, staff.md
 * sections 7–9.
 */
export const MEDIA_FILE_MESSAGES = {
  noDownloadUrl: 'No download URL available for this media.',
  downloadStarted: 'Download started!',
  downloadFailed: 'Download failed. Please try again.',
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

/** Spec section 9: the shared file is named after the media id with jpg. */
export function shareFileName(id: number): string {
  return `${id}.jpg`;
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
