import type { KioskWallEvent } from '@flashbooth/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { kioskWallQueryKey } from './api';
import { KIOSK_EVENT_DEBOUNCE_MS } from './kiosk-model';

/**
 * The wall's live changes (`walls/{orgId}/events`, server-sent events, no session): an item of
 * the venue came onto the wall or left it, so the items are loaded again at once. EventSource
 * reconnects by itself after a drop; the periodic reload covers what it missed meanwhile.
 */
export function useKioskEvents(
  orgId: number,
  enabled: boolean,
  onEvent: (event: KioskWallEvent) => void,
) {
  const queryClient = useQueryClient();
  const latest = useRef(onEvent);
  useEffect(() => {
    latest.current = onEvent;
  });
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource(`/api/regular/walls/${orgId}/events`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reload = (message: MessageEvent<string>) => {
      try {
        latest.current(JSON.parse(message.data) as KioskWallEvent);
      } catch {
        // Not an event of ours: the reload below still runs.
      }
      clearTimeout(timer);
      timer = setTimeout(() => {
        void queryClient.invalidateQueries({ queryKey: kioskWallQueryKey(orgId) });
      }, KIOSK_EVENT_DEBOUNCE_MS);
    };
    source.addEventListener('wall', reload);
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, [orgId, enabled, queryClient]);
}
