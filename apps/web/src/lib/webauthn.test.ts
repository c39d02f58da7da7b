import { describe, expect, it } from 'vitest';
import { PASSKEY_BROWSER_MESSAGES as M, passkeyFailure, passkeysWorkAt } from './webauthn';

/** A WebAuthnError as @simplewebauthn/browser throws it. */
const webAuthnError = (name: string, code: string) => Object.assign(new Error('x'), { name, code });

describe('passkeyFailure', () => {
  it('tells a cancel or time-out apart from the page aborting its own request', () => {
    const cancelled = webAuthnError('NotAllowedError', 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY');
    expect(passkeyFailure(cancelled, 'add')).toEqual({
      kind: 'cancelled',
      message: M.addCancelled,
    });
    expect(passkeyFailure(cancelled, 'sign-in')).toEqual({
      kind: 'cancelled',
      message: M.signInCancelled,
    });
    expect(
      passkeyFailure(webAuthnError('AbortError', 'ERROR_CEREMONY_ABORTED'), 'sign-in'),
    ).toEqual({
      kind: 'aborted',
      message: null,
    });
  });

  it('names a device that already has a passkey, and a browser without passkeys', () => {
    expect(
      passkeyFailure(
        webAuthnError('InvalidStateError', 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED'),
        'add',
      ),
    ).toEqual({ kind: 'registered', message: M.alreadyRegistered });
    expect(passkeyFailure(new Error('Browser does not support WebAuthn'), 'add')).toEqual({
      kind: 'unsupported',
      message: M.addUnsupported,
    });
    expect(
      passkeyFailure(
        webAuthnError('ConstraintError', 'ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT'),
        'sign-in',
      ),
    ).toEqual({ kind: 'unsupported', message: M.signInUnsupported });
  });

  it('falls back to a general message for anything else', () => {
    expect(
      passkeyFailure(webAuthnError('SecurityError', 'ERROR_INVALID_DOMAIN'), 'add').message,
    ).toBe(M.wrongAddress);
    expect(passkeyFailure(new Error('boom'), 'add')).toEqual({ kind: 'failed', message: M.failed });
    expect(passkeyFailure(undefined, 'sign-in')).toEqual({ kind: 'failed', message: M.failed });
  });
});

describe('passkeysWorkAt (issue 20 item 7)', () => {
  const at = (url: string) => new URL(url);
  const localhost = { rpId: 'localhost', origins: ['http://localhost:8080'] };
  it('offers passkeys on an origin the relying party covers', () => {
    expect(passkeysWorkAt(at('http://localhost:8080/regular/login'), localhost)).toBe(true);
    const site = {
      rpId: 'booths.example.com',
      origins: ['https://booths.example.com', 'https://app.booths.example.com'],
    };
    expect(passkeysWorkAt(at('https://app.booths.example.com/x'), site)).toBe(true);
  });
  it('not on another address of the same server, nor on an origin the server does not accept', () => {
    expect(passkeysWorkAt(at('http://127.0.0.1:8080/regular/login'), localhost)).toBe(false);
    expect(passkeysWorkAt(at('http://localhost:9999/'), localhost)).toBe(false);
    expect(
      passkeysWorkAt(at('https://notbooths.example.com/'), {
        rpId: 'booths.example.com',
        origins: ['https://notbooths.example.com'],
      }),
    ).toBe(false);
  });
  it('anywhere when the page was not told (the Vite dev server)', () => {
    expect(passkeysWorkAt(at('http://127.0.0.1:5173/'), undefined)).toBe(true);
  });
});
