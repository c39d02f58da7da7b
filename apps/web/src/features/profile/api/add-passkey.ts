import type { Passkey, PasskeyOptionsResponse, Pool } from '@flashbooth/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { loadWebAuthn } from '@/lib/webauthn';
import { passkeysQueryOptions } from './list-passkeys';

/**
 * Adds a passkey: POST passkeys/registration/options, the browser makes the passkey
 * (`startRegistration`, which may throw a WebAuthnError: see lib/webauthn `passkeyFailure`), then
 * POST passkeys/registration/verify with its name.
 */
export async function addPasskey(pool: Pool, name: string): Promise<Passkey> {
  const [{ startRegistration }, { options }] = await Promise.all([
    loadWebAuthn(),
    apiRequest<PasskeyOptionsResponse>(pool, 'passkeys/registration/options', {
      method: 'POST',
      fallbackMessage: 'Could not start adding a passkey. Please try again.',
    }),
  ]);
  const credential = await startRegistration({
    optionsJSON: options as unknown as Parameters<typeof startRegistration>[0]['optionsJSON'],
  });
  return apiRequest<Passkey>(pool, 'passkeys/registration/verify', {
    method: 'POST',
    body: { name, credential },
    fallbackMessage: 'The passkey could not be added. Please try again.',
  });
}

export function useAddPasskey(pool: Pool) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => addPasskey(pool, name),
    onSettled: () => queryClient.invalidateQueries(passkeysQueryOptions(pool)),
  });
}
