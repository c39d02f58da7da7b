import type { WallPage } from '@flashbooth/contracts';
import { WALL_MESSAGES, WALL_PAGE_SIZE } from '@flashbooth/contracts/rules';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { INLINED_WALL_FRESH_MS, inlinedWall } from './inlined-wall';

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
 * and signed out are two keys: the caller's likes come only with a session. The page the wall's
 * HTML was sent with (signed out, the first page) starts as its data, fresh for
 * INLINED_WALL_FRESH_MS from when the server read it: the app draws the cards the HTML shows
 * without asking for them again.
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
    initialData: () => inlinedWall(search, page, signedIn)?.data,
    initialDataUpdatedAt: () => inlinedWall(search, page, signedIn)?.updatedAt,
    staleTime: (query) =>
      query.state.dataUpdatedAt === inlinedWall(search, page, signedIn)?.updatedAt
        ? INLINED_WALL_FRESH_MS
        : 0,
  });
}

export function usePublicMedia(search: string, page: number, signedIn: boolean) {
  return useQuery(publicMediaQueryOptions({ search, page, signedIn }));
}

/** The wall's pages, every search and page, signed in and out. */
export const WALL_PAGES_KEY = ['media', 'regular', 'public'] as const;

/**
 * Reads the wall's pages again after a change the visitor made (a like or comment done on coming
 * back from sign-in). A page still loading is cancelled first: an invalidation joins a first
 * fetch in flight (a query with no data yet is not refetched), whose answer may have been read
 * before the change, so the card would show the count before the like.
 */
export async function refetchWallAfter(queryClient: QueryClient): Promise<void> {
  await queryClient.cancelQueries({ queryKey: WALL_PAGES_KEY });
  await queryClient.invalidateQueries({ queryKey: WALL_PAGES_KEY });
}
