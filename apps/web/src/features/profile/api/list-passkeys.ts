import type { PasskeyList, Pool } from '@flashbooth/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** GET passkeys: the signed-in person's passkeys, oldest first. */
export function listPasskeys(pool: Pool, signal?: AbortSignal): Promise<PasskeyList> {
  return apiRequest<PasskeyList>(pool, 'passkeys', {
    fallbackMessage: 'Failed to load your passkeys.',
    signal,
  });
}

export const passkeysQueryOptions = (pool: Pool) =>
  queryOptions({
    queryKey: ['passkeys', pool] as const,
    queryFn: ({ signal }) => listPasskeys(pool, signal),
  });

export function usePasskeys(pool: Pool) {
  return useQuery(passkeysQueryOptions(pool));
}
