import { WALL_MESSAGES } from '@flashbooth/contracts/rules';
import { apiRequest } from '@/lib/api-client';

/** DELETE media/comments/{id}. */
export function deleteComment(commentId: number): Promise<void> {
  return apiRequest<void>('regular', `media/comments/${commentId}`, {
    method: 'DELETE',
    fallbackMessage: WALL_MESSAGES.commentDeleteFailed,
  });
}
