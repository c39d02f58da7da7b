import type { Device } from '@flashbooth/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { DEVICE_TEXT } from '../devices-model';
import { useDeviceSaved } from './update-device';

/** PATCH devices/{id}/link with org_id. */
export function linkDevice(deviceId: number, orgId: number): Promise<Device> {
  return apiRequest<Device>('enterprise', `devices/${deviceId}/link`, {
    method: 'PATCH',
    body: { org_id: orgId },
    fallbackMessage: DEVICE_TEXT.linkFailed,
  });
}

export function useLinkDevice(deviceId: number) {
  const saved = useDeviceSaved();
  return useMutation({
    mutationFn: (orgId: number) => linkDevice(deviceId, orgId),
    onSuccess: saved,
  });
}
