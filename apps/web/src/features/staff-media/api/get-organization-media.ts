import type { StaffMediaPage } from '@flashbooth/contracts';
import { MEDIA_LIBRARY_MESSAGES, STAFF_MEDIA_PAGE_SIZE } from '@flashbooth/contracts/rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** GET organizations/{id}/media/repost_allowed: its media whose owners allow reposting. */
export function getOrganizationMedia(
  orgId: number,
  params: { search: string; page: number },
  signal?: AbortSignal,
): Promise<StaffMediaPage> {
  return apiRequest<StaffMediaPage>('enterprise', `organizations/${orgId}/media/repost_allowed`, {
    query: {
      search: params.search,
      limit: STAFF_MEDIA_PAGE_SIZE,
      offset: (params.page - 1) * STAFF_MEDIA_PAGE_SIZE,
    },
    fallbackMessage: MEDIA_LIBRARY_MESSAGES.loadOrganizationMediaFailed,
    signal,
  });
}

/** Fresh on every visit: a visitor may have allowed reposting a minute ago. */
export const organizationMediaQueryOptions = (
  orgId: number,
  params?: { search: string; page: number },
) =>
  queryOptions({
    queryKey: params
      ? (['staff-media', 'organization', orgId, params.search, params.page] as const)
      : (['staff-media', 'organization', orgId] as const),
    queryFn: ({ signal }) => getOrganizationMedia(orgId, params ?? { search: '', page: 1 }, signal),
    staleTime: 0,
  });

export function useOrganizationMedia(orgId: number, search: string, page: number) {
  return useQuery(organizationMediaQueryOptions(orgId, { search, page }));
}
