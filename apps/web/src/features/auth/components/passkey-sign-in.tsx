import type { Pool, VerifyResponse } from '@flashbooth/contracts';
import { useEffect, useRef, useState } from 'react';
import { LineIcon } from '@/components/ui/line-icon';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { canUsePasskeys, hasPasskeyAutofill, loadWebAuthn, passkeyFailure } from '@/lib/webauthn';
import { signInWithPasskey } from '../api/passkey-sign-in';
import './passkey-sign-in.css';

interface PasskeySignInProps {
  pool: Pool;
  /** Another step of the login is running: the button waits. */
  disabled: boolean;
  onSignedIn: (response: VerifyResponse) => void;
  onError: (message: string) => void;
}

function messageOf(error: unknown): string | null {
  if (error instanceof ApiError) return error.message;
  return passkeyFailure(error, 'sign-in').message;
}

/**
 * The phone-entry step's passkey sign-in: a "Sign in with a passkey" button (the browser lists
 * this site's passkeys; no number needed), and, where the browser supports it, the phone field's
 * autofill offering passkeys too (conditional mediation; the field's autocomplete ends in
 * `webauthn`). Absent where passkeys cannot work (no WebAuthn, or an address of the site the
 * relying party does not cover). The autofill waits silently: a failure is said only once the
 * person picked a passkey or pressed the button. @simplewebauthn/browser loads on use.
 */
export function PasskeySignIn({ pool, disabled, onSignedIn, onError }: PasskeySignInProps) {
  const [supported] = useState(canUsePasskeys);
  const [busy, setBusy] = useState(false);
  /** Bumped after a button sign-in fails, so autofill is offered again. */
  const [round, setRound] = useState(0);
  const buttonActive = useRef(false);
  const callbacks = useRef({ onSignedIn, onError });
  useEffect(() => {
    callbacks.current = { onSignedIn, onError };
  });

  useEffect(() => {
    if (!supported) return;
    let active = true;
    let started = false;
    const offerInAutofill = async () => {
      if (!(await hasPasskeyAutofill()) || !active || buttonActive.current) return;
      started = true;
      let chosen = false;
      try {
        const response = await signInWithPasskey(pool, {
          autofill: true,
          stillWanted: () => active && !buttonActive.current,
          onChosen: () => {
            chosen = true;
          },
        });
        if (active) callbacks.current.onSignedIn(response);
      } catch (error) {
        // The button took over, the step changed, or the person dismissed the autofill.
        if (!active || buttonActive.current) return;
        // Nobody asked yet: the offer in the field just is not there (the button still is).
        if (!chosen) return;
        if (!(error instanceof ApiError)) {
          const { kind } = passkeyFailure(error, 'sign-in');
          if (kind === 'aborted' || kind === 'cancelled') return;
        }
        const message = messageOf(error);
        if (message) callbacks.current.onError(message);
      }
    };
    void offerInAutofill();
    return () => {
      active = false;
      // Ends a pending autofill request (the library is loaded once one was started).
      if (started && !buttonActive.current) {
        void loadWebAuthn().then(({ WebAuthnAbortService }) => {
          if (!buttonActive.current) WebAuthnAbortService.cancelCeremony();
        });
      }
    };
  }, [pool, supported, round]);

  if (!supported) return null;

  const signIn = async () => {
    if (busy || disabled) return;
    buttonActive.current = true;
    setBusy(true);
    try {
      // startAuthentication aborts the pending autofill request itself.
      const response = await signInWithPasskey(pool);
      callbacks.current.onSignedIn(response);
    } catch (error) {
      const message = messageOf(error);
      if (message) callbacks.current.onError(message);
      buttonActive.current = false;
      setRound((value) => value + 1);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="login-passkey">
      <p className="login-passkey-or" aria-hidden="true">
        <span>or</span>
      </p>
      <button
        type="button"
        className="btn btn-secondary btn-block"
        onClick={() => void signIn()}
        disabled={disabled || busy}
        aria-busy={busy}
      >
        {busy ? (
          <Spinner small label="Waiting for your passkey…" />
        ) : (
          <LineIcon size={18}>
            <circle cx="8" cy="8" r="4" />
            <path d="M10.8 10.8 20 20M16 16l2-2M18.5 18.5l2-2" />
          </LineIcon>
        )}
        <span>Sign in with a passkey</span>
      </button>
    </div>
  );
}
