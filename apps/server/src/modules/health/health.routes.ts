import { HealthSchema } from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.js';

/** Something the app cannot work without, checked by GET /api/health. */
export interface HealthCheck {
  /** Said in the 503 when the check fails: "The {name} is not reachable." */
  name: string;
  ping: () => Promise<void>;
}

/** GET /api/health: ready once every check answers (DESIGN.md "Health"). */
export const healthRoutes: FastifyPluginAsyncZod<{ checks: HealthCheck[] }> = async (
  app,
  { checks },
) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Ready when the database, the object store and the MQTT broker answer',
        response: { 200: HealthSchema },
      },
    },
    async () => {
      for (const check of checks) {
        try {
          await check.ping();
        } catch (error) {
          throw new AppError('service_unavailable', `The ${check.name} is not reachable.`, {
            cause: error,
          });
        }
      }
      return { status: 'ok' as const };
    },
  );
};
