import type { MediaUploaded } from '@flashbooth/contracts';
import { apiRequest } from '@/lib/api-client';

/** GET media/uploaded?media_ids=1,2 (regular API): which of the capture's items are uploaded. */
export function getUploadedMedia(mediaIds: number[]): Promise<MediaUploaded> {
  return apiRequest<MediaUploaded>('regular', 'media/uploaded', {
    query: { media_ids: mediaIds.join(',') },
  });
}
