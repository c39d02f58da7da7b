import { DeviceWhoAmISchema } from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DeviceLoginRefused } from './device-login.js';
import type { DevicesService } from './devices.service.js';

/** `Authorization: Device <thing_name>:<secret>`, as the booth sends it on every call. */
const DEVICE_AUTHORIZATION = /^Device\s+([^:\s]+):(\S+)$/;

const RefusalSchema = z.object({
  message: z.string(),
  code: z.string(),
  reason: z.enum(['unknown_device', 'wrong_secret', 'no_credentials']),
});

/**
 * The booth's own calls about itself (/api/device): GET whoami proves its credentials without
 * the broker (`flashbooth-booth doctor`, issue 39: a running agent keeps its connection).
 */
export const deviceSelfRoutes: FastifyPluginAsyncZod<{
  devices: Pick<DevicesService, 'whoAmI'>;
}> = async (app, { devices }) => {
  app.setErrorHandler((error, _request, reply) => {
    // Anything else goes on to the app's handler (plugins/error-handler.ts).
    if (!(error instanceof DeviceLoginRefused)) throw error;
    return reply
      .status(error.statusCode)
      .send({ message: error.message, code: error.code, reason: error.reason });
  });

  app.get(
    '/whoami',
    {
      schema: {
        tags: ['device'],
        summary: "The device the booth's credentials belong to (its self-test)",
        description:
          'Authenticated as every booth call (`Authorization: Device <thing_name>:<secret>`). A refusal is 401 `unauthorized` with `reason`: `unknown_device` (no device has that thing name), `wrong_secret` (the secret was replaced by a later enrollment or registration) or `no_credentials` (no such header).',
        response: { 200: DeviceWhoAmISchema, 401: RefusalSchema },
      },
    },
    async (request, reply) => {
      const match = DEVICE_AUTHORIZATION.exec(request.headers.authorization ?? '');
      if (!match) {
        return reply.status(401).send({
          message: 'Send the booth credentials: Authorization: Device <thing_name>:<secret>.',
          code: 'unauthorized',
          reason: 'no_credentials' as const,
        });
      }
      return devices.whoAmI(match[1]!, match[2]!);
    },
  );
};
