import type { StaffMediaItem, WallHideState } from '@flashbooth/contracts';
import { MEDIA_LIBRARY_MESSAGES } from '@flashbooth/contracts/rules';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { patchPageItem } from '@/api/media/media-page-cache';
import { apiRequest } from '@/lib/api-client';

/**
 * POST media/{id}/hide (hide from the wall) or DELETE media/{id}/hide (show it again): for
 * privileged staff and the admins of the organization whose booth made it.
 */
export function setWallHidden(id: number, hidden: boolean): Promise<WallHideState> {
  return apiRequest<WallHideState>('enterprise', `media/${id}/hide`, {
    method: hidden ? 'POST' : 'DELETE',
    fallbackMessage: hidden ? MEDIA_LIBRARY_MESSAGES.hideFailed : MEDIA_LIBRARY_MESSAGES.showFailed,
  });
}

/**
 * Hide from wall / Show on wall for an item on the staff page `pageKey` (either view): the card
 * takes the server's answer.
 */
export function useSetWallHidden(pageKey: QueryKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, hidden }: { id: number; hidden: boolean }) => setWallHidden(id, hidden),
    onSuccess: (state, { id }) =>
      patchPageItem<StaffMediaItem>(
        queryClient,
        pageKey,
        id,
        { hidden_from_wall: state.hidden_from_wall },
        { cancel: false },
      ),
  });
}
