import type { RepostAllowed, StatusOk } from '@flashbooth/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { myMediaQueryOptions } from './get-my-media';

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
