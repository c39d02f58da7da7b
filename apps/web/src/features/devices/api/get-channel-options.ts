import type { SoftwareChannel } from '@flashbooth/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { CHANNEL_PICKER_LIMIT, DEVICE_TEXT } from '../devices-model';

/**
 * GET software/channels?limit=200: the Edit Software Channel dialog's picker (the software
 * screens have their own list calls; features do not import each other).
 */
export function getChannelOptions(signal?: AbortSignal): Promise<SoftwareChannel[]> {
  return apiRequest<{ items: SoftwareChannel[] }>('enterprise', 'software/channels', {
    query: { limit: CHANNEL_PICKER_LIMIT, offset: 0 },
    fallbackMessage: DEVICE_TEXT.channelsFailed,
    signal,
  }).then((list) => list.items);
}

export const channelOptionsQueryOptions = () =>
  queryOptions({
    queryKey: ['devices', 'channel-options'] as const,
    queryFn: ({ signal }) => getChannelOptions(signal),
    staleTime: 0,
  });

/** Loaded while the dialog is open (`enabled`). */
export function useChannelOptions(enabled: boolean) {
  return useQuery({ ...channelOptionsQueryOptions(), enabled });
}
