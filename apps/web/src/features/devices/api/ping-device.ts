import type { Device } from '@flashbooth/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { DEVICE_TEXT } from '../devices-model';
import { useDeviceSaved } from './update-device';

/** POST devices/{id}/ping: asks the booth; answers the refreshed device (503 when it is silent). */
export function pingDevice(deviceId: number): Promise<Device> {
  return apiRequest<Device>('enterprise', `devices/${deviceId}/ping`, {
    method: 'POST',
    fallbackMessage: DEVICE_TEXT.pingFailed,
  });
}

export function usePingDevice(deviceId: number) {
  const saved = useDeviceSaved();
  return useMutation({ mutationFn: () => pingDevice(deviceId), onSuccess: saved });
}
