import type * as WebAuthnBrowserModule from '@simplewebauthn/browser';
import { appConfig, type PasskeyRelyingParty } from '@/config/app-config';

/**
 * Passkeys in the browser. @simplewebauthn/browser is loaded only when a passkey is used
 * (`loadWebAuthn`), so it stays out of every page's first download; what a page needs before
 * that (is there WebAuthn at all, does the browser offer passkeys in autofill) is asked of the
 * browser directly.
 */
export type WebAuthnBrowser = typeof WebAuthnBrowserModule;

export function loadWebAuthn(): Promise<WebAuthnBrowser> {
  return import('@simplewebauthn/browser');
}

/** Whether this browser has WebAuthn at all (a secure context with PublicKeyCredential). */
export function hasWebAuthn(): boolean {
  return (
    typeof window !== 'undefined' &&
    window.isSecureContext &&
    typeof window.PublicKeyCredential === 'function'
  );
}

/**
 * Whether a passkey of this site's relying party can be made or used at `location`: its host is
 * the relying party's id or under it, and the server accepts its origin. Elsewhere (the same
 * server opened as 127.0.0.1 when the id is `localhost`) the browser or the server would refuse
 * every passkey, so none is offered there.
 */
export function passkeysWorkAt(
  location: Pick<Location, 'origin' | 'hostname'>,
  relyingParty: PasskeyRelyingParty | undefined,
): boolean {
  if (!relyingParty) return true;
  const { rpId, origins } = relyingParty;
  const host = location.hostname.toLowerCase();
  const underId = host === rpId || host.endsWith(`.${rpId}`);
  return underId && origins.includes(location.origin);
}

/** Whether this page may offer passkeys: WebAuthn here, on an address the relying party covers. */
export function canUsePasskeys(): boolean {
  return hasWebAuthn() && passkeysWorkAt(window.location, appConfig.passkeys);
}

/** Whether the browser offers passkeys in a field's autofill (conditional mediation). */
export async function hasPasskeyAutofill(): Promise<boolean> {
  if (!canUsePasskeys()) return false;
  const check = window.PublicKeyCredential.isConditionalMediationAvailable;
  if (typeof check !== 'function') return false;
  try {
    return await check.call(window.PublicKeyCredential);
  } catch {
    return false;
  }
}

export const PASSKEY_BROWSER_MESSAGES = {
  addCancelled: 'No passkey was added: the request was cancelled or timed out.',
  signInCancelled:
    'Passkey sign-in was cancelled or timed out. Try again, or continue with your phone number.',
  addUnsupported:
    'This browser or device cannot create passkeys. Try another browser, or your phone.',
  signInUnsupported: 'This browser cannot use passkeys. Continue with your phone number instead.',
  alreadyRegistered: 'This device already has a passkey for your account.',
  wrongAddress: 'Passkeys do not work on this address of the site.',
  failed: 'Something went wrong with the passkey. Please try again.',
} as const;

export type PasskeyFailure =
  /** Cancelled by the person, timed out, or replaced by another passkey request: nothing to fix. */
  | { kind: 'cancelled'; message: string }
  /** Aborted by the page itself (a newer request): say nothing. */
  | { kind: 'aborted'; message: null }
  | { kind: 'unsupported' | 'registered' | 'failed'; message: string };

/**
 * What went wrong in `navigator.credentials.create/get` (as @simplewebauthn/browser reports it:
 * a WebAuthnError with `code` and the DOMException's `name`), in words for the person.
 */
export function passkeyFailure(error: unknown, ceremony: 'add' | 'sign-in'): PasskeyFailure {
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  const m = PASSKEY_BROWSER_MESSAGES;
  if (name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED') {
    return { kind: 'aborted', message: null };
  }
  if (name === 'NotAllowedError') {
    return { kind: 'cancelled', message: ceremony === 'add' ? m.addCancelled : m.signInCancelled };
  }
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') {
    return { kind: 'registered', message: m.alreadyRegistered };
  }
  if (
    name === 'NotSupportedError' ||
    code === 'ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT' ||
    code === 'ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT' ||
    code === 'ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG' ||
    (error instanceof Error && /does not support WebAuthn/i.test(error.message))
  ) {
    return {
      kind: 'unsupported',
      message: ceremony === 'add' ? m.addUnsupported : m.signInUnsupported,
    };
  }
  if (
    name === 'SecurityError' ||
    code === 'ERROR_INVALID_DOMAIN' ||
    code === 'ERROR_INVALID_RP_ID'
  ) {
    return { kind: 'failed', message: m.wrongAddress };
  }
  return { kind: 'failed', message: m.failed };
}
