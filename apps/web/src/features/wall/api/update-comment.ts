import type { Comment } from '@flashbooth/contracts';
import { WALL_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { commentsQueryOptions } from './get-comments';

/** PATCH media/comments/{id} {comment_text}. */
export function updateComment(commentId: number, commentText: string): Promise<Comment> {
  return apiRequest<Comment>('regular', `media/comments/${commentId}`, {
    method: 'PATCH',
    body: { comment_text: commentText },
    fallbackMessage: WALL_MESSAGES.commentUpdateFailed,
  });
}

/**
 * Item `mediaId`'s comments are reloaded before the call settles (the editor closes onto them);
 * `beforeReload` runs on success just before that reload (the screen says it is saved).
 */
export function useUpdateComment(
  mediaId: number,
  { beforeReload }: { beforeReload?: () => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ commentId, text }: { commentId: number; text: string }) =>
      updateComment(commentId, text),
    onSuccess: () => {
      beforeReload?.();
      return queryClient.invalidateQueries({ queryKey: commentsQueryOptions(mediaId).queryKey });
    },
  });
}
