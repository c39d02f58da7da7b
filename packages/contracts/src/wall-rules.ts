/**
 * The public wall's rules (visitor spec: Wall, section 5 "New comment", section 9 page sizes),
 * zod-free so the web bundle can use them through `@flashbooth/contracts/rules`.
 */

/** Wall media a page (visitor spec section 9). */
export const WALL_PAGE_SIZE = 10;
/** Comments a page (visitor spec section 9). */
export const COMMENTS_PAGE_SIZE = 5;
/** A comment is at most this many characters after trimming. */
export const COMMENT_MAX_LENGTH = 500;
/** How many of an organization's newest items its kiosk wall cycles through. */
export const KIOSK_WALL_ITEMS = 20;
/** How long the kiosk wall shows one item before the next. */
export const KIOSK_WALL_SLIDE_MS = 6000;

/** Texts of the wall calls: the screen's own messages are the spec's (visitor.md section 8). */
export const WALL_MESSAGES = {
  mediaNotFound: 'Media not found.',
  commentNotFound: 'Comment not found.',
  commentEmpty: 'Comment must not be empty.',
  commentTooLong: `Comment must be at most ${COMMENT_MAX_LENGTH} characters.`,
  commentUnchanged: 'The comment is unchanged.',
  notYourComment: 'You can only edit or delete your own comments.',
  signInToLike: 'Please sign in to like media.',
  signInToComment: 'Please sign in to comment.',
  notModerator: 'Only the venue’s admins can moderate this media.',
  hideNotPublic:
    'This media is not on the wall: its owner has not made it public, so there is nothing to hide.',
  // The screen's texts (visitor spec section 8, Wall).
  loadFailed: 'Failed to load public media. Please try again.',
  likeFailed: 'Failed to toggle like. Please try again.',
  commentsLoadFailed: 'Failed to load comments.',
  commentAddFailed: 'Failed to add comment.',
  commentUpdateFailed: 'Failed to update comment. Please try again.',
  commentDeleteFailed: 'Failed to delete comment. Please try again.',
  commentAdded: 'Comment added!',
  commentUpdated: 'Comment updated!',
  commentDeleted: 'Comment deleted.',
  empty: 'No public media found.',
  // The kiosk wall (beyond the spec).
  kioskNotFound: 'This venue wall does not exist. Check the address shown on the screen.',
  kioskLoadFailed: 'The wall could not be loaded. It tries again by itself.',
  kioskEmpty: 'No photos on the wall yet. Take one at the booth and make it public!',
  kioskTooManyStreams:
    'Too many live walls are open on this server. The wall still reloads every few minutes.',
} as const;

/** A new comment may be posted (the Post button): trimmed text non-empty and within the limit. */
export function isPostableComment(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.length > 0 && trimmed.length <= COMMENT_MAX_LENGTH;
}

/**
 * What an in-place edit does (visitor spec: Enter saves, unchanged or empty text just cancels):
 * 'save' with the trimmed text, or 'cancel'.
 */
export function commentEditOutcome(
  original: string,
  edited: string,
): { kind: 'save'; text: string } | { kind: 'cancel' } {
  const trimmed = edited.trim();
  if (trimmed === '' || trimmed === original.trim()) return { kind: 'cancel' };
  return { kind: 'save', text: trimmed };
}

/** Who did what in the moderation log. */
export const MODERATION_ACTIONS = ['hide_media', 'show_media', 'delete_comment'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];
