import type { Pool, VerifyRequest, VerifyResponse } from '@flashbooth/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** POST auth/verify: answers the code; sets the refresh cookie and returns the access token. */
export function verifyCode(pool: Pool, input: VerifyRequest): Promise<VerifyResponse> {
  return apiRequest<VerifyResponse>(pool, 'auth/verify', {
    method: 'POST',
    body: input,
    auth: false,
    fallbackMessage: 'Verification failed. Please try again.',
  });
}

export function useVerifyCode(pool: Pool) {
  return useMutation({ mutationFn: (input: VerifyRequest) => verifyCode(pool, input) });
}
