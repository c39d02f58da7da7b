import type { MediaPage } from '@flashbooth/contracts';
import { MEDIA_PAGE_SIZE } from '@flashbooth/contracts/rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** GET media (regular API): one page of the visitor's own media, offset paging. */
export function getMyMedia(
  params: { search: string; page: number },
  signal?: AbortSignal,
): Promise<MediaPage> {
  return apiRequest<MediaPage>('regular', 'media', {
    query: {
      search: params.search,
      limit: MEDIA_PAGE_SIZE,
      offset: (params.page - 1) * MEDIA_PAGE_SIZE,
    },
    fallbackMessage: 'Failed to load media. Please try again.',
    signal,
  });
}

/**
 * One page of My Media. Without a page its key covers every page: what a change to the
 * visitor's media invalidates. Fresh on every visit: new captures keep arriving and uploads
 * finish in the background.
 */
export function myMediaQueryOptions({
  search = '',
  page,
}: { search?: string; page?: number } = {}) {
  return queryOptions({
    queryKey:
      page === undefined
        ? (['media', 'regular', 'mine'] as const)
        : (['media', 'regular', 'mine', search, page] as const),
    queryFn: ({ signal }) => getMyMedia({ search, page: page ?? 1 }, signal),
    staleTime: 0,
    // An item on its way from the booth shows up by itself: the page asks again while one waits.
    refetchInterval: (query) =>
      query.state.data?.items.some((item) => !item.is_uploaded) ? WAITING_REFRESH_MS : false,
  });
}

/** How often My Media looks again while an item is still on its way from the booth. */
export const WAITING_REFRESH_MS = 10_000;

export function useMyMedia(search: string, page: number) {
  return useQuery(myMediaQueryOptions({ search, page }));
}
