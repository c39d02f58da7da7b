import type { Pool, VerifyResponse } from '@flashbooth/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export interface VerifyInput {
  phone: string;
  code: string;
}

/** POST auth/verify: answers the code; sets the refresh cookie and returns the access token. */
export function verifyCode(pool: Pool, input: VerifyInput): Promise<VerifyResponse> {
  return apiRequest<VerifyResponse>(pool, 'auth/verify', {
    method: 'POST',
    body: input,
    auth: false,
    fallbackMessage: 'Verification failed. Please try again.',
  });
}

export function useVerifyCode(pool: Pool) {
  return useMutation({ mutationFn: (input: VerifyInput) => verifyCode(pool, input) });
}
