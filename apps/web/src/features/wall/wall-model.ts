import type { Media } from '@flashbooth/contracts';
import { COMMENT_MAX_LENGTH, WALL_MESSAGES } from '@flashbooth/contracts/rules';

export { COMMENT_MAX_LENGTH, WALL_MESSAGES };

/** Spec section 9: messages on the wall hide after 5 s. */
export const WALL_STATUS_MS = 5000;

/** The like control's state on a card. */
export type LikeView = Pick<Media, 'likes_count' | 'is_liked_by_caller'>;

/**
 * Spec (Wall states): a like toggles at once, the count following; never below 0 (a count the
 * server had already lowered).
 */
export function toggledLike(current: LikeView): LikeView {
  const liked = !current.is_liked_by_caller;
  return {
    is_liked_by_caller: liked,
    likes_count: Math.max(0, current.likes_count + (liked ? 1 : -1)),
  };
}

/**
 * A like toggle from tap to answer: `optimistic` shows at once; `settled` is the server's word
 * when it answers, `reverted` the state before the tap when it fails (spec: revert on failure).
 */
export function likeToggle(current: LikeView) {
  return {
    optimistic: toggledLike(current),
    settled: (answer: LikeView): LikeView => ({
      is_liked_by_caller: answer.is_liked_by_caller,
      likes_count: answer.likes_count,
    }),
    reverted: (): LikeView => ({
      is_liked_by_caller: current.is_liked_by_caller,
      likes_count: current.likes_count,
    }),
  };
}

// Shared with the server's own HTML of the wall's first page (packages/contracts/src/display-rules.ts).
export { displayName, likeLabel, mediaWhere } from '@flashbooth/contracts/rules';

/**
 * The page to show after deleting a comment on `page` that held `itemsOnPage`: the previous
 * page when the last comment of a later page went, else the same page.
 */
export function pageAfterDelete(page: number, itemsOnPage: number): number {
  return itemsOnPage <= 1 && page > 1 ? page - 1 : page;
}

/** Where a card's messages show (MessageTimer `at`): under its like button, or its comment box. */
export const wallMessageAt = {
  card: (id: number) => `wall-${id}`,
  comments: (id: number) => `wall-${id}-comments`,
};
