import type { TemplateOrganization } from '@flashbooth/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { TEMPLATE_TEXT } from '../templates-model';
import { templateOrgsQueryOptions } from './get-template-orgs';

/** DELETE templates/{id}/orgs/{orgId} (super users and product admins). */
export function removeTemplateOrg(templateId: number, orgId: number): Promise<void> {
  return apiRequest<void>('enterprise', `templates/${templateId}/orgs/${orgId}`, {
    method: 'DELETE',
    fallbackMessage: TEMPLATE_TEXT.removeFailed,
  });
}

export function useRemoveTemplateOrg(templateId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (org: TemplateOrganization) => removeTemplateOrg(templateId, org.id),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: templateOrgsQueryOptions(templateId).queryKey }),
  });
}
