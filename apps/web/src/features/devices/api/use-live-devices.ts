import type { DeviceList, DeviceStatusEvent } from '@flashbooth/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { applyStatusEvent, applyStatusEventToList } from '../devices-model';
import { deviceQueryOptions } from './get-device';
import { devicesQueryOptions } from './get-devices';
import { useDeviceStatusStream } from './use-device-status-stream';

/**
 * Keeps the cached device lists and details current from the live status stream (status, prints
 * left, version, pinged at), so the screens change without a reload. Answers whether the stream
 * is connected (the "Live" / "Reconnecting…" indicator). Each time the stream (re)connects the
 * cached devices are reloaded, so a change made while it was away is not missed.
 */
export function useLiveDevices(options: { enabled?: boolean } = {}): { connected: boolean } {
  const queryClient = useQueryClient();
  const onEvent = useCallback(
    (event: DeviceStatusEvent) => {
      queryClient.setQueriesData<DeviceList>(
        { queryKey: devicesQueryOptions().queryKey },
        (list) => (list ? applyStatusEventToList(list, event) : list),
      );
      queryClient.setQueryData(deviceQueryOptions(event.id).queryKey, (device) =>
        device ? applyStatusEvent(device, event) : device,
      );
    },
    [queryClient],
  );
  const live = useDeviceStatusStream(onEvent, options);
  useEffect(() => {
    if (!live.connected) return;
    void queryClient.invalidateQueries({ queryKey: devicesQueryOptions().queryKey });
    void queryClient.invalidateQueries({ queryKey: ['devices', 'detail'] });
  }, [live.connected, queryClient]);
  return live;
}
