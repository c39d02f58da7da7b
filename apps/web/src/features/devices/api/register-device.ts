import type { RegisteredDevice } from '@flashbooth/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { DEVICE_TEXT } from '../devices-model';
import { devicesQueryOptions } from './get-devices';

/**
 * POST devices (super users and product admins): a new device, its secret (shown this once) and
 * the env block for its booth. The name is optional (the server names it after its serial).
 */
export function registerDevice(name?: string): Promise<RegisteredDevice> {
  return apiRequest<RegisteredDevice>('enterprise', 'devices', {
    method: 'POST',
    ...(name ? { body: { name } } : {}),
    fallbackMessage: DEVICE_TEXT.registerFailed,
  });
}

export function useRegisterDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name?: string) => registerDevice(name),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: devicesQueryOptions().queryKey }),
  });
}
