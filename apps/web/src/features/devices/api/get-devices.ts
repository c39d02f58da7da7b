import type { DeviceList } from '@flashbooth/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { DEVICE_TEXT, DEVICES_PAGE_SIZE } from '../devices-model';

/** GET devices: one page of the devices the person may see (all for privileged staff). */
export function getDevices(
  params: { search: string; page: number },
  signal?: AbortSignal,
): Promise<DeviceList> {
  return apiRequest<DeviceList>('enterprise', 'devices', {
    query: {
      search: params.search,
      limit: DEVICES_PAGE_SIZE,
      offset: (params.page - 1) * DEVICES_PAGE_SIZE,
    },
    fallbackMessage: DEVICE_TEXT.loadFailed,
    signal,
  });
}

/** Without arguments: the key of every page, which the mutations invalidate. */
export const devicesQueryOptions = (params?: { search: string; page: number }) =>
  queryOptions({
    queryKey: params
      ? (['devices', 'list', params.search, params.page] as const)
      : (['devices', 'list'] as const),
    queryFn: ({ signal }) => getDevices(params ?? { search: '', page: 1 }, signal),
  });

export function useDevices(search: string, page: number) {
  return useQuery(devicesQueryOptions({ search, page }));
}
