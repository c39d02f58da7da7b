import type { TemplateOrganization } from '@flashbooth/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { TEMPLATE_TEXT } from '../templates-model';
import { templateOrgsQueryOptions } from './get-template-orgs';

/** POST templates/{id}/orgs with org_id (super users and product admins). */
export function addTemplateOrg(templateId: number, orgId: string): Promise<TemplateOrganization> {
  return apiRequest<TemplateOrganization>('enterprise', `templates/${templateId}/orgs`, {
    method: 'POST',
    body: { org_id: orgId },
    fallbackMessage: TEMPLATE_TEXT.associateFailed,
  });
}

export function useAddTemplateOrg(templateId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orgId: string) => addTemplateOrg(templateId, orgId),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: templateOrgsQueryOptions(templateId).queryKey }),
  });
}
