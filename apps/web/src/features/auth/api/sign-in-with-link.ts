import type { Pool, VerifyResponse } from '@flashbooth/contracts';
import { SIGN_IN_LINK_MESSAGES } from '@flashbooth/contracts/rules';
import { apiRequest } from '@/lib/api-client';

/**
 * POST auth/link: signs in with the token of the one-tap link in a sign-in SMS; answers like
 * auth/verify (access token, user, refresh cookie). 401 invalid_token for a used, expired or
 * unknown link.
 */
export function signInWithLink(pool: Pool, token: string): Promise<VerifyResponse> {
  return apiRequest<VerifyResponse>(pool, 'auth/link', {
    method: 'POST',
    body: { token },
    auth: false,
    fallbackMessage: SIGN_IN_LINK_MESSAGES.failed,
  });
}
