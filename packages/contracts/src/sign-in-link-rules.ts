/**
 * The one-tap sign-in link that every sign-in SMS carries (issue 14, item 2; docs/security.md),
 * and the refusal a phone gets when its code budget is spent. Zod-free, so the login screen can
 * use it without pulling zod into a visitor's download.
 *
 * A link is `<site>/<pool>/login#link=<token>` (plus `&next=<path>` when the sign-in started
 * with a page to return to). The token sits in the fragment, which browsers never send to a
 * server, so it stays out of access logs and Referer headers; the login page reads it, removes
 * it from the address bar and posts it to `auth/link`.
 */
import type { RulesPool } from './rules.js';

/** Random bytes in a link's token: 256 bits, far beyond guessing (at least 128 are required). */
export const SIGN_IN_LINK_TOKEN_BYTES = 32;
/** A token as it travels: base64url without padding (43 characters for 32 bytes). */
export const SIGN_IN_LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** The fragment's keys. */
export const SIGN_IN_LINK_PARAM = 'link';
export const SIGN_IN_LINK_NEXT_PARAM = 'next';
/** The longest page to return to that a sign-in carries. */
export const RETURN_PATH_MAX_LENGTH = 512;

export const SIGN_IN_LINK_MESSAGES = {
  /** Unknown, already used, expired, or sent for the other sign-in (pool). */
  invalid: 'This sign-in link has expired or was already used. Please request a new code.',
  tooManyTries:
    'Too many sign-in links were tried from your network. Please wait a few minutes and try again.',
  failed: 'Could not sign you in with this link. Please try again.',
  returnPath: 'The page to return to must be a path on this site.',
} as const;

/** The `reason` of the 429 `too_many_attempts` a phone gets while its code budget is spent. */
export const CODE_BUDGET_SPENT = 'code_budget_spent';

/**
 * What that 429 carries besides `message` and `code`: when codes are checked again (UTC without
 * zone suffix, rounded up to the minute) and whether this very answer texted a sign-in link.
 */
export interface CodeBudgetSpentDetails {
  reason: typeof CODE_BUDGET_SPENT;
  retry_at: string;
  link_sent: boolean;
}

/** True for a refusal body that says the phone's code budget is spent. */
export function isCodeBudgetSpent(body: unknown): body is CodeBudgetSpentDetails {
  if (typeof body !== 'object' || body === null) return false;
  const value = body as Record<string, unknown>;
  return (
    value.reason === CODE_BUDGET_SPENT &&
    typeof value.retry_at === 'string' &&
    typeof value.link_sent === 'boolean'
  );
}

/**
 * A page on this site to return to after sign-in: an absolute path, never `//host` or `/\host`
 * (which browsers read as another site), without control characters, at most 512 characters.
 */
export function isSameSitePath(value: string): boolean {
  return (
    value.length <= RETURN_PATH_MAX_LENGTH &&
    // eslint-disable-next-line no-control-regex
    /^\/(?![/\\])[^\\\u0000-\u001f\u007f]*$/.test(value)
  );
}

/** The site-relative address of a sign-in link: the pool's login page with the token. */
export function signInLinkPath(pool: RulesPool, token: string, next?: string | null): string {
  const params = new URLSearchParams({ [SIGN_IN_LINK_PARAM]: token });
  if (next && isSameSitePath(next)) params.set(SIGN_IN_LINK_NEXT_PARAM, next);
  return `/${pool}/login#${params.toString()}`;
}

export interface SignInLinkFragment {
  /** The token as found (the server judges it; a truncated one gets the "invalid" message). */
  token: string;
  /** The page to return to, when the link names one that is on this site. */
  next: string | null;
}

/** Reads a login page's fragment (`#link=…&next=…`); null when it holds no sign-in link. */
export function readSignInLinkFragment(hash: string): SignInLinkFragment | null {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const token = params.get(SIGN_IN_LINK_PARAM);
  if (token === null) return null;
  const next = params.get(SIGN_IN_LINK_NEXT_PARAM);
  return { token, next: next !== null && isSameSitePath(next) ? next : null };
}
