import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Pool } from '@flashbooth/contracts';

/**
 * Signed, stateless WebAuthn challenges. Asking for options stores nothing (an anonymous caller
 * cannot fill a table by asking); the challenge itself says what it is for, and the server's
 * key proves it made it:
 *
 *   [0] version 1 · [1] purpose · [2] pool · [3..7) user id (0 for sign-in) ·
 *   [7..15) expiry (ms since the epoch) · [15..31) 16 random bytes · [31..47) HMAC-SHA256, first
 *   16 bytes, over bytes 0..31 with a key derived from AUTH_SECRET (purpose `passkey-challenge`)
 *
 * 47 bytes, well over WebAuthn's minimum of 16 random ones. Single use is the caller's part: the
 * challenge is spent (inserted into `passkey_spent_challenges`) in the transaction that accepts
 * its response, so a second response with it finds it spent.
 */
export type ChallengePurpose = 'register' | 'sign-in';

export interface ChallengeClaims {
  purpose: ChallengePurpose;
  pool: Pool;
  /** The account a registration is for; 0 for sign-in. */
  userId: number;
  expiresAt: Date;
}

const VERSION = 1;
const PURPOSES: ChallengePurpose[] = ['register', 'sign-in'];
const POOLS: Pool[] = ['regular', 'enterprise'];
const SIGNED_LENGTH = 31;
const MAC_LENGTH = 16;
export const CHALLENGE_LENGTH = SIGNED_LENGTH + MAC_LENGTH;

export class PasskeyChallenges {
  constructor(
    private readonly key: Buffer,
    /** How long a challenge is good for (also the options' `timeout`). */
    readonly ttlMs: number,
    private readonly now: () => Date,
  ) {}

  private mac(signed: Buffer): Buffer {
    return createHmac('sha256', this.key).update(signed).digest().subarray(0, MAC_LENGTH);
  }

  /** A new challenge's bytes (the options carry them as base64url). */
  issue(purpose: ChallengePurpose, pool: Pool, userId = 0): Uint8Array<ArrayBuffer> {
    const bytes = Buffer.alloc(CHALLENGE_LENGTH);
    bytes[0] = VERSION;
    bytes[1] = PURPOSES.indexOf(purpose) + 1;
    bytes[2] = POOLS.indexOf(pool) + 1;
    bytes.writeUInt32BE(userId, 3);
    bytes.writeBigUInt64BE(BigInt(this.now().getTime() + this.ttlMs), 7);
    randomBytes(16).copy(bytes, 15);
    this.mac(bytes.subarray(0, SIGNED_LENGTH)).copy(bytes, SIGNED_LENGTH);
    return new Uint8Array(bytes);
  }

  /**
   * What a challenge (base64url, as the client data carries it) says, when this server made it
   * and it has not expired; null for anything else.
   */
  open(challenge: string): ChallengeClaims | null {
    if (!/^[A-Za-z0-9_-]{1,100}$/.test(challenge)) return null;
    const bytes = Buffer.from(challenge, 'base64url');
    if (bytes.length !== CHALLENGE_LENGTH || bytes[0] !== VERSION) return null;
    const expected = this.mac(bytes.subarray(0, SIGNED_LENGTH));
    if (!timingSafeEqual(expected, bytes.subarray(SIGNED_LENGTH))) return null;
    const purpose = PURPOSES[bytes[1]! - 1];
    const pool = POOLS[bytes[2]! - 1];
    if (!purpose || !pool) return null;
    const expiresAt = new Date(Number(bytes.readBigUInt64BE(7)));
    if (expiresAt.getTime() <= this.now().getTime()) return null;
    return { purpose, pool, userId: bytes.readUInt32BE(3), expiresAt };
  }
}

/** The challenge a response's client data names (base64url), or null when it cannot be read. */
export function challengeOfClientData(clientDataJSON: string): string | null {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    if (typeof data !== 'object' || data === null) return null;
    const challenge = (data as { challenge?: unknown }).challenge;
    return typeof challenge === 'string' ? challenge : null;
  } catch {
    return null;
  }
}
