import type { Pool } from '@flashbooth/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { CodeSentResponse } from './sign-in';

export interface SignUpInput {
  phone: string;
  name: string;
}

/** POST auth/sign-up: creates the account and sends a code (409 phone_registered). */
export function signUp(pool: Pool, input: SignUpInput): Promise<CodeSentResponse> {
  return apiRequest<CodeSentResponse>(pool, 'auth/sign-up', {
    method: 'POST',
    body: input,
    auth: false,
    fallbackMessage: 'Sign-up failed. Please try again.',
  });
}

export function useSignUp(pool: Pool) {
  return useMutation({ mutationFn: (input: SignUpInput) => signUp(pool, input) });
}
