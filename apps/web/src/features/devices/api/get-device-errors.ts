import type { DeviceErrorList } from '@flashbooth/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { DEVICE_LOGS_PAGE_SIZE, DEVICE_TEXT } from '../devices-model';

/** GET devices/{id}/errors: newest first; `search` is left out when empty (spec section 7). */
export function getDeviceErrors(
  deviceId: number,
  params: { search: string; page: number },
  signal?: AbortSignal,
): Promise<DeviceErrorList> {
  return apiRequest<DeviceErrorList>('enterprise', `devices/${deviceId}/errors`, {
    query: {
      limit: DEVICE_LOGS_PAGE_SIZE,
      offset: (params.page - 1) * DEVICE_LOGS_PAGE_SIZE,
      search: params.search || undefined,
    },
    fallbackMessage: DEVICE_TEXT.logsFailed,
    signal,
  });
}

export const deviceErrorsQueryOptions = (
  deviceId: number,
  params: { search: string; page: number },
) =>
  queryOptions({
    queryKey: ['devices', 'errors', deviceId, params.search, params.page] as const,
    queryFn: ({ signal }) => getDeviceErrors(deviceId, params, signal),
  });

export function useDeviceErrors(deviceId: number, search: string, page: number) {
  return useQuery(deviceErrorsQueryOptions(deviceId, { search, page }));
}
