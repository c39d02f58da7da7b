import type { Pool, SignUpRequest, SignUpResponse } from '@flashbooth/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** POST auth/sign-up: creates the account and sends a code and sign-in link (409 phone_registered). */
export function signUp(pool: Pool, input: SignUpRequest): Promise<SignUpResponse> {
  return apiRequest<SignUpResponse>(pool, 'auth/sign-up', {
    method: 'POST',
    body: input,
    auth: false,
    fallbackMessage: 'Sign-up failed. Please try again.',
  });
}

export function useSignUp(pool: Pool) {
  return useMutation({ mutationFn: (input: SignUpRequest) => signUp(pool, input) });
}
