import type { TemplateImage, TemplateImageCreate } from '@flashbooth/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST templates/{id}/images (x, y, w, h, filter) → the new slot. */
export function createTemplateImage(
  templateId: number,
  slot: TemplateImageCreate,
): Promise<TemplateImage> {
  return apiRequest<TemplateImage>('enterprise', `templates/${templateId}/images`, {
    method: 'POST',
    body: slot,
    fallbackMessage: 'Failed to update template.',
  });
}
