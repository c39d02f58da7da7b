import type { Media } from './media.js';

/**
 * How the visitor screens write a value, shared by the web app and the server's own HTML (the
 * wall's first page, apps/server/src/modules/wall/wall-page.ts), so both draw the same text.
 */

const pad = (value: number) => String(value).padStart(2, '0');

/**
 * Spec: timestamps are UTC (sent without a zone suffix) and shown as dd/mm/yyyy hh:mm (24 h).
 * A value with a zone is converted to UTC; null when the value cannot be read.
 */
export function utcTimestampParts(value: string): { date: string; time: string } | null {
  const plain = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/.exec(value);
  if (plain) {
    const [, year, month, day, hour, minute] = plain;
    return { date: `${day}/${month}/${year}`, time: `${hour}:${minute}` };
  }
  const parsed = new Date(value);
  if (Number.isNaN(parsed.getTime())) return null;
  return {
    date: `${pad(parsed.getUTCDate())}/${pad(parsed.getUTCMonth() + 1)}/${parsed.getUTCFullYear()}`,
    time: `${pad(parsed.getUTCHours())}:${pad(parsed.getUTCMinutes())}`,
  };
}

/** "dd/mm/yyyy hh:mm" in UTC, or the value as it came when it cannot be read. */
export function formatUtcTimestamp(value: string): string {
  const parts = utcTimestampParts(value);
  return parts ? `${parts.date} ${parts.time}` : value;
}

/** One slot in a pager: a page number, or a gap shown as an ellipsis. */
export type PageSlot = { kind: 'page'; page: number } | { kind: 'gap'; key: string };

/** How many pages `totalCount` items make at `pageSize` a page (at least 1). */
export function pageCount(totalCount: number, pageSize: number): number {
  if (!Number.isFinite(totalCount) || totalCount <= 0 || pageSize <= 0) return 1;
  return Math.ceil(totalCount / pageSize);
}

/**
 * Spec (section 9): the pager shows the first page, the last page and the neighbours within 1 of
 * the current page, with an ellipsis for each run of hidden pages. Pages are 1-based; a current
 * page outside 1..total is clamped.
 */
export function pageSlots(current: number, total: number): PageSlot[] {
  const last = Math.max(1, Math.floor(total));
  const here = Math.min(Math.max(1, Math.floor(current)), last);
  const shown = new Set([1, last, here - 1, here, here + 1].filter((p) => p >= 1 && p <= last));
  const pages = [...shown].sort((a, b) => a - b);
  const slots: PageSlot[] = [];
  pages.forEach((page, index) => {
    const previous = pages[index - 1];
    if (previous !== undefined && page - previous > 1) {
      slots.push({ kind: 'gap', key: `gap-${previous}-${page}` });
    }
    slots.push({ kind: 'page', page });
  });
  return slots;
}

/** The wall's like button's accessible name: what it is, with the count ("Like, 3 likes"). */
export function likeLabel(likes: number): string {
  return `Like, ${likes} ${likes === 1 ? 'like' : 'likes'}`;
}

/** Spec: a comment without a user name shows "User" (so does a wall card's owner). */
export function displayName(userName: string | null | undefined): string {
  const name = userName?.trim();
  return name ? name : 'User';
}

/** A card's "where": organization and booth, either alone, or "Photobooth". */
export function mediaWhere(media: Pick<Media, 'org_name' | 'device_name'>): string {
  return [media.org_name, media.device_name].filter(Boolean).join(' · ') || 'Photobooth';
}
