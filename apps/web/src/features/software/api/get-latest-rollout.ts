import type { LatestRollout } from '@flashbooth/contracts';
import { ROLLOUT_MESSAGES } from '@flashbooth/contracts/rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { ROLLOUT_REFRESH_MS, rolloutIsLive } from '../rollout-model';

/** GET software/channels/{id}/rollouts/latest: the channel's newest rollout, or `{rollout: null}`. */
export function getLatestRollout(channelId: number, signal?: AbortSignal): Promise<LatestRollout> {
  return apiRequest<LatestRollout>('enterprise', `software/channels/${channelId}/rollouts/latest`, {
    fallbackMessage: ROLLOUT_MESSAGES.loadFailed,
    signal,
  });
}

/** Reloaded every 2 s while the rollout runs or is paused, so booth states change live. */
export const latestRolloutQueryOptions = (channelId: number) =>
  queryOptions({
    queryKey: ['software', 'channels', 'detail', channelId, 'rollout'] as const,
    queryFn: ({ signal }) => getLatestRollout(channelId, signal),
    refetchInterval: (query) =>
      rolloutIsLive(query.state.data?.rollout ?? null) ? ROLLOUT_REFRESH_MS : false,
  });

export function useLatestRollout(channelId: number, enabled = true) {
  return useQuery({ ...latestRolloutQueryOptions(channelId), enabled });
}
