import type { Media, RepostAllowed, StatusOk } from '@flashbooth/contracts';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { myMediaQueryOptions } from './get-my-media';
import { patchPageItem } from './media-page-cache';

/** PATCH media/repost_allowed (regular API): repost consent for the listed media. */
export function updateRepostAllowed(body: RepostAllowed): Promise<StatusOk> {
  return apiRequest<StatusOk>('regular', 'media/repost_allowed', {
    method: 'PATCH',
    body,
    fallbackMessage: 'Failed to update repost status. Please try again.',
  });
}

/** My Media shows the consent, so its pages are reloaded when next shown. */
export function useUpdateRepostAllowed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateRepostAllowed,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: myMediaQueryOptions().queryKey });
    },
  });
}

type RepostItem = Pick<Media, 'id' | 'is_repost_allowed'>;

/**
 * One card's repost toggle on the My Media page `pageKey`: it shows at once and reverts to the
 * state before the tap when the call fails (the page is not reloaded).
 */
export function useToggleRepost(pageKey: QueryKey) {
  const queryClient = useQueryClient();
  const patch = (id: number, allowed: boolean) =>
    patchPageItem<Media>(queryClient, pageKey, id, { is_repost_allowed: allowed });
  return useMutation({
    mutationFn: (item: RepostItem) =>
      updateRepostAllowed({ media_ids: [item.id], is_repost_allowed: !item.is_repost_allowed }),
    onMutate: (item) => patch(item.id, !item.is_repost_allowed),
    onError: (_error, item) => patch(item.id, item.is_repost_allowed),
  });
}
