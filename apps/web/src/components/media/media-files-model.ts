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
  // The same for a video (issue 38): it is not an image.
  shareUnsupportedVideo:
    'Sharing is not supported on this browser. Please download the video manually.',
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

/** What a download's name is made of. */
export interface DownloadNaming {
  id: number;
  media_type: 'image' | 'video';
  s3_key: string | null;
  /** The venue (the organization's name); left out of the name when there is none. */
  org_name: string | null;
  /** UTC, without zone suffix, as the API sends it. */
  created_at: string;
}

/** At most this many characters of the venue in a file name. */
const VENUE_MAX = 40;

/**
 * A name as a file name part: lower-case, letters (any script), marks and digits kept, every run
 * of anything else one dash, at most `max` characters ("Sunrise Mall · Atrium" → sunrise-mall-atrium).
 */
export function fileSlug(text: string, max = VENUE_MAX): string {
  const dashed = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return [...dashed].slice(0, max).join('').replace(/-+$/, '');
}

/** The stored file's extension (from s3_key, else the URL's path), lower-case, without the dot. */
function extensionOf(s3Key: string | null, url: string): string | null {
  let path = s3Key ? lastSegment(s3Key) : '';
  if (!path) {
    try {
      path = decodeURIComponent(lastSegment(new URL(url, 'https://x.invalid').pathname));
    } catch {
      path = '';
    }
  }
  const match = /\.([a-z0-9]{1,5})$/i.exec(path);
  return match ? match[1]!.toLowerCase() : null;
}

/**
 * Issue 38 (beyond the spec's "file name taken from s3_key", which is a UUID): a download is
 * saved as `flashbooth-<venue>-<yyyy-mm-dd>-<id>.<ext>` (flashbooth-sunrise-mall-2025-05-14-42.mp4),
 * so a visitor's downloads folder says where and when each was taken. The date is the item's UTC
 * date, as the screens show times; the venue is left out when there is none (or nothing of it
 * makes a file name); the extension is the stored file's, else jpg or mp4 by type; `extension`
 * overrides it (the `.gif`).
 */
export function downloadFileName(media: DownloadNaming, url: string, extension?: string): string {
  const venue = media.org_name ? fileSlug(media.org_name) : '';
  const date = /^\d{4}-\d{2}-\d{2}/.exec(media.created_at)?.[0];
  const ext =
    extension ?? extensionOf(media.s3_key, url) ?? (media.media_type === 'video' ? 'mp4' : 'jpg');
  return `${['flashbooth', venue, date, String(media.id)].filter(Boolean).join('-')}.${ext}`;
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

/** The `.gif` download's file name: the HD file's (`downloadFileName`) with `.gif`. */
export function gifFileName(media: DownloadNaming, url: string): string {
  return downloadFileName(media, url, 'gif');
}

/** What a browser without a share sheet is told: download the image, or the video. */
export function shareUnsupportedText(mediaType: 'image' | 'video'): string {
  return mediaType === 'video'
    ? MEDIA_FILE_MESSAGES.shareUnsupportedVideo
    : MEDIA_FILE_MESSAGES.shareUnsupported;
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
