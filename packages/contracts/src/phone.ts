import { z } from 'zod';

/**
 * E.164: a plus, a country code that does not start with 0, and at most 15 digits in all.
 * The login screen sends country code + number with everything except digits and plus removed.
 */
export const E164_PATTERN = /^\+[1-9]\d{7,14}$/;

/** What the login screen does before sending: keep only digits and plus. */
export function normalizePhoneInput(countryCode: string, number: string): string {
  return `${countryCode}${number}`.replace(/[^\d+]/g, '');
}

export const PhoneSchema = z
  .string()
  .trim()
  .transform((value) => value.replace(/[^\d+]/g, ''))
  .refine((value) => E164_PATTERN.test(value), {
    message: 'Please enter a valid phone number.',
  });
