import type { KioskWall, KioskWallItem } from '@flashbooth/contracts';
import { KIOSK_WALL_SLIDE_MS } from '@flashbooth/contracts/rules';

/** With reduced motion asked for, the wall changes half as often (and without a fade). */
export const KIOSK_SLIDE_MS_REDUCED = KIOSK_WALL_SLIDE_MS * 2;
/**
 * The wall reloads its items this often even without a live event: a screen that missed one
 * (a reconnecting stream, another instance's dropped LISTEN) catches up, and logo links stay fresh.
 */
export const KIOSK_RELOAD_MS = 3 * 60 * 1000;
/** Events in a burst (several items made public at once) load the items once. */
export const KIOSK_EVENT_DEBOUNCE_MS = 400;

/** The booth whose page the QR code opens: the one that made the item, else the venue's first. */
export function qrBoothId(wall: Pick<KioskWall, 'booths'>, item: KioskWallItem | undefined) {
  return item?.device_id ?? wall.booths[0]?.id ?? null;
}

/** The booth page's address for the QR code (PUBLIC_URL when set: phones must reach it). */
export function boothUrl(boothId: number, publicUrl: string | undefined, origin: string) {
  return `${(publicUrl?.trim() || origin).replace(/\/+$/, '')}/b/${boothId}`;
}

/**
 * The item to show after the items changed: the newest when a new one arrived on top (a photo
 * just made public shows at once), else the same item where it now stands, else the start.
 */
export function indexAfterReload(
  previous: readonly number[],
  next: readonly number[],
  currentId: number | undefined,
): number {
  if (next.length === 0) return 0;
  if (next[0] !== previous[0] && !previous.includes(next[0]!)) return 0;
  const kept = currentId === undefined ? -1 : next.indexOf(currentId);
  return kept >= 0 ? kept : 0;
}

/** "Likes" under the photo: "1 like", "12 likes"; nothing for none. */
export function likesText(count: number): string | null {
  if (count <= 0) return null;
  return `${count} ${count === 1 ? 'like' : 'likes'}`;
}

/** The SVG path of a QR code's dark modules (one rectangle per run), with a 4-module margin. */
export function qrPathOf(size: number, isDark: (row: number, column: number) => boolean) {
  const margin = 4;
  const parts: string[] = [];
  for (let row = 0; row < size; row += 1) {
    let column = 0;
    while (column < size) {
      if (!isDark(row, column)) {
        column += 1;
        continue;
      }
      const start = column;
      while (column < size && isDark(row, column)) column += 1;
      parts.push(`M${start + margin} ${row + margin}h${column - start}v1h${start - column}z`);
    }
  }
  return { path: parts.join(''), viewBox: size + margin * 2 };
}
