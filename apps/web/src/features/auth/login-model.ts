import { AUTH_ERROR_CODES, normalizePhoneInput, OTP_LENGTH } from '@flashbooth/contracts/rules';
import { ApiError } from '@/lib/api-client';

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

/** The phone to send, or null when it is too short (spec: digits and plus, at least 10). */
export function phoneToSend(countryCode: string, number: string): string | null {
  const phone = normalizePhoneInput(countryCode, number);
  return phone.length < MIN_PHONE_LENGTH ? null : phone;
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

/** The server's message when it sent one (spec: read it first), else the screen's default. */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}
