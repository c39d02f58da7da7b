import type { Pool, SignInResponse } from '@flashbooth/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export const SEND_OTP_FAILED = 'Failed to send OTP. Please try again.';

/** POST auth/sign-in: sends a one-time code to an existing account (404 user_not_found). */
export function signIn(pool: Pool, phone: string): Promise<SignInResponse> {
  return apiRequest<SignInResponse>(pool, 'auth/sign-in', {
    method: 'POST',
    body: { phone },
    auth: false,
    fallbackMessage: SEND_OTP_FAILED,
  });
}

export function useSignIn(pool: Pool) {
  return useMutation({ mutationFn: (phone: string) => signIn(pool, phone) });
}
