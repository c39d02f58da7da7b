import type { Device } from '@flashbooth/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { DEVICE_TEXT } from '../devices-model';
import { useDeviceSaved } from './update-device';

/**
 * POST devices/{id}/update: sends the booth its channel's release; the booth downloads, checks
 * and installs it, then answers (the call waits for that).
 */
export function updateDeviceSoftware(deviceId: number): Promise<Device> {
  return apiRequest<Device>('enterprise', `devices/${deviceId}/update`, {
    method: 'POST',
    fallbackMessage: DEVICE_TEXT.updateFailed,
  });
}

export function useUpdateDeviceSoftware(deviceId: number) {
  const saved = useDeviceSaved();
  return useMutation({ mutationFn: () => updateDeviceSoftware(deviceId), onSuccess: saved });
}
