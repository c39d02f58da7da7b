import type { Template, TemplateOrientation } from '@flashbooth/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { TEMPLATE_TEXT } from '../templates-model';
import { templatesQueryOptions } from './get-templates';

/** POST templates (super users and product admins). */
export function createTemplate(body: {
  name: string;
  orientation: TemplateOrientation;
}): Promise<Template> {
  return apiRequest<Template>('enterprise', 'templates', {
    method: 'POST',
    body,
    fallbackMessage: TEMPLATE_TEXT.createFailed,
  });
}

export function useCreateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTemplate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesQueryOptions().queryKey }),
  });
}
