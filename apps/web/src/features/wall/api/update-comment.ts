import type { Comment } from '@flashbooth/contracts';
import { WALL_MESSAGES } from '@flashbooth/contracts/rules';
import { apiRequest } from '@/lib/api-client';

/** PATCH media/comments/{id} {comment_text}. */
export function updateComment(commentId: number, commentText: string): Promise<Comment> {
  return apiRequest<Comment>('regular', `media/comments/${commentId}`, {
    method: 'PATCH',
    body: { comment_text: commentText },
    fallbackMessage: WALL_MESSAGES.commentUpdateFailed,
  });
}
