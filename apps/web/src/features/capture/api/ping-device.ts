import type { DevicePingResult } from '@flashbooth/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST devices/{id}/ping (regular API): the booth's current status. */
export function pingDevice(deviceId: number): Promise<DevicePingResult> {
  return apiRequest<DevicePingResult>('regular', `devices/${deviceId}/ping`, {
    method: 'POST',
  });
}
