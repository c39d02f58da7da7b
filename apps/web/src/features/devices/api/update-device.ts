import type { Device, DevicePatch } from '@flashbooth/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { DEVICE_TEXT } from '../devices-model';
import { deviceQueryOptions } from './get-device';
import { devicesQueryOptions } from './get-devices';

/** The message when the server sends none, by the field changed (spec section 8). */
function fallbackFor(patch: DevicePatch): string {
  if (patch.name !== undefined) return DEVICE_TEXT.nameFailed;
  if (patch.prints_left !== undefined) return DEVICE_TEXT.printsFailed;
  if (patch.price_rupees !== undefined) return DEVICE_TEXT.priceFailed;
  return DEVICE_TEXT.channelFailed;
}

/** PATCH devices/{id} with exactly one of name, software_channel_id, prints_left, price_rupees. */
export function updateDevice(deviceId: number, patch: DevicePatch): Promise<Device> {
  return apiRequest<Device>('enterprise', `devices/${deviceId}`, {
    method: 'PATCH',
    body: patch,
    fallbackMessage: fallbackFor(patch),
  });
}

/** Puts the answered device in the detail's cache and reloads the lists. */
export function useDeviceSaved() {
  const queryClient = useQueryClient();
  return (device: Device) => {
    queryClient.setQueryData(deviceQueryOptions(device.id).queryKey, device);
    return queryClient.invalidateQueries({ queryKey: devicesQueryOptions().queryKey });
  };
}

export function useUpdateDevice(deviceId: number) {
  const saved = useDeviceSaved();
  return useMutation({
    mutationFn: (patch: DevicePatch) => updateDevice(deviceId, patch),
    onSuccess: saved,
  });
}
