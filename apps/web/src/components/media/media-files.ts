import type { Media } from '@flashbooth/contracts';
import {
  MEDIA_FILE_MESSAGES,
  downloadFileName,
  isAbortError,
  pickShareCaption,
  shareFileName,
} from './media-files-model';

/** What a download or share needs of an item (a visitor's own, a wall item, a staff item). */
export type MediaFile = Pick<Media, 'id' | 's3_url' | 's3_key'>;

/** What an action ended with: a message to show, or nothing (a dismissed share sheet). */
export type ActionOutcome =
  | { kind: 'success'; text: string; done: boolean }
  | { kind: 'error'; text: string; done: false }
  | { kind: 'silent'; done: false };

const failure = (text: string): ActionOutcome => ({ kind: 'error', text, done: false });

/** Spec section 7: fetch the HD file cross-origin as a blob and save it under its file name. */
export async function downloadMedia(media: MediaFile): Promise<ActionOutcome> {
  const url = media.s3_url;
  if (!url) return failure(MEDIA_FILE_MESSAGES.noDownloadUrl);
  try {
    const response = await fetch(url, { mode: 'cors', credentials: 'omit' });
    if (!response.ok) return failure(MEDIA_FILE_MESSAGES.downloadFailed);
    const blob = await response.blob();
    const objectUrl = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = objectUrl;
    link.download = downloadFileName(media.s3_key, url, shareFileName(media.id));
    link.rel = 'noopener';
    link.style.display = 'none';
    document.body.append(link);
    link.click();
    link.remove();
    // Give the browser a moment to start reading the blob before it is released.
    setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
    return { kind: 'success', text: MEDIA_FILE_MESSAGES.downloadStarted, done: true };
  } catch {
    return failure(MEDIA_FILE_MESSAGES.downloadFailed);
  }
}

async function fetchShareFile(url: string, id: number): Promise<File | null> {
  try {
    const response = await fetch(url, { mode: 'cors', credentials: 'omit' });
    if (!response.ok) return null;
    const blob = await response.blob();
    return new File([blob], shareFileName(id), { type: blob.type || 'image/jpeg' });
  } catch {
    return null;
  }
}

/**
 * Spec section 7: the file through the device share sheet when it can take files, otherwise the
 * URL; the text is a random preset caption. A dismissed sheet (AbortError) is silent.
 */
export async function shareMedia(media: MediaFile): Promise<ActionOutcome> {
  const url = media.s3_url;
  if (!url) return failure(MEDIA_FILE_MESSAGES.noShareUrl);
  if (typeof navigator.share !== 'function') return failure(MEDIA_FILE_MESSAGES.shareUnsupported);
  const text = pickShareCaption();
  try {
    const file = await fetchShareFile(url, media.id);
    if (file && navigator.canShare?.({ files: [file] })) {
      await navigator.share({ files: [file], title: 'Flashbooth', text });
      return { kind: 'success', text: MEDIA_FILE_MESSAGES.shared, done: true };
    }
    await navigator.share({ url, title: 'Flashbooth', text });
    return { kind: 'success', text: MEDIA_FILE_MESSAGES.sharedUrl, done: true };
  } catch (error) {
    if (isAbortError(error)) return { kind: 'silent', done: false };
    return failure(MEDIA_FILE_MESSAGES.shareFailed);
  }
}
