import {
  MEDIA_FILE_MESSAGES,
  isAbortError,
  pickShareCaption,
} from '@/components/media/media-files-model';
import type { ActionOutcome } from '@/components/media/media-files';

/**
 * The absolute address of an item's share page: PUBLIC_URL when the installation sets it (a link
 * sent to a friend must not name an internal host), else this page's origin.
 */
export function sharePageUrl(sharePath: string, publicUrl: string | undefined, origin: string) {
  const base = (publicUrl?.trim() || origin).replace(/\/+$/, '');
  return `${base}${sharePath}`;
}

/**
 * Share for a public item: its share page's link through the device share sheet (the page shows
 * the photo, the venue and a preview in WhatsApp and the like), with a preset caption. A private
 * item keeps today's share (the file, else its link). A dismissed sheet is silent.
 */
export async function shareMediaPage(url: string): Promise<ActionOutcome> {
  if (typeof navigator.share !== 'function') {
    return { kind: 'error', text: MEDIA_FILE_MESSAGES.shareUnsupported, done: false };
  }
  try {
    await navigator.share({ url, title: 'Flashbooth', text: pickShareCaption() });
    return { kind: 'success', text: MEDIA_FILE_MESSAGES.sharedUrl, done: true };
  } catch (error) {
    if (isAbortError(error)) return { kind: 'silent', done: false };
    return { kind: 'error', text: MEDIA_FILE_MESSAGES.shareFailed, done: false };
  }
}
