import type { Pool } from '@flashbooth/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { passkeysQueryOptions } from './list-passkeys';

/** DELETE passkeys/{id}: removes one of the signed-in person's passkeys. */
export function removePasskey(pool: Pool, id: number): Promise<void> {
  return apiRequest<void>(pool, `passkeys/${id}`, {
    method: 'DELETE',
    fallbackMessage: 'The passkey could not be removed. Please try again.',
  });
}

export function useRemovePasskey(pool: Pool) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => removePasskey(pool, id),
    onSettled: () => queryClient.invalidateQueries(passkeysQueryOptions(pool)),
  });
}
