import type { TemplateImage, TemplateImageCreate } from '@flashbooth/contracts';
import { apiRequest } from '@/lib/api-client';
import { TEMPLATE_DETAIL_TEXT } from '../template-detail-model';

/** POST templates/{id}/images: a new image slot (super users and product admins). */
export function createSlot(templateId: number, body: TemplateImageCreate): Promise<TemplateImage> {
  return apiRequest<TemplateImage>('enterprise', `templates/${templateId}/images`, {
    method: 'POST',
    body,
    fallbackMessage: TEMPLATE_DETAIL_TEXT.updateFailed,
  });
}
