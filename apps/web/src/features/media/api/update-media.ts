import type { Media, MediaPatch, MediaPatchResult } from '@flashbooth/contracts';
import {
  type QueryClient,
  type QueryKey,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { patchPageItem } from '@/api/media/media-page-cache';
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

type PublicItem = Pick<Media, 'id' | 'is_public' | 'share_path'>;

/**
 * The public toggle of an item on the My Media page `pageKey`: it shows at once and reverts when
 * the call fails; an item made public brings the page again, for its share page's address.
 */
export function setPublicOptions(queryClient: QueryClient, pageKey: QueryKey) {
  const patch = (id: number, change: Partial<Media>) =>
    patchPageItem<Media>(queryClient, pageKey, id, change);
  return {
    mutationFn: (item: PublicItem) => updateMedia(item.id, { is_public: !item.is_public }),
    onMutate: (item: PublicItem) => {
      const next = !item.is_public;
      // A private item has no share page (it answers 404 at once).
      patch(item.id, next ? { is_public: next } : { is_public: next, share_path: null });
    },
    onError: (_error: unknown, item: PublicItem) =>
      patch(item.id, { is_public: item.is_public, share_path: item.share_path }),
    onSuccess: (_result: MediaPatchResult, item: PublicItem) => {
      if (!item.is_public) {
        void queryClient.invalidateQueries({ queryKey: pageKey, exact: true });
      }
    },
  };
}

export function useSetPublic(pageKey: QueryKey) {
  const queryClient = useQueryClient();
  return useMutation(setPublicOptions(queryClient, pageKey));
}

/** A caption saved (or cleared: null) on the My Media page `pageKey`: the card takes the answer. */
export function useSaveCaption(pageKey: QueryKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, caption }: { id: number; caption: string | null }) =>
      updateMedia(id, { caption }),
    onSuccess: (saved, { id }) =>
      patchPageItem<Media>(queryClient, pageKey, id, {
        caption: saved.caption,
        updated_at: saved.updated_at,
      }),
  });
}

/**
 * Bookkeeping once the visitor has the file (downloaded or shared): the card shows it at once.
 * A failure stays quiet (use `mutate`): the visitor already has the file.
 */
export function useRecordMediaUse(pageKey: QueryKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, use }: { id: number; use: 'downloaded' | 'shared' }) =>
      updateMedia(id, use === 'shared' ? { is_shared: true } : { is_downloaded: true }),
    onMutate: ({ id, use }) =>
      patchPageItem<Media>(
        queryClient,
        pageKey,
        id,
        use === 'shared' ? { is_shared: true } : { is_downloaded: true },
      ),
  });
}
