import type { RepostAllowed } from '@flashbooth/contracts';
import { apiRequest } from '@/lib/api-client';

/** PATCH media/repost_allowed (regular API): repost consent for the listed media. */
export function updateRepostAllowed(body: RepostAllowed): Promise<{ status: 'ok' }> {
  return apiRequest<{ status: 'ok' }>('regular', 'media/repost_allowed', {
    method: 'PATCH',
    body,
  });
}
