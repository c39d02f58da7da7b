import type { User } from '@flashbooth/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { BOOTH_MESSAGES } from '../booth-model';

/** The same key as the profile screen's users/self query: one cache entry per pool. */
export const visitorSelfQueryKey = ['users', 'self', 'regular'] as const;

/** GET users/self (regular API): the visitor's record, read here for credits_rupees. */
export function getVisitorSelf(signal?: AbortSignal): Promise<User> {
  return apiRequest<User>('regular', 'users/self', {
    fallbackMessage: BOOTH_MESSAGES.userFailed,
    signal,
  });
}

/** Always fresh on opening a booth: the credits decide between capture and payment. */
export function useVisitorSelf() {
  return useQuery({
    queryKey: visitorSelfQueryKey,
    queryFn: ({ signal }) => getVisitorSelf(signal),
    staleTime: 0,
  });
}
