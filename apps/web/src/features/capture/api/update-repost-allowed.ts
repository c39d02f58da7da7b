import type { RepostAllowed } from '@flashbooth/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { CAPTURE_MESSAGES } from '../capture-machine';

/** PATCH media/repost_allowed (regular API): the visitor's repost consent for the capture. */
export function updateRepostAllowed(body: RepostAllowed): Promise<unknown> {
  return apiRequest<unknown>('regular', 'media/repost_allowed', {
    method: 'PATCH',
    body,
    fallbackMessage: CAPTURE_MESSAGES.repostFailed,
  });
}

export function useUpdateRepostAllowed() {
  return useMutation({ mutationFn: updateRepostAllowed });
}
