import type { DeviceHealthView } from '@flashbooth/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { HEALTH_REFRESH_MS, HEALTH_TEXT } from '../health/device-health-model';

/** GET devices/{id}/health: the booth's last health report and its deliveries (beyond the spec). */
export function getDeviceHealth(deviceId: number, signal?: AbortSignal): Promise<DeviceHealthView> {
  return apiRequest<DeviceHealthView>('enterprise', `devices/${deviceId}/health`, {
    fallbackMessage: HEALTH_TEXT.failed,
    signal,
  });
}

export const deviceHealthQueryOptions = (deviceId: number) =>
  queryOptions({
    queryKey: ['devices', 'health', deviceId] as const,
    queryFn: ({ signal }) => getDeviceHealth(deviceId, signal),
    // The booth reports with every status change; the panel follows without a reload.
    refetchInterval: HEALTH_REFRESH_MS,
  });

export function useDeviceHealth(deviceId: number) {
  return useQuery(deviceHealthQueryOptions(deviceId));
}
