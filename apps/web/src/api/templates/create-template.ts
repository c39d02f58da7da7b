import type { Template, TemplateCreate } from '@flashbooth/contracts';
import { apiRequest } from '@/lib/api-client';

/**
 * POST templates (name, orientation; super users and product admins) → the new template. The
 * templates list's "Create Template" and the Studio's "Create template from this design" both
 * create through this.
 */
export function createTemplate(body: TemplateCreate): Promise<Template> {
  return apiRequest<Template>('enterprise', 'templates', {
    method: 'POST',
    body,
    fallbackMessage: 'Failed to create template.',
  });
}
