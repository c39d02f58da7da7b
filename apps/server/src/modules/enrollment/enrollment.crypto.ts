import { createHmac, randomInt } from 'node:crypto';
import { ENROLLMENT_CODE_ALPHABET, ENROLLMENT_CODE_LENGTH } from '@flashbooth/contracts';

/** A code of ENROLLMENT_CODE_LENGTH characters, each drawn uniformly from the CSPRNG. */
export function generateEnrollmentCode(): string {
  let code = '';
  for (let i = 0; i < ENROLLMENT_CODE_LENGTH; i += 1) {
    code += ENROLLMENT_CODE_ALPHABET[randomInt(ENROLLMENT_CODE_ALPHABET.length)];
  }
  return code;
}

/**
 * Keyed hash of a normalized code (like the sign-in codes, auth.crypto.ts): a stolen table of
 * hashes cannot be tried against the 29^8 codes without the server's key.
 */
export function hashEnrollmentCode(key: Buffer, code: string): string {
  return createHmac('sha256', key).update(`device-enrollment\n${code}`).digest('hex');
}
