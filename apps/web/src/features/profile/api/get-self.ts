import type { Pool, User } from '@flashbooth/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export const selfQueryKey = (pool: Pool) => ['users', 'self', pool] as const;

/** GET users/self: the signed-in user's own record. */
export function getSelf(pool: Pool, signal?: AbortSignal): Promise<User> {
  return apiRequest<User>(pool, 'users/self', {
    fallbackMessage: 'Failed to load profile.',
    signal,
  });
}

export function useSelf(pool: Pool) {
  return useQuery({
    queryKey: selfQueryKey(pool),
    queryFn: ({ signal }) => getSelf(pool, signal),
  });
}
