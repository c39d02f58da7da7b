import type { Rollout } from '@flashbooth/contracts';
import { ROLLOUT_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { latestRolloutQueryOptions } from './get-latest-rollout';

export type RolloutAction = 'pause' | 'resume' | 'cancel';

/** POST software/rollouts/{id}/pause | resume | cancel. */
export function changeRollout(rolloutId: number, action: RolloutAction): Promise<Rollout> {
  return apiRequest<Rollout>('enterprise', `software/rollouts/${rolloutId}/${action}`, {
    method: 'POST',
    fallbackMessage: ROLLOUT_MESSAGES.actionFailed,
  });
}

/** The answer is the rollout as it now is; a refusal (409) reloads it, since it moved on. */
export function useChangeRollout(channelId: number) {
  const queryClient = useQueryClient();
  const key = latestRolloutQueryOptions(channelId).queryKey;
  return useMutation({
    mutationFn: ({ rolloutId, action }: { rolloutId: number; action: RolloutAction }) =>
      changeRollout(rolloutId, action),
    onSuccess: (rollout) => queryClient.setQueryData(key, { rollout }),
    onError: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
