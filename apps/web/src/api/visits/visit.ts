import type { Visit, VisitCaptureState } from '@flashbooth/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/*
 * The visitor's visit at a booth (issue 37): one server-side record of where they are there now,
 * which the booth page, the capture screen and the payment status screen all start from. Shared
 * here because three features read it; the browser's own state is only a cache of it.
 */

/** GET devices/{id}/visit (regular API). */
export function getVisit(deviceId: number, signal?: AbortSignal): Promise<Visit> {
  return apiRequest<Visit>('regular', `devices/${deviceId}/visit`, { signal });
}

/**
 * POST devices/{id}/visit (regular API): Yes, I'm Here, and a template pick with `templateId`.
 * A finished round is let go; an open payment moves to the template (409 capture_in_progress
 * while a capture runs).
 */
export function pickAtVisit(deviceId: number, templateId?: number): Promise<Visit> {
  return apiRequest<Visit>('regular', `devices/${deviceId}/visit`, {
    method: 'POST',
    body: templateId === undefined ? {} : { template_id: templateId },
  });
}

export const visitQueryKey = (deviceId: number) => ['visits', deviceId] as const;

/** Capture states in which the booth is still working on the visitor's photos. */
export function captureRunning(state: VisitCaptureState | undefined | null): boolean {
  return (
    state === 'requested' ||
    state === 'counting_down' ||
    state === 'taking_photos' ||
    state === 'processing'
  );
}

/** How often a page asks while the visit's capture or checkout is under way. */
export const VISIT_POLL_MS = 3000;

export const visitQueryOptions = (deviceId: number) =>
  queryOptions({
    queryKey: visitQueryKey(deviceId),
    queryFn: ({ signal }) => getVisit(deviceId, signal),
    // Always fresh: a reload, an app switch or another phone may have moved the visit on.
    staleTime: 0,
    refetchOnWindowFocus: 'always',
    retry: 1,
    // While a capture runs the page follows it; otherwise it is asked when the page comes back.
    refetchInterval: (query) =>
      captureRunning(query.state.data?.capture?.state) ? VISIT_POLL_MS : false,
  });

export function useVisit(deviceId: number | null) {
  return useQuery({ ...visitQueryOptions(deviceId ?? 0), enabled: deviceId !== null });
}
