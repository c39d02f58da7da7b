import { paths } from '@/config/paths';

/**
 * What a signed-out visitor tapped on the wall (Like, or Post with their comment), kept for the
 * trip through sign-in: the wall performs it when they come back signed in, on the same card.
 * Kept in session storage beside the redirect-after-login path, so it stays in this tab only.
 */
export type WallIntent =
  | { action: 'like'; mediaId: number; at: number }
  | { action: 'comment'; mediaId: number; text: string; at: number };

export const WALL_INTENT_STORAGE_KEY = 'wallIntent';
/** An intent older than this is dropped: the visitor has moved on. */
export const WALL_INTENT_MAX_AGE_MS = 30 * 60 * 1000;

/** The element id of a wall card (its address fragment, `#wall-item-12`). */
export const wallItemAnchor = (mediaId: number) => `wall-item-${mediaId}`;

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function rememberWallIntent(intent: WallIntent, store: Store = sessionStorage): void {
  store.setItem(WALL_INTENT_STORAGE_KEY, JSON.stringify(intent));
}

function parseIntent(raw: string | null): WallIntent | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<WallIntent> & { text?: unknown };
    if (!Number.isInteger(value.mediaId) || typeof value.at !== 'number') return null;
    if (value.action === 'like') return { action: 'like', mediaId: value.mediaId!, at: value.at };
    if (value.action === 'comment' && typeof value.text === 'string' && value.text.trim()) {
      return { action: 'comment', mediaId: value.mediaId!, text: value.text, at: value.at };
    }
  } catch {
    // Not ours: ignored.
  }
  return null;
}

/** The stored intent, when there is a fresh one, left in store. */
export function peekWallIntent(now: number, store: Store = sessionStorage): WallIntent | null {
  const intent = parseIntent(store.getItem(WALL_INTENT_STORAGE_KEY));
  if (!intent || now - intent.at > WALL_INTENT_MAX_AGE_MS || intent.at > now + 60_000) return null;
  return intent;
}

/** Returns and forgets the stored intent, when there is a fresh one. */
export function takeWallIntent(now: number, store: Store = sessionStorage): WallIntent | null {
  const intent = peekWallIntent(now, store);
  store.removeItem(WALL_INTENT_STORAGE_KEY);
  return intent;
}

/**
 * The stored intent for the card the wall has just been opened at (`hash`, the address's
 * fragment: `#wall-item-12`), taken (forgotten) only then: a render at another address (the
 * wall before the router has the fragment, another card's) leaves it for the one it is for.
 */
export function takeWallIntentFor(
  hash: string,
  now: number,
  store: Store = sessionStorage,
): WallIntent | null {
  const intent = peekWallIntent(now, store);
  if (!intent || hash !== `#${wallItemAnchor(intent.mediaId)}`) return null;
  store.removeItem(WALL_INTENT_STORAGE_KEY);
  return intent;
}

/** Where sign-in returns to: the same wall page (search and page kept) at the card. */
export function wallReturnPath(search: string, mediaId: number): string {
  return `${paths.regular.wall.path}${search}#${wallItemAnchor(mediaId)}`;
}
