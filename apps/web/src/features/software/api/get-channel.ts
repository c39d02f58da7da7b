import type { SoftwareChannel } from '@flashbooth/contracts';
import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** GET software/channels/{id}. */
export function getChannel(channelId: number, signal?: AbortSignal): Promise<SoftwareChannel> {
  return apiRequest<SoftwareChannel>('enterprise', `software/channels/${channelId}`, {
    fallbackMessage: SOFTWARE_MESSAGES.loadChannelFailed,
    signal,
  });
}

export const channelQueryOptions = (channelId: number) =>
  queryOptions({
    queryKey: ['software', 'channels', 'detail', channelId] as const,
    queryFn: ({ signal }) => getChannel(channelId, signal),
  });

export function useChannel(channelId: number) {
  return useQuery(channelQueryOptions(channelId));
}
