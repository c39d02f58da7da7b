import type { SoftwareRelease } from '@flashbooth/contracts';
import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { releasesQueryOptions } from './get-releases';

/** POST software/releases {version, release_notes}: the record; its file comes next. */
export function createRelease(body: {
  version: string;
  release_notes: string | null;
}): Promise<SoftwareRelease> {
  return apiRequest<SoftwareRelease>('enterprise', 'software/releases', {
    method: 'POST',
    body,
    fallbackMessage: SOFTWARE_MESSAGES.createReleaseFailed,
  });
}

export function useCreateRelease() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRelease,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: releasesQueryOptions().queryKey }),
  });
}
