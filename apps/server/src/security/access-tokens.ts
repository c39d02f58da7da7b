import type { Pool } from '@flashbooth/contracts';
import { errors, jwtVerify, SignJWT } from 'jose';
import { AppError } from '../errors.js';
import { deriveKey } from './keys.js';

const ISSUER = 'flashbooth';
const audienceFor = (pool: Pool) => `flashbooth:${pool}`;

export interface AccessClaims {
  userId: number;
  pool: Pool;
}

/** How many verified tokens `AccessTokens` remembers (the oldest is forgotten first). */
const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * Short-lived HS256 access tokens; the audience binds each token to its pool.
 *
 * A token that verified once is remembered by its exact text (and pool) until it expires, so a
 * signed-in visitor's next requests skip the signature check (WebCrypto's HMAC was a sixth of
 * the wall's CPU time, docs/benchmarks.md). This changes nothing a caller can see: the same text
 * verifies the same way until its `exp`, which is still checked on every use, and tokens are
 * not revocable before it anyway (docs/security.md).
 */
export class AccessTokens {
  private readonly key: Uint8Array;
  private readonly verified = new Map<string, { claims: AccessClaims; expiresAt: number }>();
  constructor(
    secret: string,
    readonly ttlSeconds: number,
    private readonly now: () => Date,
  ) {
    this.key = new Uint8Array(deriveKey(secret, 'access-token'));
  }

  sign(claims: AccessClaims): Promise<string> {
    const issuedAt = Math.floor(this.now().getTime() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(claims.userId))
      .setIssuer(ISSUER)
      .setAudience(audienceFor(claims.pool))
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + this.ttlSeconds)
      .sign(this.key);
  }

  /** Verifies a token for the given pool; a token of the other pool is refused. */
  async verify(token: string, pool: Pool): Promise<AccessClaims> {
    const now = this.now();
    const memoKey = `${pool} ${token}`;
    const known = this.verified.get(memoKey);
    // Strictly before `exp`, as jose checks it; at or after it jose says why below.
    if (known && now.getTime() < known.expiresAt) return known.claims;
    if (known) this.verified.delete(memoKey);
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        audience: audienceFor(pool),
        algorithms: ['HS256'],
        currentDate: now,
      });
      const userId = Number(payload.sub);
      if (!Number.isInteger(userId) || userId <= 0) throw new Error('bad subject');
      const claims: AccessClaims = { userId, pool };
      if (payload.exp !== undefined) this.remember(memoKey, claims, payload.exp * 1000);
      return claims;
    } catch (error) {
      const expired = error instanceof errors.JWTExpired;
      throw new AppError(
        'invalid_token',
        expired ? 'Your session has expired. Please sign in again.' : 'Please sign in again.',
      );
    }
  }

  private remember(memoKey: string, claims: AccessClaims, expiresAt: number): void {
    if (this.verified.size >= VERIFIED_TOKENS_KEPT) {
      const oldest = this.verified.keys().next();
      if (!oldest.done) this.verified.delete(oldest.value);
    }
    this.verified.set(memoKey, { claims, expiresAt });
  }
}
