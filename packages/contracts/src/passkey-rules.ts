/** Passkeys' limits and messages, zod-free (the web app imports them through `/rules`). */

/** The longest passkey name (e.g. "Chrome on Android"). */
export const PASSKEY_NAME_MAX_LENGTH = 60;
/** The most passkeys one account may hold. */
export const PASSKEYS_PER_ACCOUNT_MAX = 10;

export const PASSKEY_MESSAGES = {
  nameRequired: 'Please give the passkey a name.',
  nameTooLong: `Passkey name must be at most ${PASSKEY_NAME_MAX_LENGTH} characters.`,
  badId: 'Passkey id must be a positive whole number.',
  badResponse: 'The passkey response could not be read. Please try again.',
} as const;
