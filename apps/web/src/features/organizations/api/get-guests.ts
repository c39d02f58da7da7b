import type { GuestList } from '@flashbooth/contracts';
import { GUESTS_PAGE_SIZE, ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** GET organizations/{id}/guests: visitors who captured at its booths, searched by name, phone, email. */
export function getGuests(
  orgId: number,
  params: { search: string; page: number },
  signal?: AbortSignal,
): Promise<GuestList> {
  return apiRequest<GuestList>('enterprise', `organizations/${orgId}/guests`, {
    query: {
      search: params.search,
      limit: GUESTS_PAGE_SIZE,
      offset: (params.page - 1) * GUESTS_PAGE_SIZE,
    },
    fallbackMessage: ORGANIZATION_MESSAGES.loadGuestsFailed,
    signal,
  });
}

/** Fresh on every visit: a visitor may have captured a minute ago. */
export const guestsQueryOptions = (orgId: number, params?: { search: string; page: number }) =>
  queryOptions({
    queryKey: params
      ? (['organizations', 'guests', orgId, params.search, params.page] as const)
      : (['organizations', 'guests', orgId] as const),
    queryFn: ({ signal }) => getGuests(orgId, params ?? { search: '', page: 1 }, signal),
    staleTime: 0,
  });

export function useGuests(orgId: number, search: string, page: number) {
  return useQuery(guestsQueryOptions(orgId, { search, page }));
}
