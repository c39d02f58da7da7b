import type { Pool, VerifyResponse } from '@flashbooth/contracts';
import { readSignInLinkFragment, SIGN_IN_LINK_MESSAGES } from '@flashbooth/contracts/rules';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { errorText } from '@/lib/error-text';
import { signInWithLink } from '../api/sign-in-with-link';

export type SignInLinkState =
  | { status: 'none' }
  /** The address held a link; it is being (or about to be) used. */
  | { status: 'signing-in' }
  | { status: 'failed'; message: string };

/**
 * The one-tap link of a sign-in SMS (`/<pool>/login#link=<token>&next=<path>`): read once from
 * the address, removed from it at once (so it is not left in history, bookmarks or a shared
 * screenshot), then posted to auth/link when `ready` (after the session check, so an old
 * session's refresh cannot race the new cookie). `onSignedIn` gets the session and the page the
 * link returns to.
 */
export function useSignInLink(
  pool: Pool,
  ready: boolean,
  onSignedIn: (response: VerifyResponse, next: string | null) => Promise<void>,
): SignInLinkState {
  const [link] = useState(() =>
    typeof window === 'undefined' ? null : readSignInLinkFragment(window.location.hash),
  );
  const [state, setState] = useState<SignInLinkState>(
    link ? { status: 'signing-in' } : { status: 'none' },
  );
  // Once per page load, even when effects run twice (StrictMode): a link works only once.
  const started = useRef(false);
  const signedIn = useEffectEvent(onSignedIn);

  useEffect(() => {
    if (!link) return;
    const { pathname, search } = window.location;
    window.history.replaceState(window.history.state, '', `${pathname}${search}`);
  }, [link]);

  useEffect(() => {
    if (!link || !ready || started.current) return;
    started.current = true;
    signInWithLink(pool, link.token).then(
      (response) => signedIn(response, link.next),
      (error: unknown) =>
        setState({ status: 'failed', message: errorText(error, SIGN_IN_LINK_MESSAGES.failed) }),
    );
  }, [link, pool, ready]);

  return state;
}
