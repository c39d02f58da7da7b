import { useMemo } from 'react';
import { appConfig } from '@/config/app-config';

/**
 * `?timing_scale=` for tests: honoured only when the runtime config allows it (never in
 * production) and only between 0.01 and 1; anything else is the spec's timing (1).
 */
export function parseTimingScale(raw: string | null, allowed: boolean): number {
  if (!allowed || raw === null) return 1;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0.01 && value <= 1 ? value : 1;
}

/** The timings with every duration (a key ending in `Ms`) multiplied by `scale`; counts stay. */
export function scaleDurations<T extends Record<string, number>>(timings: T, scale: number): T {
  const scaled: Record<string, number> = { ...timings };
  for (const key of Object.keys(scaled)) {
    if (key.endsWith('Ms')) scaled[key] = Math.round(timings[key]! * scale);
  }
  return scaled as T;
}

/** A screen's timings, scaled by the address's `timing_scale` where the config allows it. */
export function useScaledTimings<T extends Record<string, number>>(
  timings: T,
  query: URLSearchParams,
): T {
  const scale = parseTimingScale(query.get('timing_scale'), appConfig.allowTimingScale === true);
  return useMemo(() => (scale === 1 ? timings : scaleDurations(timings, scale)), [timings, scale]);
}
