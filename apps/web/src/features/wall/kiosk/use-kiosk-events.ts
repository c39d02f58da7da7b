import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { kioskWallQueryKey } from './api';
import { KIOSK_EVENT_DEBOUNCE_MS } from './kiosk-model';

/**
 * The wall's live changes (`walls/{orgId}/events`, server-sent events, no session): an item of
 * the venue came onto the wall or left it, so the items are loaded again at once. EventSource
 * reconnects by itself after a drop; the periodic reload covers what it missed meanwhile.
 */
export function useKioskEvents(orgId: number, enabled: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource(`/api/regular/walls/${orgId}/events`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reload = () => {
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
