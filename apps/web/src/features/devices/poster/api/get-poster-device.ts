import type { Device } from '@flashbooth/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { POSTER_TEXT } from '../poster-model';

/**
 * GET devices/{id}: the booth the poster is for. The server answers 404 for a device the caller
 * may not see, so whoever can open the device can open its poster, and no one else.
 */
export function getPosterDevice(deviceId: number, signal?: AbortSignal): Promise<Device> {
  return apiRequest<Device>('enterprise', `devices/${deviceId}`, {
    fallbackMessage: POSTER_TEXT.loadFailed,
    signal,
  });
}

/** The device detail's cache key, so the poster and the detail share one record. */
export const posterDeviceQueryOptions = (deviceId: number) =>
  queryOptions({
    queryKey: ['devices', 'detail', deviceId] as const,
    queryFn: ({ signal }) => getPosterDevice(deviceId, signal),
  });

export function usePosterDevice(deviceId: number) {
  return useQuery(posterDeviceQueryOptions(deviceId));
}
