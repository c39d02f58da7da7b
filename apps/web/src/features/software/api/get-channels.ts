import type { SoftwareChannelList } from '@flashbooth/contracts';
import { SOFTWARE_MESSAGES, SOFTWARE_PAGE_SIZE } from '@flashbooth/contracts/rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** GET software/channels: one page of 9, newest first, searching name and description. */
export function getChannels(
  params: { search: string; page: number },
  signal?: AbortSignal,
): Promise<SoftwareChannelList> {
  return apiRequest<SoftwareChannelList>('enterprise', 'software/channels', {
    query: {
      search: params.search,
      limit: SOFTWARE_PAGE_SIZE,
      offset: (params.page - 1) * SOFTWARE_PAGE_SIZE,
    },
    fallbackMessage: SOFTWARE_MESSAGES.loadChannelsFailed,
    signal,
  });
}

/** Without arguments: the key of every page, which the mutations invalidate. */
export const channelsQueryOptions = (params?: { search: string; page: number }) =>
  queryOptions({
    queryKey: params
      ? (['software', 'channels', 'list', params.search, params.page] as const)
      : (['software', 'channels', 'list'] as const),
    queryFn: ({ signal }) => getChannels(params ?? { search: '', page: 1 }, signal),
  });

export function useChannels(search: string, page: number) {
  return useQuery(channelsQueryOptions({ search, page }));
}
