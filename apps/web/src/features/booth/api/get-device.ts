import type { VisitorDevice } from '@flashbooth/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '@/lib/api-client';
import { BOOTH_MESSAGES } from '../booth-model';

/** GET devices/{id} (regular API): the booth as a visitor sees it. */
export function getBoothDevice(deviceId: number, signal?: AbortSignal): Promise<VisitorDevice> {
  return apiRequest<VisitorDevice>('regular', `devices/${deviceId}`, {
    fallbackMessage: BOOTH_MESSAGES.deviceLoadFailed,
    signal,
  });
}

/** A 404 is an answer (the booth does not exist or is not linked), not a hiccup: no retry. */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

export const boothDeviceQueryOptions = (deviceId: number) =>
  queryOptions({
    queryKey: ['devices', 'visitor', deviceId] as const,
    queryFn: ({ signal }) => getBoothDevice(deviceId, signal),
    retry: (failureCount, error) => !isNotFound(error) && failureCount < 1,
  });

export function useBoothDevice(deviceId: number | null) {
  return useQuery({ ...boothDeviceQueryOptions(deviceId ?? 0), enabled: deviceId !== null });
}
