import type { WallHideState } from '@flashbooth/contracts';
import { MEDIA_LIBRARY_MESSAGES } from '@flashbooth/contracts/rules';
import { apiRequest } from '@/lib/api-client';

/**
 * POST media/{id}/hide (hide from the wall) or DELETE media/{id}/hide (show it again): for
 * privileged staff and the admins of the organization whose booth made it.
 */
export function setWallHidden(id: number, hidden: boolean): Promise<WallHideState> {
  return apiRequest<WallHideState>('enterprise', `media/${id}/hide`, {
    method: hidden ? 'POST' : 'DELETE',
    fallbackMessage: hidden ? MEDIA_LIBRARY_MESSAGES.hideFailed : MEDIA_LIBRARY_MESSAGES.showFailed,
  });
}
