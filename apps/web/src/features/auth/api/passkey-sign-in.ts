import type { PasskeyOptionsResponse, Pool, VerifyResponse } from '@flashbooth/contracts';
import { apiRequest } from '@/lib/api-client';
import { loadWebAuthn } from '@/lib/webauthn';

/**
 * Signs in with a passkey: POST passkeys/sign-in/options (no phone number), the browser asks
 * for a passkey (`startAuthentication`; with `autofill`, through the phone field's autofill and
 * only once the person picks one), then POST passkeys/sign-in/verify, which answers like
 * auth/verify (access token, user, refresh cookie). Browser failures are WebAuthnErrors (see
 * lib/webauthn `passkeyFailure`).
 */
export async function signInWithPasskey(
  pool: Pool,
  {
    autofill = false,
    stillWanted = () => true,
    onChosen,
  }: {
    autofill?: boolean;
    /** Asked once the options are here: false ends quietly (an AbortError) before the browser asks. */
    stillWanted?: () => boolean;
    /** The person picked a passkey (the browser answered): from here a failure is theirs to hear. */
    onChosen?: () => void;
  } = {},
): Promise<VerifyResponse> {
  const [{ startAuthentication }, { options }] = await Promise.all([
    loadWebAuthn(),
    apiRequest<PasskeyOptionsResponse>(pool, 'passkeys/sign-in/options', {
      method: 'POST',
      auth: false,
      fallbackMessage: 'Could not start passkey sign-in. Please try again.',
    }),
  ]);
  // A newer request (the button, after autofill started) must not be aborted by this older one.
  if (!stillWanted()) throw new DOMException('Replaced by another passkey request.', 'AbortError');
  const credential = await startAuthentication({
    optionsJSON: options as unknown as Parameters<typeof startAuthentication>[0]['optionsJSON'],
    useBrowserAutofill: autofill,
  });
  onChosen?.();
  return apiRequest<VerifyResponse>(pool, 'passkeys/sign-in/verify', {
    method: 'POST',
    body: { credential },
    auth: false,
    fallbackMessage: 'Passkey sign-in failed. Please try again.',
  });
}
