import type { Template, TemplatePatch } from '@flashbooth/contracts';
import { apiRequest } from '@/lib/api-client';
import { TEMPLATE_DETAIL_TEXT } from '../template-detail-model';

/** PATCH templates/{id}: the template's own changed fields (name, orientation, is_cut, is_duplicated). */
export function updateTemplate(templateId: number, patch: TemplatePatch): Promise<Template> {
  return apiRequest<Template>('enterprise', `templates/${templateId}`, {
    method: 'PATCH',
    body: patch,
    fallbackMessage: TEMPLATE_DETAIL_TEXT.updateFailed,
  });
}
