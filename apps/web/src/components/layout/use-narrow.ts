import { useSyncExternalStore } from 'react';
import { NARROW_MAX_WIDTH_PX } from './nav-model';

const QUERY = `(max-width: ${NARROW_MAX_WIDTH_PX}px)`;

function subscribe(onChange: () => void): () => void {
  const media = window.matchMedia(QUERY);
  media.addEventListener('change', onChange);
  // Some embedded browsers fire resize without a media-query change event.
  window.addEventListener('resize', onChange);
  return () => {
    media.removeEventListener('change', onChange);
    window.removeEventListener('resize', onChange);
  };
}

const getSnapshot = () => window.matchMedia(QUERY).matches;
const getServerSnapshot = () => true;

/** True while the window is narrower than 768px (spec: the narrow layout). */
export function useIsNarrow(): boolean {
  return useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot);
}
