import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { organizationUsersQueryOptions } from './get-organization-users';

/** DELETE organizations/{id}/invites/{inviteId}: staff cancel a pending invitation. */
export function cancelInvitation(orgId: number, inviteId: number): Promise<void> {
  return apiRequest<void>('enterprise', `organizations/${orgId}/invites/${inviteId}`, {
    method: 'DELETE',
    fallbackMessage: ORGANIZATION_MESSAGES.cancelInviteFailed,
  });
}

export function useCancelInvitation(orgId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (inviteId: number) => cancelInvitation(orgId, inviteId),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: organizationUsersQueryOptions(orgId).queryKey }),
  });
}
