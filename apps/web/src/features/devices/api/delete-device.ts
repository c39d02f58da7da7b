import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { DEVICE_TEXT } from '../devices-model';
import { devicesQueryOptions } from './get-devices';

/** DELETE devices/{id} (super users and product admins), with its error log. */
export function deleteDevice(deviceId: number): Promise<void> {
  return apiRequest<void>('enterprise', `devices/${deviceId}`, {
    method: 'DELETE',
    fallbackMessage: DEVICE_TEXT.deleteFailed,
  });
}

/**
 * The list is reloaded; the detail stays cached until the screen leaves, so it does not turn
 * into a load error during the 1.5 s before the return to the list.
 */
export function useDeleteDevice(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteDevice(deviceId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: devicesQueryOptions().queryKey }),
  });
}
