import type { LikeState } from '@flashbooth/contracts';
import { WALL_MESSAGES } from '@flashbooth/contracts/rules';
import { apiRequest } from '@/lib/api-client';

/** POST media/{id}/likes (like) or DELETE media/{id}/likes (unlike): the count after it. */
export function setLiked(mediaId: number, liked: boolean): Promise<LikeState> {
  return apiRequest<LikeState>('regular', `media/${mediaId}/likes`, {
    method: liked ? 'POST' : 'DELETE',
    fallbackMessage: WALL_MESSAGES.likeFailed,
  });
}
