import type { DeviceStatusEvent } from '@flashbooth/contracts';
import { useEffect, useRef, useState } from 'react';
import { listenToDeviceStatus } from './device-status-stream';

export interface DeviceStatusStreamOptions {
  /** Connect only while true (default true). */
  enabled?: boolean;
}

/**
 * Live device status for the staff console: calls `onEvent` for every status change the server
 * pushes over GET /api/enterprise/devices/status-stream (only devices the viewer may see), while
 * `enabled`. Every component using it shares one connection, which reconnects with backoff and
 * a fresh access token after a loss. `connected` is true while the stream is open: a screen may
 * refetch its data when it turns true, to cover changes made while it was away.
 */
export function useDeviceStatusStream(
  onEvent: (event: DeviceStatusEvent) => void,
  options: DeviceStatusStreamOptions = {},
): { connected: boolean } {
  const { enabled = true } = options;
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    const stop = listenToDeviceStatus((event) => handler.current(event), setConnected);
    return () => {
      stop();
      setConnected(false);
    };
  }, [enabled]);
  return { connected: enabled && connected };
}
