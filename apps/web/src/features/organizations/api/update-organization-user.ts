import type { OrganizationUser, OrganizationUserPatchBody } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { organizationUsersQueryOptions } from './get-organization-users';

/** PATCH organizations/{id}/users/{userId} with the new role. */
export function updateOrganizationUser(
  orgId: number,
  userId: number,
  patch: OrganizationUserPatchBody,
): Promise<OrganizationUser> {
  return apiRequest<OrganizationUser>('enterprise', `organizations/${orgId}/users/${userId}`, {
    method: 'PATCH',
    body: patch,
    fallbackMessage: ORGANIZATION_MESSAGES.updateRoleFailed,
  });
}

export function useUpdateOrganizationUser(orgId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, patch }: { userId: number; patch: OrganizationUserPatchBody }) =>
      updateOrganizationUser(orgId, userId, patch),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: organizationUsersQueryOptions(orgId).queryKey }),
  });
}
