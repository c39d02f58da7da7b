import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { organizationsQueryOptions } from './get-organizations';

/**
 * DELETE organizations/{id} (super users and product admins): its devices are unlinked, its
 * memberships and invitations go; visitors keep their media.
 */
export function deleteOrganization(orgId: number): Promise<void> {
  return apiRequest<void>('enterprise', `organizations/${orgId}`, {
    method: 'DELETE',
    fallbackMessage: ORGANIZATION_MESSAGES.deleteFailed,
  });
}

/**
 * The list is reloaded; the detail stays cached until the screen leaves, so it does not turn into
 * a load error during the 1.5 s before the return to the list.
 */
export function useDeleteOrganization(orgId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteOrganization(orgId),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: organizationsQueryOptions().queryKey }),
  });
}
