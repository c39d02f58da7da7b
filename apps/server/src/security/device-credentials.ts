import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A device's serial and MQTT user name: `fb-` and 10 random lower-case base32 characters. */
export function newThingName(): string {
  let suffix = '';
  for (let i = 0; i < 10; i += 1) suffix += BASE32[randomInt(BASE32.length)];
  return `fb-${suffix}`;
}

/** 32 random bytes: the booth's broker password, shown once at registration. */
export function newDeviceSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** A high-entropy secret needs no slow hash: SHA-256, hex. */
export function hashDeviceSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function deviceSecretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashDeviceSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
