import type { Comment } from '@flashbooth/contracts';
import { WALL_MESSAGES } from '@flashbooth/contracts/rules';
import { apiRequest } from '@/lib/api-client';

/** POST media/{id}/comments {comment_text}. */
export function addComment(mediaId: number, commentText: string): Promise<Comment> {
  return apiRequest<Comment>('regular', `media/${mediaId}/comments`, {
    method: 'POST',
    body: { comment_text: commentText },
    fallbackMessage: WALL_MESSAGES.commentAddFailed,
  });
}
