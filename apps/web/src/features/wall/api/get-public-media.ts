import type { WallPage } from '@flashbooth/contracts';
import { WALL_MESSAGES, WALL_PAGE_SIZE } from '@flashbooth/contracts/rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** GET media/public (regular API): one page of the wall, newest first, offset paging. */
export function getPublicMedia(
  params: { search: string; page: number },
  signal?: AbortSignal,
): Promise<WallPage> {
  return apiRequest<WallPage>('regular', 'media/public', {
    query: {
      search: params.search,
      limit: WALL_PAGE_SIZE,
      offset: (params.page - 1) * WALL_PAGE_SIZE,
    },
    fallbackMessage: WALL_MESSAGES.loadFailed,
    signal,
  });
}

/** One page of the wall. Fresh on every visit: the wall changes with every visitor. */
export function publicMediaQueryOptions({ search, page }: { search: string; page: number }) {
  return queryOptions({
    queryKey: ['media', 'regular', 'public', search, page] as const,
    queryFn: ({ signal }) => getPublicMedia({ search, page }, signal),
    staleTime: 0,
  });
}

export function usePublicMedia(search: string, page: number) {
  return useQuery(publicMediaQueryOptions({ search, page }));
}
