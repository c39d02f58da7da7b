import type { VisitorTemplatePage } from '@flashbooth/contracts';
import { BOOTH_TEMPLATES_PAGE_SIZE } from '@flashbooth/contracts/rules';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { BOOTH_MESSAGES } from '../booth-model';
import { inlinedBooth } from './inlined-booth';

/**
 * GET devices/{id}/templates (regular API): one page of the booth's templates. Paging is by
 * cursor: pass the previous page's last_evaluated_key back; null means there are no more.
 */
export function getDeviceTemplates(
  deviceId: number,
  params: { search: string; lastEvaluatedKey: string | null },
  signal?: AbortSignal,
): Promise<VisitorTemplatePage> {
  return apiRequest<VisitorTemplatePage>('regular', `devices/${deviceId}/templates`, {
    query: {
      search: params.search,
      limit: BOOTH_TEMPLATES_PAGE_SIZE,
      last_evaluated_key: params.lastEvaluatedKey,
    },
    fallbackMessage: BOOTH_MESSAGES.templatesFailed,
    signal,
  });
}

/** A new search is a new key, so the list starts again from the first page. */
export const deviceTemplatesQueryOptions = (deviceId: number, search: string) =>
  infiniteQueryOptions({
    queryKey: ['devices', 'visitor', deviceId, 'templates', search] as const,
    queryFn: ({ pageParam, signal }) =>
      getDeviceTemplates(deviceId, { search, lastEvaluatedKey: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.last_evaluated_key ?? undefined,
    // The first page (no search) as the page's HTML was sent with it.
    initialData: () => {
      const inlined = search === '' ? inlinedBooth(deviceId) : undefined;
      return inlined && { pages: [inlined.templates], pageParams: [null] };
    },
    initialDataUpdatedAt: () => (search === '' ? inlinedBooth(deviceId)?.rendered_at : undefined),
  });

export function useDeviceTemplates(deviceId: number | null, search: string, enabled: boolean) {
  return useInfiniteQuery({
    ...deviceTemplatesQueryOptions(deviceId ?? 0, search),
    enabled: enabled && deviceId !== null,
  });
}
