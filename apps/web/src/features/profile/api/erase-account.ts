import type { ErasureCodeSent } from '@flashbooth/contracts';
import { PRIVACY_MESSAGES as M } from '@flashbooth/contracts/rules';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** POST users/self/erasure-code: texts a fresh code that confirms deleting the account. */
export function sendErasureCode(): Promise<ErasureCodeSent> {
  return apiRequest<ErasureCodeSent>('regular', 'users/self/erasure-code', {
    method: 'POST',
    fallbackMessage: M.deleteSendFailed,
  });
}

export function useSendErasureCode() {
  return useMutation({ mutationFn: sendErasureCode });
}

/**
 * POST users/self/erase: deletes the account and everything in it at once, with the code. The
 * server also ends every session and clears the refresh cookie.
 */
export function eraseAccount(code: string): Promise<{ status: 'erased' }> {
  return apiRequest<{ status: 'erased' }>('regular', 'users/self/erase', {
    method: 'POST',
    body: { code },
    fallbackMessage: M.deleteFailed,
  });
}

export function useEraseAccount() {
  return useMutation({ mutationFn: eraseAccount });
}
