import type { CommentPage } from '@flashbooth/contracts';
import { COMMENTS_PAGE_SIZE, WALL_MESSAGES } from '@flashbooth/contracts/rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** GET media/{id}/comments: one page of an item's comments (5 a page), offset paging. */
export function getComments(
  mediaId: number,
  page: number,
  signal?: AbortSignal,
  signedIn = true,
): Promise<CommentPage> {
  return apiRequest<CommentPage>('regular', `media/${mediaId}/comments`, {
    // Signed out, comments are read without a token (can_edit is then false for all).
    auth: signedIn,
    query: { limit: COMMENTS_PAGE_SIZE, offset: (page - 1) * COMMENTS_PAGE_SIZE },
    fallbackMessage: WALL_MESSAGES.commentsLoadFailed,
    signal,
  });
}

/**
 * Without a page, the key covers every page of the item: what a change invalidates. Signed in
 * and signed out are two keys (can_edit is the caller's).
 */
export function commentsQueryOptions(mediaId: number, page?: number, signedIn = true) {
  return queryOptions({
    queryKey:
      page === undefined
        ? (['media', 'regular', 'comments', mediaId] as const)
        : (['media', 'regular', 'comments', mediaId, page, signedIn] as const),
    queryFn: ({ signal }) => getComments(mediaId, page ?? 1, signal, signedIn),
    staleTime: 0,
    // A failed list is emptied (spec), so a retry would only delay the message.
    retry: false,
  });
}

export function useComments(mediaId: number, page: number, signedIn = true) {
  return useQuery(commentsQueryOptions(mediaId, page, signedIn));
}
