import type { Media } from '@flashbooth/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { MEDIA_PAGE_SIZE, MEDIA_SCREEN_MESSAGES } from '../media-model';

export interface MediaPage {
  items: Media[];
  total_count: number;
}

export const myMediaQueryKey = (search: string, page: number) =>
  ['media', 'regular', 'mine', search, page] as const;

/** GET media (regular API): one page of the visitor's own media, offset paging. */
export function getMyMedia(
  params: { search: string; page: number },
  signal?: AbortSignal,
): Promise<MediaPage> {
  return apiRequest<MediaPage>('regular', 'media', {
    query: {
      search: params.search,
      limit: MEDIA_PAGE_SIZE,
      offset: (params.page - 1) * MEDIA_PAGE_SIZE,
    },
    fallbackMessage: MEDIA_SCREEN_MESSAGES.loadFailed,
    signal,
  });
}

/** Fresh on every visit: new captures keep arriving and uploads finish in the background. */
export function useMyMedia(search: string, page: number) {
  return useQuery({
    queryKey: myMediaQueryKey(search, page),
    queryFn: ({ signal }) => getMyMedia({ search, page }, signal),
    staleTime: 0,
  });
}
