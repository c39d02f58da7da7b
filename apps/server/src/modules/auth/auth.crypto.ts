import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { OTP_LENGTH, SIGN_IN_LINK_TOKEN_BYTES } from '@flashbooth/contracts';

/** A uniformly random 4-digit code from the CSPRNG. */
export function generateCode(): string {
  return randomInt(0, 10 ** OTP_LENGTH)
    .toString()
    .padStart(OTP_LENGTH, '0');
}

/** Keyed hash of a code, bound to its pool and phone so a stored hash is useless elsewhere. */
export function hashCode(key: Buffer, pool: string, phone: string, code: string): string {
  return createHmac('sha256', key).update(`${pool}\n${phone}\n${code}`).digest('hex');
}

export function safeEqualHex(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

export function generateRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The token of a one-tap sign-in link: 32 bytes (256 bits) from the CSPRNG, base64url. */
export function generateLinkToken(): string {
  return randomBytes(SIGN_IN_LINK_TOKEN_BYTES).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
