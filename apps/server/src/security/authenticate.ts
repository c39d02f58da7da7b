import type { Pool } from '@flashbooth/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { AccessClaims, AccessTokens } from './access-tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `authenticate` on routes that require a signed-in caller. */
    caller?: AccessClaims;
  }
}

export type Authenticate = (request: FastifyRequest) => Promise<void>;

/** An onRequest hook that accepts only a bearer token of this pool. */
export function createAuthenticate(tokens: AccessTokens, pool: Pool): Authenticate {
  return async (request) => {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!match) throw new AppError('unauthorized', 'Please sign in to continue.');
    request.caller = await tokens.verify(match[1]!, pool);
  };
}
