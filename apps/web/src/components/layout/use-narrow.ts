import { useMediaQuery } from '@/hooks/use-media-query';
import { NARROW_MAX_WIDTH_PX } from './nav-model';

const QUERY = `(max-width: ${NARROW_MAX_WIDTH_PX}px)`;

/** True while the window is narrower than 768px (spec: the narrow layout; narrow on the server). */
export function useIsNarrow(): boolean {
  return useMediaQuery(QUERY, true);
}
