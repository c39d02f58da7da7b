import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';
import type { AppDependencies } from '../infrastructure.js';

/**
 * pino, with the credentials of a request never written (authorization, cookies); readable lines
 * for a person at a terminal in development, JSON everywhere else.
 */
export function loggerOptions(
  config: Config,
  deps: Pick<AppDependencies, 'logger' | 'loggerStream'>,
): FastifyServerOptions['logger'] {
  if (deps.logger === false) return false;
  return {
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    ...(deps.loggerStream ? { stream: deps.loggerStream } : {}),
    ...(!deps.loggerStream && !config.isProduction && process.stdout.isTTY
      ? { transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname' } } }
      : {}),
  };
}

/** A request's id: the caller's `x-request-id` when it looks like one, else a new UUID. */
export function requestId(request: { headers: Record<string, unknown> }): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
}

/** Every answer names its request id, so a report from a user finds the log lines. */
export function echoRequestIds(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
}
