import type { Rollout, RolloutStart } from '@flashbooth/contracts';
import { ROLLOUT_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { latestRolloutQueryOptions } from './get-latest-rollout';

/** POST software/channels/{id}/rollouts: rolls the channel's linked release out in waves. */
export function startRollout(channelId: number, body: RolloutStart = {}): Promise<Rollout> {
  return apiRequest<Rollout>('enterprise', `software/channels/${channelId}/rollouts`, {
    method: 'POST',
    body,
    fallbackMessage: ROLLOUT_MESSAGES.startFailed,
  });
}

/** The new rollout becomes the channel's latest at once (its refresh then keeps it current). */
export function useStartRollout(channelId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RolloutStart = {}) => startRollout(channelId, body),
    onSuccess: (rollout) =>
      queryClient.setQueryData(latestRolloutQueryOptions(channelId).queryKey, { rollout }),
  });
}
