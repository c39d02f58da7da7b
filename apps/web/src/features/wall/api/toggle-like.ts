import type { LikeState, Media } from '@flashbooth/contracts';
import { WALL_MESSAGES } from '@flashbooth/contracts/rules';
import {
  type QueryClient,
  type QueryKey,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { patchPageItem } from '@/api/media/media-page-cache';
import { apiRequest } from '@/lib/api-client';
import { likeToggle, type LikeView } from '../wall-model';

/** POST media/{id}/likes (like) or DELETE media/{id}/likes (unlike): the count after it. */
export function setLiked(mediaId: number, liked: boolean): Promise<LikeState> {
  return apiRequest<LikeState>('regular', `media/${mediaId}/likes`, {
    method: liked ? 'POST' : 'DELETE',
    fallbackMessage: WALL_MESSAGES.likeFailed,
  });
}

/** A like, not a toggle (liking twice is one like): the visitor's like on coming back. */
export function useLike() {
  return useMutation({ mutationFn: (mediaId: number) => setLiked(mediaId, true) });
}

type LikedItem = Pick<Media, 'id'> & LikeView;

/**
 * Spec (Wall states): a like toggles at once with its count on the page `pageKey`, takes the
 * server's count when it answers, and reverts to the state before the tap when the call fails.
 */
export function toggleLikeOptions(queryClient: QueryClient, pageKey: QueryKey) {
  const patch = (id: number, change: LikeView) =>
    patchPageItem<Media>(queryClient, pageKey, id, change);
  return {
    mutationFn: (item: LikedItem) => setLiked(item.id, !item.is_liked_by_caller),
    onMutate: (item: LikedItem) => {
      const toggle = likeToggle(item);
      patch(item.id, toggle.optimistic);
      return toggle;
    },
    onSuccess: (answer: LikeState, item: LikedItem, toggle: ReturnType<typeof likeToggle>) =>
      patch(item.id, toggle.settled(answer)),
    onError: (_error: unknown, item: LikedItem, toggle?: ReturnType<typeof likeToggle>) => {
      if (toggle) patch(item.id, toggle.reverted());
    },
  };
}

/** A card's like toggle on the wall page `pageKey` (toggleLikeOptions). */
export function useToggleLike(pageKey: QueryKey) {
  const queryClient = useQueryClient();
  return useMutation(toggleLikeOptions(queryClient, pageKey));
}
