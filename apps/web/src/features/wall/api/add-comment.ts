import type { Comment } from '@flashbooth/contracts';
import { WALL_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { commentsQueryOptions } from './get-comments';

/** POST media/{id}/comments {comment_text}. */
export function addComment(mediaId: number, commentText: string): Promise<Comment> {
  return apiRequest<Comment>('regular', `media/${mediaId}/comments`, {
    method: 'POST',
    body: { comment_text: commentText },
    fallbackMessage: WALL_MESSAGES.commentAddFailed,
  });
}

/**
 * The item's comments are reloaded before the call settles (newest first: the new comment is at
 * the top of page 1), so what the screen says next comes once the list has grown; `beforeReload`
 * runs on success just before that reload (the panel goes back to page 1).
 */
export function useAddComment({ beforeReload }: { beforeReload?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ mediaId, text }: { mediaId: number; text: string }) => addComment(mediaId, text),
    onSuccess: (_comment, { mediaId }) => {
      beforeReload?.();
      return queryClient.invalidateQueries({ queryKey: commentsQueryOptions(mediaId).queryKey });
    },
  });
}
