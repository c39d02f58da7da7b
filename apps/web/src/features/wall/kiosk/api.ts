import type { KioskWall } from '@flashbooth/contracts';
import { WALL_MESSAGES } from '@flashbooth/contracts/rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '@/lib/api-client';
import { KIOSK_RELOAD_MS } from './kiosk-model';

/** GET walls/{orgId} (regular API, no session): a venue's newest public items. */
export function getKioskWall(orgId: number, signal?: AbortSignal): Promise<KioskWall> {
  return apiRequest<KioskWall>('regular', `walls/${orgId}`, {
    auth: false,
    fallbackMessage: WALL_MESSAGES.kioskLoadFailed,
    signal,
  });
}

export const kioskWallQueryKey = (orgId: number) => ['kiosk-wall', orgId] as const;

export function useKioskWall(orgId: number) {
  return useQuery(
    queryOptions({
      queryKey: kioskWallQueryKey(orgId),
      queryFn: ({ signal }) => getKioskWall(orgId, signal),
      refetchInterval: KIOSK_RELOAD_MS,
      // A screen left alone for days: keep trying after a failure, but not for a wall that is not.
      retry: (failures, error) => !(error instanceof ApiError && error.status === 404),
      retryDelay: (attempt) => Math.min(30_000, 2000 * 2 ** attempt),
    }),
  );
}
