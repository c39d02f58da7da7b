import type { Organization } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** GET organizations/{id}, for the breadcrumb (the same cache entry as the detail screen's). */
export function getOrganization(orgId: number, signal?: AbortSignal): Promise<Organization> {
  return apiRequest<Organization>('enterprise', `organizations/${orgId}`, {
    fallbackMessage: ORGANIZATION_MESSAGES.loadDetailsFailed,
    signal,
  });
}

const organizationQueryOptions = (orgId: number) =>
  queryOptions({
    queryKey: ['organizations', 'detail', orgId] as const,
    queryFn: ({ signal }) => getOrganization(orgId, signal),
  });

/** The organization's name, or "Organization" when it cannot load (spec section 8). */
export function useOrganizationName(orgId: number): string {
  const organization = useQuery(organizationQueryOptions(orgId));
  return (!organization.isError && organization.data?.name) || ORGANIZATION_MESSAGES.nameFallback;
}
