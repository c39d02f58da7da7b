import type { StaffMediaPage } from '@flashbooth/contracts';
import { MEDIA_LIBRARY_MESSAGES, STAFF_MEDIA_PAGE_SIZE } from '@flashbooth/contracts/rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { AllMediaFilters } from '../staff-media-model';

interface AllMediaParams extends AllMediaFilters {
  search: string;
  page: number;
}

/** GET media/all: every item, by organization and booth (super users and product admins). */
export function getAllMedia(params: AllMediaParams, signal?: AbortSignal): Promise<StaffMediaPage> {
  return apiRequest<StaffMediaPage>('enterprise', 'media/all', {
    query: {
      search: params.search,
      limit: STAFF_MEDIA_PAGE_SIZE,
      offset: (params.page - 1) * STAFF_MEDIA_PAGE_SIZE,
      org_id: params.orgId,
      device_id: params.deviceId,
    },
    fallbackMessage: MEDIA_LIBRARY_MESSAGES.loadAllMediaFailed,
    signal,
  });
}

export const allMediaQueryOptions = (params?: AllMediaParams) =>
  queryOptions({
    queryKey: params
      ? ([
          'staff-media',
          'all',
          params.search,
          params.page,
          params.orgId ?? null,
          params.deviceId ?? null,
        ] as const)
      : (['staff-media', 'all'] as const),
    queryFn: ({ signal }) => getAllMedia(params ?? { search: '', page: 1 }, signal),
    staleTime: 0,
  });

export function useAllMedia(params: AllMediaParams) {
  return useQuery(allMediaQueryOptions(params));
}
