import type { TemplateList } from '@flashbooth/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { TEMPLATE_TEXT, TEMPLATES_PAGE_SIZE } from '../templates-model';

/** GET templates: one page (10) of templates, newest first, searched by name. */
export function getTemplates(
  params: { search: string; page: number },
  signal?: AbortSignal,
): Promise<TemplateList> {
  return apiRequest<TemplateList>('enterprise', 'templates', {
    query: {
      search: params.search,
      limit: TEMPLATES_PAGE_SIZE,
      offset: (params.page - 1) * TEMPLATES_PAGE_SIZE,
    },
    fallbackMessage: TEMPLATE_TEXT.loadFailed,
    signal,
  });
}

/** Without arguments: the key of every page, which the mutations invalidate. */
export const templatesQueryOptions = (params?: { search: string; page: number }) =>
  queryOptions({
    queryKey: params
      ? (['templates', 'list', params.search, params.page] as const)
      : (['templates', 'list'] as const),
    queryFn: ({ signal }) => getTemplates(params ?? { search: '', page: 1 }, signal),
  });

export function useTemplates(search: string, page: number) {
  return useQuery(templatesQueryOptions({ search, page }));
}
