import type { CommentPage } from '@flashbooth/contracts';
import { COMMENTS_PAGE_SIZE, WALL_MESSAGES } from '@flashbooth/contracts/rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** GET media/{id}/comments: one page of an item's comments (5 a page), offset paging. */
export function getComments(
  mediaId: number,
  page: number,
  signal?: AbortSignal,
): Promise<CommentPage> {
  return apiRequest<CommentPage>('regular', `media/${mediaId}/comments`, {
    query: { limit: COMMENTS_PAGE_SIZE, offset: (page - 1) * COMMENTS_PAGE_SIZE },
    fallbackMessage: WALL_MESSAGES.commentsLoadFailed,
    signal,
  });
}

/** Without a page, the key covers every page of the item: what a change invalidates. */
export function commentsQueryOptions(mediaId: number, page?: number) {
  return queryOptions({
    queryKey:
      page === undefined
        ? (['media', 'regular', 'comments', mediaId] as const)
        : (['media', 'regular', 'comments', mediaId, page] as const),
    queryFn: ({ signal }) => getComments(mediaId, page ?? 1, signal),
    staleTime: 0,
    // A failed list is emptied (spec), so a retry would only delay the message.
    retry: false,
  });
}

export function useComments(mediaId: number, page: number) {
  return useQuery(commentsQueryOptions(mediaId, page));
}
