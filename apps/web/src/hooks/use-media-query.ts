import { useCallback, useSyncExternalStore } from 'react';

const hasMatchMedia = () => typeof window !== 'undefined' && !!window.matchMedia;

/**
 * The live result of a CSS media query, followed while the page is open: the one hook every
 * screen uses to ask about the window (its width, reduced motion). `serverValue` is the answer
 * in server-rendered markup (and where matchMedia is missing); false unless given.
 */
export function useMediaQuery(query: string, serverValue = false): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!hasMatchMedia()) return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      // Some embedded browsers fire resize without a media-query change event.
      window.addEventListener('resize', onChange);
      return () => {
        list.removeEventListener('change', onChange);
        window.removeEventListener('resize', onChange);
      };
    },
    [query],
  );
  const getSnapshot = () => (hasMatchMedia() ? window.matchMedia(query).matches : serverValue);
  return useSyncExternalStore(subscribe, getSnapshot, () => serverValue);
}

/**
 * Whether the person asked their system for less motion; follows a change while the page is
 * open. False on the server (server-rendered markup has no moving media to hold back).
 */
export function useReducedMotion(): boolean {
  return useMediaQuery('(prefers-reduced-motion: reduce)');
}
