import type { Organization, OrganizationCreateBody } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { organizationsQueryOptions } from './get-organizations';

/** POST organizations (super users and product admins). */
export function createOrganization(body: OrganizationCreateBody): Promise<Organization> {
  return apiRequest<Organization>('enterprise', 'organizations', {
    method: 'POST',
    body,
    fallbackMessage: ORGANIZATION_MESSAGES.createFailed,
  });
}

export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrganization,
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: organizationsQueryOptions().queryKey }),
  });
}
