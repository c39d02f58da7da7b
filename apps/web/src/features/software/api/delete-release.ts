import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { releasesQueryOptions } from './get-releases';

/** DELETE software/releases/{id}: the record and its stored file (409 while a channel links it). */
export function deleteRelease(releaseId: number): Promise<void> {
  return apiRequest<void>('enterprise', `software/releases/${releaseId}`, {
    method: 'DELETE',
    fallbackMessage: SOFTWARE_MESSAGES.deleteReleaseFailed,
  });
}

export function useDeleteRelease(releaseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteRelease(releaseId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: releasesQueryOptions().queryKey }),
  });
}
