import type { MediaPatch, MediaPatchResult } from '@flashbooth/contracts';
import { apiRequest } from '@/lib/api-client';

/** Exactly one field per call (the server refuses more); the contract's MediaPatch, narrowed. */
export type MediaPatchBody =
  | { is_public: boolean }
  | { caption: string | null }
  | { is_downloaded: true }
  | { is_shared: true };

/** PATCH media/{id} (regular API) with one of is_public, caption, is_downloaded, is_shared. */
export function updateMedia(id: number, body: MediaPatchBody): Promise<MediaPatchResult> {
  return apiRequest<MediaPatchResult>('regular', `media/${id}`, {
    method: 'PATCH',
    body: body satisfies MediaPatch,
  });
}
