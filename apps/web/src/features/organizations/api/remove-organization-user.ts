import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { organizationUsersQueryOptions } from './get-organization-users';

/** DELETE organizations/{id}/users/{userId}: removes the person from the organization. */
export function removeOrganizationUser(orgId: number, userId: number): Promise<void> {
  return apiRequest<void>('enterprise', `organizations/${orgId}/users/${userId}`, {
    method: 'DELETE',
    fallbackMessage: ORGANIZATION_MESSAGES.removeUserFailed,
  });
}

export function useRemoveOrganizationUser(orgId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) => removeOrganizationUser(orgId, userId),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: organizationUsersQueryOptions(orgId).queryKey }),
  });
}
