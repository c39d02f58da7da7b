import type { CaptureEntitlement } from '@flashbooth/contracts';
import { apiRequest } from '@/lib/api-client';

/**
 * GET devices/{id}/entitlement?template_id= (regular API): what a capture would use now (free,
 * payment, credit, or nothing) and whether the booth can take the visitor; nothing is taken.
 */
export function getCaptureEntitlement(
  deviceId: number,
  templateId: number,
): Promise<CaptureEntitlement> {
  return apiRequest<CaptureEntitlement>('regular', `devices/${deviceId}/entitlement`, {
    query: { template_id: String(templateId) },
  });
}
