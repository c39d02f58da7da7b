/**
 * The staff media views (Organization media, All Media): page size, texts and the All Media
 * filter rules, without a schema library, so the web app can use them at runtime through
 * `@flashbooth/contracts/rules` (the zod schemas are in media-library.ts). Staff spec sections 2,
 * 5, 8 and 9.
 */

/** Page size of both views (staff spec section 9); 10 skeleton cards while a page loads. */
export const STAFF_MEDIA_PAGE_SIZE = 10;

export const MEDIA_LIBRARY_MESSAGES = {
  searchPlaceholder: 'Search user, device, captions etc.',
  loadOrganizationMediaFailed: 'Failed to load public media. Please try again.',
  loadAllMediaFailed: 'Failed to load media. Please try again.',
  noPublicMedia: 'No public media found.',
  /** The spec gives All Media no empty text of its own; this one says what was looked for. */
  noMedia: 'No media found.',
  repostAllowed: 'Repost Allowed',
  repostNotAllowed: 'Repost Not Allowed',
  hiddenFromWall: 'Hidden from wall',
  hideFailed: 'Failed to hide this media from the wall. Please try again.',
  showFailed: 'Failed to show this media on the wall again. Please try again.',
  hidden: 'Media hidden from the wall.',
  shown: 'Media shown on the wall again.',
  hideConfirmTitle: 'Hide from wall?',
  hideConfirm:
    'This photo will no longer show on the public wall. Its owner keeps it in My Media, marked as hidden by the venue, and you can show it again at any time.',
  hideConfirmLabel: 'Yes, Hide',
  onlyPrivileged: 'Only super users and product admins can view all media.',
  orgIdInvalid: 'Org ID must be a whole number of at least 1.',
  deviceIdInvalid: 'Device ID must be a whole number of at least 1.',
} as const;

/** The badge of an All Media card (staff spec section 2). */
export function repostBadgeText(isRepostAllowed: boolean): string {
  return isRepostAllowed
    ? MEDIA_LIBRARY_MESSAGES.repostAllowed
    : MEDIA_LIBRARY_MESSAGES.repostNotAllowed;
}

/** The largest id a filter accepts (PostgreSQL integer). */
const FILTER_ID_MAX = 2_147_483_647;

/**
 * One All Media id filter as typed: empty means no filter; otherwise a whole number from 1 up
 * (staff spec section 5: numeric, minimum 1). `invalid` when it is anything else.
 */
export function parseIdFilter(text: string): { ok: true; value?: number } | { ok: false } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true };
  if (!/^\d{1,10}$/.test(trimmed)) return { ok: false };
  const value = Number(trimmed);
  return value >= 1 && value <= FILTER_ID_MAX ? { ok: true, value } : { ok: false };
}
