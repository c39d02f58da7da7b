import type { Pool, SignInRequest, SignInResponse } from '@flashbooth/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export const SEND_OTP_FAILED = 'Failed to send OTP. Please try again.';

/**
 * POST auth/sign-in: sends a one-time code and a one-tap sign-in link to an existing account
 * (404 user_not_found). `next` is the page the link returns to.
 */
export function signIn(pool: Pool, input: SignInRequest): Promise<SignInResponse> {
  return apiRequest<SignInResponse>(pool, 'auth/sign-in', {
    method: 'POST',
    body: input,
    auth: false,
    fallbackMessage: SEND_OTP_FAILED,
  });
}

export function useSignIn(pool: Pool) {
  return useMutation({ mutationFn: (input: SignInRequest) => signIn(pool, input) });
}
