import type { Pool } from '@flashbooth/contracts';
import { removeSessionValue, sessionValue, setSessionValue } from '../../lib/storage';

/**
 * Where a sign-in stands, kept in the tab's session storage: a phone discards a tab while its
 * visitor reads the SMS (or switches apps) and reloads it on return, and the login screen then
 * opens on the step it was on — Create Your Account or Enter OTP for the same number — instead of
 * asking for the number again (a code has been sent already). Session storage, not local: the
 * step belongs to this tab (a duplicated tab copies it), and it is gone when the tab is closed.
 * Nothing secret is kept: the number typed and the step, never the code.
 *
 * The app's loader (apps/web/scripts/prerender.ts) reads the same key: a page that would paint
 * the phone step from its HTML starts the app at once instead of waiting for a tap.
 */
export const SIGN_IN_PROGRESS_KEY = 'signInProgress';

/** How long a step is kept: long enough to read an SMS, short enough not to surprise later. */
export const SIGN_IN_PROGRESS_MS = 30 * 60 * 1000;

export interface SignInProgress {
  pool: Pool;
  step: 'phone' | 'signup' | 'otp';
  countryCode: string;
  number: string;
  /** The E.164 phone the code went to (signup and otp). */
  phone: string;
  /** When the step was reached (ms since the epoch). */
  at: number;
}

const STEPS = new Set(['phone', 'signup', 'otp']);

function isProgress(value: unknown): value is SignInProgress {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    (v.pool === 'regular' || v.pool === 'enterprise') &&
    typeof v.step === 'string' &&
    STEPS.has(v.step) &&
    typeof v.countryCode === 'string' &&
    typeof v.number === 'string' &&
    typeof v.phone === 'string' &&
    typeof v.at === 'number'
  );
}

/**
 * The pool's sign-in as this tab left it, or null (none, another pool's, too old, or storage
 * unavailable). A step past phone entry without its phone falls back to phone entry.
 */
export function readSignInProgress(pool: Pool, now = Date.now()): SignInProgress | null {
  const raw = sessionValue(SIGN_IN_PROGRESS_KEY);
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isProgress(value) || value.pool !== pool) return null;
  if (now - value.at > SIGN_IN_PROGRESS_MS || value.at > now + 60_000) return null;
  if (value.step !== 'phone' && value.phone === '') return { ...value, step: 'phone' };
  return value;
}

export function writeSignInProgress(progress: SignInProgress): void {
  // Refused (private mode, full storage): the step lives only in the page, as before.
  setSessionValue(SIGN_IN_PROGRESS_KEY, JSON.stringify(progress));
}

export function clearSignInProgress(): void {
  removeSessionValue(SIGN_IN_PROGRESS_KEY);
}
