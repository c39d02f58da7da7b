import { apiRequest } from '@/lib/api-client';
import { TEMPLATE_DETAIL_TEXT } from '../template-detail-model';

/** DELETE templates/{id}/images/{imageId}: a slot removed in the draft. */
export function deleteSlot(templateId: number, imageId: number): Promise<void> {
  return apiRequest<void>('enterprise', `templates/${templateId}/images/${imageId}`, {
    method: 'DELETE',
    fallbackMessage: TEMPLATE_DETAIL_TEXT.updateFailed,
  });
}
