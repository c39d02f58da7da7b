import { HealthSchema } from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.js';
import type { HealthCheck } from './health.routes.js';

export interface ProbeRoutesOptions {
  /** What the instance cannot serve a request without: the database and the broker link. */
  readiness: HealthCheck[];
}

/** A readiness check that does not answer in this time counts as failed (a hung connection). */
const CHECK_TIMEOUT_MS = 2000;

function withTimeout(check: HealthCheck): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    check.ping(),
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)),
        CHECK_TIMEOUT_MS,
      );
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * The balancer's and the orchestrator's probes, beside GET /api/health (which also checks the
 * object store and is what people look at):
 * - GET /api/health/live: the process answers HTTP. Nothing else is checked, so a database outage
 *   never gets every instance restarted at once; restart on this only.
 * - GET /api/health/ready: this instance can serve requests now: its database answers and its link
 *   to the MQTT broker is up. Take it out of the balancer while this is 503. The object store is
 *   left out on purpose: while S3 is away visitors can still sign in, pay and see their list.
 */
export const probeRoutes: FastifyPluginAsyncZod<ProbeRoutesOptions> = async (
  app,
  { readiness },
) => {
  app.get(
    '/health/live',
    {
      logLevel: 'warn',
      schema: {
        tags: ['health'],
        summary: 'Liveness: the process answers (restart the instance only when this fails)',
        response: { 200: HealthSchema },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/health/ready',
    {
      logLevel: 'warn',
      schema: {
        tags: ['health'],
        summary: 'Readiness: the database and the MQTT broker link answer (route traffic here)',
        response: { 200: HealthSchema },
      },
    },
    async () => {
      const results = await Promise.allSettled(readiness.map(withTimeout));
      const failed = readiness.filter((_, index) => results[index]!.status === 'rejected');
      if (failed.length > 0) {
        const names = failed.map((check) => check.name).join(' and the ');
        throw new AppError(
          'service_unavailable',
          `Not ready: the ${names} ${failed.length > 1 ? 'are' : 'is'} not reachable.`,
        );
      }
      return { status: 'ok' as const };
    },
  );
};
