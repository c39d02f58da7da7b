import type { OrganizationList } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES, ORGANIZATIONS_PAGE_SIZE } from '@flashbooth/contracts/rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** GET organizations: one page of the organizations the person may see, searched by name. */
export function getOrganizations(
  params: { search: string; page: number },
  signal?: AbortSignal,
): Promise<OrganizationList> {
  return apiRequest<OrganizationList>('enterprise', 'organizations', {
    query: {
      search: params.search,
      limit: ORGANIZATIONS_PAGE_SIZE,
      offset: (params.page - 1) * ORGANIZATIONS_PAGE_SIZE,
    },
    fallbackMessage: ORGANIZATION_MESSAGES.loadFailed,
    signal,
  });
}

/** Without arguments: the key of every page, which the mutations invalidate. */
export const organizationsQueryOptions = (params?: { search: string; page: number }) =>
  queryOptions({
    queryKey: params
      ? (['organizations', 'list', params.search, params.page] as const)
      : (['organizations', 'list'] as const),
    queryFn: ({ signal }) => getOrganizations(params ?? { search: '', page: 1 }, signal),
  });

export function useOrganizations(search: string, page: number) {
  return useQuery(organizationsQueryOptions({ search, page }));
}
