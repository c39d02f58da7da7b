import {
  AUTH_ERROR_CODES,
  isCodeBudgetSpent,
  isSameSitePath,
  normalizePhoneInput,
  OTP_LENGTH,
  phoneFromText,
} from '@flashbooth/contracts/rules';
import type { Pool } from '@flashbooth/contracts';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { isEnterpriseArea, isRegularArea } from '@/lib/route-guard';
import { formatUtcTimestamp } from '@/lib/format-date';

/** Login texts (spec: visitor.md sections 5 and 8). */
export const LOGIN_MESSAGES = {
  invalidPhone: 'Please enter a valid phone number.',
  sendFailed: 'Failed to send OTP. Please try again.',
  nameRequired: 'Please enter your full name.',
  phoneRegistered: 'This phone number is already registered. Attempting to send OTP.',
  createdButNotSent: 'Account created, but could not send OTP. Please try logging in.',
  signUpFailed: 'Sign-up failed. Please try again.',
  otpRequired: 'Please enter the 4-digit OTP.',
  codeExpired: 'Could not sign you in. A new OTP is being sent.',
  codeMismatch: 'Invalid OTP. A new OTP is being sent to your phone.',
  tooManyAttempts: 'Too many attempts. Please try again later.',
  verifyFailed: 'Verification failed. Please try again.',
  signOutFailed: 'Sign-out error. Please try again.',
} as const;

export const DEFAULT_COUNTRY_CODE = '+91';
export const COUNTRY_CODE_MAX_LENGTH = 5;
export const PHONE_NUMBER_MAX_LENGTH = 15;
export const MIN_PHONE_LENGTH = 10;
export { OTP_LENGTH };

/**
 * The phone to send, or null when it is not one (spec: digits and plus, at least 10; and, as the
 * server checks, nothing but a phone's characters and E.164 with the country code's plus).
 */
export function phoneToSend(countryCode: string, number: string): string | null {
  const phone = normalizePhoneInput(countryCode, number);
  if (phone.length < MIN_PHONE_LENGTH) return null;
  return phoneFromText(`${countryCode} ${number}`);
}

/**
 * Where a sign-in ends (spec: the stored redirect-after-login address, otherwise home). Home is
 * the pool's own: the landing page for visitors, the console's first page (Organizations, the
 * first item of its navigation) for staff. A stored page of the other pool's area is not
 * followed: the guard would only turn the person away from it.
 */
export function homeAfterSignIn(pool: Pool, stored: string | null): string {
  const home =
    pool === 'enterprise' ? paths.enterprise.organizations.getHref() : paths.home.getHref();
  if (stored === null) return home;
  const pathname = stored.split(/[?#]/)[0] ?? stored;
  const otherArea = pool === 'enterprise' ? isRegularArea(pathname) : isEnterpriseArea(pathname);
  return otherArea ? home : stored;
}

/** What the code box keeps of typed or pasted text: digits only, at most 4. */
export function sanitizeOtp(value: string): string {
  return value.replace(/\D/g, '').slice(0, OTP_LENGTH);
}

export function isCompleteOtp(value: string): boolean {
  return new RegExp(`^\\d{${OTP_LENGTH}}$`).test(value);
}

export type AuthErrorCode = (typeof AUTH_ERROR_CODES)[keyof typeof AUTH_ERROR_CODES];

/** The sign-in contract's error codes (shared with the server). */
export const AUTH_CODES = AUTH_ERROR_CODES;

export function hasErrorCode(error: unknown, code: AuthErrorCode): boolean {
  return error instanceof ApiError && error.code === code;
}

/**
 * A phone whose code budget is spent (issue 14): codes are not checked until `retryAt`, but the
 * one-tap link in a sign-in SMS still signs in. `linkSent`: this very refusal texted one.
 */
export interface BudgetNotice {
  /** "14/05/2025 14:05 UTC" (the spec's date format, in UTC like every timestamp). */
  retryAt: string;
  linkSent: boolean;
}

/** The spent code budget a refusal reports, or null for any other error. */
export function budgetNoticeOf(error: unknown): BudgetNotice | null {
  if (!(error instanceof ApiError) || !isCodeBudgetSpent(error.details)) return null;
  return {
    retryAt: `${formatUtcTimestamp(error.details.retry_at)} UTC`,
    linkSent: error.details.link_sent,
  };
}

/** The login screen's plain words for a spent code budget. */
export const BUDGET_TEXTS = {
  title: 'Too many wrong codes',
  reason: (retryAt: string) =>
    `This phone number has had too many wrong codes, so we cannot check codes for it until ${retryAt}.`,
  linkSent: (phone: string) =>
    `We have just texted a sign-in link to ${phone}. Tap the link in that SMS: it signs you in even now.`,
  linkEarlier:
    'The sign-in link in the latest SMS from us signs you in even now. If it has expired, press Continue and we will text you a new one.',
} as const;

/** The page a sign-in should return to (sent along for the SMS's link): same-site paths only. */
export function returnPathToSend(stored: string | null): string | undefined {
  return stored !== null && isSameSitePath(stored) ? stored : undefined;
}
