import type { Organization } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** GET organizations/{id}: one organization (404 when the person is not one of its members). */
export function getOrganization(orgId: number, signal?: AbortSignal): Promise<Organization> {
  return apiRequest<Organization>('enterprise', `organizations/${orgId}`, {
    fallbackMessage: ORGANIZATION_MESSAGES.loadDetailsFailed,
    signal,
  });
}

/**
 * One cache entry per organization, shared by the organization's screens and the media screens'
 * breadcrumb (a logo upload or an edit writes its answer here).
 */
export const organizationQueryOptions = (orgId: number) =>
  queryOptions({
    queryKey: ['organizations', 'detail', orgId] as const,
    queryFn: ({ signal }) => getOrganization(orgId, signal),
  });

export function useOrganization(orgId: number) {
  return useQuery(organizationQueryOptions(orgId));
}
