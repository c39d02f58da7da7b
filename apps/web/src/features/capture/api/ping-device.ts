import { apiRequest } from '@/lib/api-client';

/** POST devices/{id}/ping (regular API): the booth's current status. */
export function pingDevice(deviceId: number): Promise<{ status: string }> {
  return apiRequest<{ status: string }>('regular', `devices/${deviceId}/ping`, {
    method: 'POST',
  });
}
