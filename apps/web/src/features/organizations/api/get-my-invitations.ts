import type { OrganizationInvitationList } from '@flashbooth/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** GET users/{id}/invites: the person's pending invitations to organizations, newest first. */
export function getMyInvitations(
  userId: number,
  signal?: AbortSignal,
): Promise<OrganizationInvitationList> {
  return apiRequest<OrganizationInvitationList>('enterprise', `users/${userId}/invites`, {
    fallbackMessage: 'Failed to load invitations.',
    signal,
  });
}

/** Waits for the person's id (users/self). Always fresh: an invitation may have just arrived. */
export const myInvitationsQueryOptions = (userId: number | null) =>
  queryOptions({
    queryKey: ['organizations', 'my-invitations', userId] as const,
    queryFn: ({ signal }) => getMyInvitations(userId!, signal),
    enabled: userId !== null,
    staleTime: 0,
    // Spec: a failed load is an empty invitation list, silently; no second try either.
    retry: false,
  });

export function useMyInvitations(userId: number | null) {
  return useQuery(myInvitationsQueryOptions(userId));
}
