import type { TemplateImage, TemplateImagePatch } from '@flashbooth/contracts';
import { apiRequest } from '@/lib/api-client';
import { TEMPLATE_DETAIL_TEXT } from '../template-detail-model';

/** PATCH templates/{id}/images/{imageId}: the slot's changed fields only. */
export function updateSlot(
  templateId: number,
  imageId: number,
  patch: TemplateImagePatch,
): Promise<TemplateImage> {
  return apiRequest<TemplateImage>('enterprise', `templates/${templateId}/images/${imageId}`, {
    method: 'PATCH',
    body: patch,
    fallbackMessage: TEMPLATE_DETAIL_TEXT.updateFailed,
  });
}
