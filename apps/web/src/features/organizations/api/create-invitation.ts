import type { OrganizationInviteCreateBody, SentInvitation } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { organizationUsersQueryOptions } from './get-organization-users';

/** POST organizations/{id}/invites: invites a phone (E.164) with a role. */
export function createInvitation(
  orgId: number,
  body: OrganizationInviteCreateBody,
): Promise<SentInvitation> {
  return apiRequest<SentInvitation>('enterprise', `organizations/${orgId}/invites`, {
    method: 'POST',
    body,
    fallbackMessage: ORGANIZATION_MESSAGES.inviteFailed,
  });
}

export function useCreateInvitation(orgId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: OrganizationInviteCreateBody) => createInvitation(orgId, body),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: organizationUsersQueryOptions(orgId).queryKey }),
  });
}
