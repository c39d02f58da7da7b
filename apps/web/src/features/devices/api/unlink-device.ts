import type { Device } from '@flashbooth/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { DEVICE_TEXT } from '../devices-model';
import { useDeviceSaved } from './update-device';

/** PATCH devices/{id}/unlink. */
export function unlinkDevice(deviceId: number): Promise<Device> {
  return apiRequest<Device>('enterprise', `devices/${deviceId}/unlink`, {
    method: 'PATCH',
    fallbackMessage: DEVICE_TEXT.unlinkFailed,
  });
}

export function useUnlinkDevice(deviceId: number) {
  const saved = useDeviceSaved();
  return useMutation({ mutationFn: () => unlinkDevice(deviceId), onSuccess: saved });
}
