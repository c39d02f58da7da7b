import type { Device } from '@flashbooth/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { DEVICE_TEXT } from '../devices-model';

/** GET devices/{id}: one device (404 when the person may not see it). */
export function getDevice(deviceId: number, signal?: AbortSignal): Promise<Device> {
  return apiRequest<Device>('enterprise', `devices/${deviceId}`, {
    fallbackMessage: DEVICE_TEXT.loadDetailsFailed,
    signal,
  });
}

export const deviceQueryOptions = (deviceId: number) =>
  queryOptions({
    queryKey: ['devices', 'detail', deviceId] as const,
    queryFn: ({ signal }) => getDevice(deviceId, signal),
  });

export function useDevice(deviceId: number) {
  return useQuery(deviceQueryOptions(deviceId));
}
