import { apiRequest } from '@/lib/api-client';

export interface UploadedMedia {
  media_items: { id: number; is_uploaded: boolean }[];
}

/** GET media/uploaded?media_ids=1,2 (regular API): which of the capture's items are uploaded. */
export function getUploadedMedia(mediaIds: number[]): Promise<UploadedMedia> {
  return apiRequest<UploadedMedia>('regular', 'media/uploaded', {
    query: { media_ids: mediaIds.join(',') },
  });
}
