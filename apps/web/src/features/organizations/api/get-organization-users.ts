import type { OrganizationUserList } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES, ORGANIZATION_USERS_PAGE_SIZE } from '@flashbooth/contracts/rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/**
 * GET organizations/{id}/users: one page of members (`total_count` counts them) and the pending
 * invitations matching the same search.
 */
export function getOrganizationUsers(
  orgId: number,
  params: { search: string; page: number },
  signal?: AbortSignal,
): Promise<OrganizationUserList> {
  return apiRequest<OrganizationUserList>('enterprise', `organizations/${orgId}/users`, {
    query: {
      search: params.search,
      limit: ORGANIZATION_USERS_PAGE_SIZE,
      offset: (params.page - 1) * ORGANIZATION_USERS_PAGE_SIZE,
    },
    fallbackMessage: ORGANIZATION_MESSAGES.loadUsersFailed,
    signal,
  });
}

/** Without paging: the key of every page of the organization, which the mutations invalidate. */
export const organizationUsersQueryOptions = (
  orgId: number,
  params?: { search: string; page: number },
) =>
  queryOptions({
    queryKey: params
      ? (['organizations', 'users', orgId, params.search, params.page] as const)
      : (['organizations', 'users', orgId] as const),
    queryFn: ({ signal }) => getOrganizationUsers(orgId, params ?? { search: '', page: 1 }, signal),
  });

export function useOrganizationUsers(orgId: number, search: string, page: number) {
  return useQuery(organizationUsersQueryOptions(orgId, { search, page }));
}
