import type { Pool, User } from '@flashbooth/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** GET users/self: the signed-in user's own record (visitors' includes credits_rupees). */
export function getSelf(pool: Pool, signal?: AbortSignal): Promise<User> {
  return apiRequest<User>(pool, 'users/self', {
    fallbackMessage: 'Failed to load user details.',
    signal,
  });
}

/** One cache entry per pool, shared by every screen that shows the user. */
export const selfQueryOptions = (pool: Pool) =>
  queryOptions({
    queryKey: ['users', 'self', pool] as const,
    queryFn: ({ signal }) => getSelf(pool, signal),
  });

/**
 * The user's record. A screen whose decision depends on the newest value (the booth's credits
 * decide between capture and payment) passes `staleTime: 0`.
 */
export function useSelf(pool: Pool, options: { staleTime?: number } = {}) {
  return useQuery({ ...selfQueryOptions(pool), ...options });
}
