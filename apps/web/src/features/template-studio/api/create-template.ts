import type { Template, TemplateCreate } from '@flashbooth/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST templates (name, orientation) → the new template. */
export function createTemplate(body: TemplateCreate): Promise<Template> {
  return apiRequest<Template>('enterprise', 'templates', {
    method: 'POST',
    body,
    fallbackMessage: 'Failed to create template.',
  });
}
