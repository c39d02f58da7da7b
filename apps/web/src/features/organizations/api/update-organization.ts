import type { Organization, OrganizationPatchBody } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { organizationQueryOptions } from '@/api/organizations/get-organization';
import { organizationsQueryOptions } from './get-organizations';

/** PATCH organizations/{id} with only the changed fields; answers the updated organization. */
export function updateOrganization(
  orgId: number,
  patch: OrganizationPatchBody,
): Promise<Organization> {
  return apiRequest<Organization>('enterprise', `organizations/${orgId}`, {
    method: 'PATCH',
    body: patch,
    fallbackMessage: ORGANIZATION_MESSAGES.updateFailed,
  });
}

export function useUpdateOrganization(orgId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: OrganizationPatchBody) => updateOrganization(orgId, patch),
    onSuccess: (organization) => {
      queryClient.setQueryData(organizationQueryOptions(orgId).queryKey, organization);
      return queryClient.invalidateQueries({ queryKey: organizationsQueryOptions().queryKey });
    },
  });
}
