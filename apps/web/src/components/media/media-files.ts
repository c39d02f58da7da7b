import type { Media } from '@flashbooth/contracts';
import { saveBlob } from '@/lib/save-blob';
import {
  MEDIA_FILE_MESSAGES,
  downloadFileName,
  gifFileName,
  isAbortError,
  pickShareCaption,
  shareFileName,
  shareFileType,
  shareUnsupportedText,
} from './media-files-model';

/**
 * What a download or share needs of an item (a visitor's own, a wall item, a staff item). For a
 * motion item `s3_url` is its MP4; the venue and date name a download (downloadFileName).
 */
export type MediaFile = Pick<
  Media,
  'id' | 's3_url' | 's3_key' | 'media_type' | 'org_name' | 'created_at'
>;

/** What an action ended with: a message to show, or nothing (a dismissed share sheet). */
export type ActionOutcome =
  | { kind: 'success'; text: string; done: boolean }
  | { kind: 'error'; text: string; done: false }
  | { kind: 'silent'; done: false };

const failure = (text: string): ActionOutcome => ({ kind: 'error', text, done: false });

/** Fetches `url` cross-origin as a blob and saves it as `fileName`. */
async function saveFromUrl(url: string, fileName: string): Promise<ActionOutcome> {
  try {
    const response = await fetch(url, { mode: 'cors', credentials: 'omit' });
    if (!response.ok) return failure(MEDIA_FILE_MESSAGES.downloadFailed);
    saveBlob(await response.blob(), fileName);
    return { kind: 'success', text: MEDIA_FILE_MESSAGES.downloadStarted, done: true };
  } catch {
    return failure(MEDIA_FILE_MESSAGES.downloadFailed);
  }
}

/**
 * Spec section 7: fetch the HD file cross-origin as a blob and save it, named after the venue
 * and the date (downloadFileName; a motion item's MP4 keeps `.mp4`).
 */
export async function downloadMedia(media: MediaFile): Promise<ActionOutcome> {
  const url = media.s3_url;
  if (!url) return failure(MEDIA_FILE_MESSAGES.noDownloadUrl);
  return saveFromUrl(url, downloadFileName(media, url));
}

/** Download GIF (the gif kind): the `.gif` the booth made, named as the HD file (`.gif`). */
export async function downloadGif(
  media: MediaFile & { gif_s3_url: string | null },
): Promise<ActionOutcome> {
  const url = media.gif_s3_url;
  if (!url) return failure(MEDIA_FILE_MESSAGES.noGifUrl);
  return saveFromUrl(url, gifFileName(media, media.s3_url ?? url));
}

async function fetchShareFile(url: string, media: MediaFile): Promise<File | null> {
  try {
    const response = await fetch(url, { mode: 'cors', credentials: 'omit' });
    if (!response.ok) return null;
    const blob = await response.blob();
    return new File([blob], shareFileName(media.id, media.media_type), {
      type: blob.type || shareFileType(media.media_type),
    });
  } catch {
    return null;
  }
}

/**
 * Spec section 7: the file through the device share sheet when it can take files (a motion
 * item's MP4 itself), otherwise the link: `link` when the caller has one (a public item's share
 * page), else the file's URL. The text is a random preset caption. A dismissed sheet
 * (AbortError) is silent.
 */
export async function shareMedia(media: MediaFile, link?: string): Promise<ActionOutcome> {
  const url = media.s3_url;
  if (!url) return failure(MEDIA_FILE_MESSAGES.noShareUrl);
  if (typeof navigator.share !== 'function') return failure(shareUnsupportedText(media.media_type));
  const text = pickShareCaption();
  try {
    const file = await fetchShareFile(url, media);
    if (file && navigator.canShare?.({ files: [file] })) {
      await navigator.share({ files: [file], title: 'Flashbooth', text });
      return { kind: 'success', text: MEDIA_FILE_MESSAGES.shared, done: true };
    }
    await navigator.share({ url: link ?? url, title: 'Flashbooth', text });
    return { kind: 'success', text: MEDIA_FILE_MESSAGES.sharedUrl, done: true };
  } catch (error) {
    if (isAbortError(error)) return { kind: 'silent', done: false };
    return failure(MEDIA_FILE_MESSAGES.shareFailed);
  }
}
