import { WALL_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { commentsQueryOptions } from './get-comments';

/** DELETE media/comments/{id}. */
export function deleteComment(commentId: number): Promise<void> {
  return apiRequest<void>('regular', `media/comments/${commentId}`, {
    method: 'DELETE',
    fallbackMessage: WALL_MESSAGES.commentDeleteFailed,
  });
}

/**
 * Item `mediaId`'s comments are reloaded before the call settles; `beforeReload` runs on success
 * just before that reload (the panel moves to the page that still has comments).
 */
export function useDeleteComment(
  mediaId: number,
  { beforeReload }: { beforeReload?: () => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteComment,
    onSuccess: () => {
      beforeReload?.();
      return queryClient.invalidateQueries({ queryKey: commentsQueryOptions(mediaId).queryKey });
    },
  });
}
