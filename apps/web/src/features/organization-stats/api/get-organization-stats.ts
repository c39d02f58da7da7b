import type { OrganizationStats } from '@flashbooth/contracts';
import { STATS_MESSAGES } from '@flashbooth/contracts/rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/**
 * GET organizations/{id}/stats: the organization's statistics; share rate, download rate,
 * repeated users and revenue only for its admins and privileged staff (absent for others).
 */
export function getOrganizationStats(
  orgId: number,
  signal?: AbortSignal,
): Promise<OrganizationStats> {
  return apiRequest<OrganizationStats>('enterprise', `organizations/${orgId}/stats`, {
    fallbackMessage: STATS_MESSAGES.loadFailed,
    signal,
  });
}

export const organizationStatsQueryOptions = (orgId: number) =>
  queryOptions({
    queryKey: ['organizations', 'stats', orgId] as const,
    queryFn: ({ signal }) => getOrganizationStats(orgId, signal),
    // A failed load shows the spec's message and the empty state; the person retries.
    retry: false,
  });

export function useOrganizationStats(orgId: number) {
  return useQuery(organizationStatsQueryOptions(orgId));
}
