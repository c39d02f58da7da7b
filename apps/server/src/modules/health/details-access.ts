import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import type { Authenticate } from '../../security/authenticate.js';
import { bearerMatches } from '../../security/bearer.js';
import type { UsersService } from '../users/users.service.js';

const SIGN_IN =
  'The health details need the metrics token (Authorization: Bearer <METRICS_TOKEN>) or a super user’s sign-in.';
const SUPER_USERS_ONLY = 'Only super users (or the metrics token) may read the health details.';

export interface DetailsAccessOptions {
  /** METRICS_TOKEN; undefined = only super users. */
  metricsToken: string | undefined;
  /** The staff pool's token check. */
  authenticate: Authenticate;
  users: Pick<UsersService, 'caller'>;
}

/**
 * Who may read GET /api/health/details (every job's counts: refunds and SMS sent, failures): a
 * monitor with the metrics token, as for /metrics, or a signed-in super user. 401 without either,
 * 403 for other staff. The probes (/api/health, live, ready) stay open.
 */
export function detailsAccess(options: DetailsAccessOptions) {
  const { metricsToken, authenticate, users } = options;
  return async (request: FastifyRequest): Promise<void> => {
    if (metricsToken !== undefined && bearerMatches(request.headers.authorization, metricsToken)) {
      return;
    }
    try {
      await authenticate(request);
    } catch (error) {
      throw new AppError('unauthorized', SIGN_IN, { cause: error });
    }
    const me = await users.caller(request.caller!);
    if (!me.isSuperUser) throw new AppError('forbidden', SUPER_USERS_ONLY);
  };
}
