import type { TemplateOrganization } from '@flashbooth/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { TEMPLATE_TEXT } from '../templates-model';

/**
 * GET templates/{id}/orgs: the organizations offering the template (those the person belongs
 * to, unless a super user or product admin).
 */
export function getTemplateOrgs(
  templateId: number,
  signal?: AbortSignal,
): Promise<{ items: TemplateOrganization[] }> {
  return apiRequest<{ items: TemplateOrganization[] }>(
    'enterprise',
    `templates/${templateId}/orgs`,
    { fallbackMessage: TEMPLATE_TEXT.orgsLoadFailed, signal },
  );
}

export const templateOrgsQueryOptions = (templateId: number) =>
  queryOptions({
    queryKey: ['templates', 'orgs', templateId] as const,
    queryFn: ({ signal }) => getTemplateOrgs(templateId, signal),
  });

export function useTemplateOrgs(templateId: number) {
  return useQuery(templateOrgsQueryOptions(templateId));
}
