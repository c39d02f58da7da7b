import type { SoftwareRelease } from '@flashbooth/contracts';
import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { releaseQueryOptions } from './get-release';
import { releasesQueryOptions } from './get-releases';

/** PATCH software/releases/{id} with the changed version and/or release notes. */
export function updateRelease(
  releaseId: number,
  body: { version?: string; release_notes?: string },
): Promise<SoftwareRelease> {
  return apiRequest<SoftwareRelease>('enterprise', `software/releases/${releaseId}`, {
    method: 'PATCH',
    body,
    fallbackMessage: SOFTWARE_MESSAGES.updateReleaseFailed,
  });
}

export function useUpdateRelease(releaseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { version?: string; release_notes?: string }) =>
      updateRelease(releaseId, body),
    onSuccess: (release) => {
      queryClient.setQueryData(releaseQueryOptions(releaseId).queryKey, release);
      // A channel shows its release's version.
      void queryClient.invalidateQueries({ queryKey: ['software', 'channels'] });
      return queryClient.invalidateQueries({ queryKey: releasesQueryOptions().queryKey });
    },
  });
}
