import type { Template } from '@flashbooth/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { TEMPLATE_TEXT } from '../templates-model';

/** GET templates/{id}: a template with its image slots (every signed-in staff member). */
export function getTemplate(templateId: number, signal?: AbortSignal): Promise<Template> {
  return apiRequest<Template>('enterprise', `templates/${templateId}`, {
    fallbackMessage: TEMPLATE_TEXT.loadDetailsFailed,
    signal,
  });
}

export const templateQueryOptions = (templateId: number) =>
  queryOptions({
    queryKey: ['templates', 'detail', templateId] as const,
    queryFn: ({ signal }) => getTemplate(templateId, signal),
  });

export function useTemplate(templateId: number) {
  return useQuery(templateQueryOptions(templateId));
}
