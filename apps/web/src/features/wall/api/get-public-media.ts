import type { WallPage } from '@flashbooth/contracts';
import { WALL_MESSAGES, WALL_PAGE_SIZE } from '@flashbooth/contracts/rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** GET media/public (regular API): one page of the wall, newest first, offset paging. */
export function getPublicMedia(
  params: { search: string; page: number; signedIn: boolean },
  signal?: AbortSignal,
): Promise<WallPage> {
  return apiRequest<WallPage>('regular', 'media/public', {
    // Signed out, the wall is read without a token (and no session renewal is tried).
    auth: params.signedIn,
    query: {
      search: params.search,
      limit: WALL_PAGE_SIZE,
      offset: (params.page - 1) * WALL_PAGE_SIZE,
    },
    fallbackMessage: WALL_MESSAGES.loadFailed,
    signal,
  });
}

/**
 * One page of the wall. Fresh on every visit: the wall changes with every visitor. Signed in
 * and signed out are two keys: the caller's likes come only with a session.
 */
export function publicMediaQueryOptions({
  search,
  page,
  signedIn,
}: {
  search: string;
  page: number;
  signedIn: boolean;
}) {
  return queryOptions({
    queryKey: ['media', 'regular', 'public', search, page, signedIn] as const,
    queryFn: ({ signal }) => getPublicMedia({ search, page, signedIn }, signal),
    staleTime: 0,
  });
}

export function usePublicMedia(search: string, page: number, signedIn: boolean) {
  return useQuery(publicMediaQueryOptions({ search, page, signedIn }));
}
