import type { SoftwareRelease } from '@flashbooth/contracts';
import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** GET software/releases/{id}: with a fresh 1-hour download link once a file is uploaded. */
export function getRelease(releaseId: number, signal?: AbortSignal): Promise<SoftwareRelease> {
  return apiRequest<SoftwareRelease>('enterprise', `software/releases/${releaseId}`, {
    fallbackMessage: SOFTWARE_MESSAGES.loadReleaseFailed,
    signal,
  });
}

export const releaseQueryOptions = (releaseId: number) =>
  queryOptions({
    queryKey: ['software', 'releases', 'detail', releaseId] as const,
    queryFn: ({ signal }) => getRelease(releaseId, signal),
  });

export function useRelease(releaseId: number) {
  return useQuery(releaseQueryOptions(releaseId));
}
