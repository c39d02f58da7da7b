import type { CaptureResult } from '@flashbooth/contracts';
import { apiRequest } from '@/lib/api-client';
import { CAPTURE_MESSAGES } from '../capture-machine';

/** POST devices/{id}/capture with the template (regular API). */
export function startCapture(deviceId: number, templateId: number): Promise<CaptureResult> {
  return apiRequest<CaptureResult>('regular', `devices/${deviceId}/capture`, {
    method: 'POST',
    body: { template_id: templateId },
    fallbackMessage: CAPTURE_MESSAGES.captureFailed,
  });
}
