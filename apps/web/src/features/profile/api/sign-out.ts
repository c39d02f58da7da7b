import type { Pool, SignOutResponse } from '@flashbooth/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/**
 * POST auth/sign-out: ends the server session (the refresh cookie). The profile screen calls
 * this first so it can still show the spec's failure message; the local session is cleared
 * (useSession().clearLocal) only after leaving the guarded page, so the route guard does not
 * bounce the person to the login screen on the way out.
 */
export function signOutOnServer(pool: Pool): Promise<SignOutResponse> {
  return apiRequest<SignOutResponse>(pool, 'auth/sign-out', { method: 'POST', auth: false });
}

export function useSignOutOnServer(pool: Pool) {
  return useMutation({ mutationFn: () => signOutOnServer(pool) });
}
