import type { VisitorDevice } from '@flashbooth/contracts';
import { boothAvailability } from '@flashbooth/contracts/rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '@/lib/api-client';
import { BOOTH_MESSAGES } from '../booth-model';
import { inlinedBooth } from './inlined-booth';

/** GET devices/{id} (regular API): the booth as a visitor sees it. */
export function getBoothDevice(deviceId: number, signal?: AbortSignal): Promise<VisitorDevice> {
  return apiRequest<VisitorDevice>('regular', `devices/${deviceId}`, {
    fallbackMessage: BOOTH_MESSAGES.deviceLoadFailed,
    signal,
  });
}

/** How often the booth page asks for the booth's status, by whether it can take visitors. */
export const BOOTH_STATUS_POLL_MS = { unavailable: 4000, available: 20_000 } as const;

/** A 404 is an answer (the booth does not exist or is not linked), not a hiccup: no retry. */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

export const boothDeviceQueryOptions = (deviceId: number) =>
  queryOptions({
    queryKey: ['devices', 'visitor', deviceId] as const,
    queryFn: ({ signal }) => getBoothDevice(deviceId, signal),
    // The booth as the page's HTML was sent with it: no request before the first screen.
    initialData: () => inlinedBooth(deviceId)?.device,
    initialDataUpdatedAt: () => inlinedBooth(deviceId)?.rendered_at,
    retry: (failureCount, error) => !isNotFound(error) && failureCount < 1,
    // Live enough for a visitor at the booth: a booth that is not idle is asked about every
    // few seconds (the notice goes when it is back), an idle one now and then.
    refetchInterval: (query) => {
      if (isNotFound(query.state.error)) return false;
      const { data } = query.state;
      return data && boothAvailability(data.status) !== 'available'
        ? BOOTH_STATUS_POLL_MS.unavailable
        : BOOTH_STATUS_POLL_MS.available;
    },
  });

export function useBoothDevice(deviceId: number | null) {
  return useQuery({ ...boothDeviceQueryOptions(deviceId ?? 0), enabled: deviceId !== null });
}
