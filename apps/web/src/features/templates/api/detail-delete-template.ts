import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { TEMPLATE_DETAIL_TEXT } from '../template-detail-model';
import { templatesQueryOptions } from './get-templates';

/** DELETE templates/{id} (super users and product admins): its slots, links and images go too. */
export function deleteTemplate(templateId: number): Promise<void> {
  return apiRequest<void>('enterprise', `templates/${templateId}`, {
    method: 'DELETE',
    fallbackMessage: TEMPLATE_DETAIL_TEXT.deleteFailed,
  });
}

/** The list reloads; the detail stays cached for the 1.5 s before the return to the list. */
export function useDeleteTemplate(templateId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteTemplate(templateId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesQueryOptions().queryKey }),
  });
}
