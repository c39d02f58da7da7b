import type { WallPage } from '@flashbooth/contracts';

/**
 * What the server puts in the wall page's HTML for the app (`#wall-data`, written by
 * apps/server/src/modules/wall/wall-page.ts): the first page of the wall as a signed-out visitor
 * reads it (the cards the HTML shows), and when it was read, so the app draws the same cards with
 * no request for them, and asks again once they are stale.
 */
export interface InlinedWall {
  rendered_at: number;
  search: string;
  page: number;
  data: WallPage;
}

/** How long after it was read the page's own wall is fresh for the app (no request for it). */
export const INLINED_WALL_FRESH_MS = 30_000;

let read = false;
let inlined: (InlinedWall & { updatedAt: number }) | null = null;

function parse(): InlinedWall | null {
  if (typeof document === 'undefined') return null;
  const text = document.getElementById('wall-data')?.textContent;
  if (!text) return null;
  try {
    const value = JSON.parse(text) as InlinedWall;
    return typeof value.rendered_at === 'number' &&
      typeof value.search === 'string' &&
      typeof value.page === 'number' &&
      Array.isArray(value.data?.items)
      ? value
      : null;
  } catch {
    // A page that does not parse is only a missed head start: the app asks the API.
    return null;
  }
}

/**
 * The wall page the HTML was sent with, when it is this one (the same search and page, signed
 * out: a signed-in visitor's page says which items they like, which the HTML does not know), and
 * when it was read (`updatedAt`: not later than the phone's now, whose clock may be behind).
 */
export function inlinedWall(
  search: string,
  page: number,
  signedIn: boolean,
): (InlinedWall & { updatedAt: number }) | undefined {
  if (!read) {
    const parsed = parse();
    inlined = parsed && { ...parsed, updatedAt: Math.min(parsed.rendered_at, Date.now()) };
    read = true;
  }
  if (!inlined || signedIn || inlined.search !== search || inlined.page !== page) return undefined;
  return inlined;
}
