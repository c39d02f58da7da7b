import { createHmac } from 'node:crypto';

/** Separate keys for separate uses, all derived from the one configured secret. */
export function deriveKey(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(`flashbooth:${purpose}`).digest();
}
