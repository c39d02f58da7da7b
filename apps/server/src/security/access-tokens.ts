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

/** Short-lived HS256 access tokens; the audience binds each token to its pool. */
export class AccessTokens {
  private readonly key: Uint8Array;
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
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        audience: audienceFor(pool),
        algorithms: ['HS256'],
        currentDate: this.now(),
      });
      const userId = Number(payload.sub);
      if (!Number.isInteger(userId) || userId <= 0) throw new Error('bad subject');
      return { userId, pool };
    } catch (error) {
      const expired = error instanceof errors.JWTExpired;
      throw new AppError(
        'invalid_token',
        expired ? 'Your session has expired. Please sign in again.' : 'Please sign in again.',
      );
    }
  }
}
