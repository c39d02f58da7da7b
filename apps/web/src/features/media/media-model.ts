import { MEDIA_FILE_MESSAGES } from '@/components/media/media-files-model';

/** My Media texts (spec: visitor.md section 8, "Media"). */
export const MEDIA_SCREEN_MESSAGES = {
  ...MEDIA_FILE_MESSAGES,
  loadFailed: 'Failed to load media. Please try again.',
  empty: 'No media found.',
  publicFailed: 'Failed to toggle public status. Please try again.',
  repostFailed: 'Failed to update repost status. Please try again.',
  captionFailed: 'Failed to update caption. Please try again.',
  captionUnchanged: 'No changes detected.',
  // Beyond the spec's list (issue 20): a saved or cleared caption is confirmed.
  captionSaved: 'Caption saved.',
  captionRemoved: 'Caption removed.',
  // The server's refusal (contracts MEDIA_MESSAGES.captionTooLong), shown as the text goes over.
  captionTooLong: 'Caption must be at most 500 characters.',
} as const;

/** Where a card's messages show (MessageTimer `at`): under its caption, or under its buttons. */
export const messageAt = {
  caption: (id: number) => `media-${id}-caption`,
  card: (id: number) => `media-${id}`,
};

/** Moderation (issue 13, beyond the spec): the venue hid a public item from the wall. */
export const MEDIA_HIDDEN_FROM_WALL = 'Hidden from the Wall by the venue.';

/** Spec section 9: messages on the media screen hide after 5 s. */
export const MEDIA_STATUS_MS = 5000;
/** The server's caption limit (contracts CAPTION_MAX_LENGTH; not on the zod-free rules path). */
export const MEDIA_CAPTION_MAX = 500;

export type CaptionChange = { kind: 'unchanged' } | { kind: 'save'; caption: string | null };

/** Spec: the caption is trimmed, an empty one becomes null; the same caption is no change. */
export function captionChange(current: string | null, draft: string): CaptionChange {
  const trimmed = draft.trim();
  const next = trimmed === '' ? null : trimmed;
  const before = current?.trim() ? current.trim() : null;
  return next === before ? { kind: 'unchanged' } : { kind: 'save', caption: next };
}
