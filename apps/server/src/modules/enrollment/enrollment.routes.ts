import {
  EnrollmentCodeSchema,
  EnrollRequestSchema,
  EnrollResponseSchema,
  IdParamSchema,
} from '@flashbooth/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Authenticate } from '../../security/authenticate.js';
import type { EnrollmentService } from './enrollment.service.js';

/** Without PUBLIC_URL, the address a request came to is the one a booth is told. */
const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** Staff (/api/enterprise): a one-time enrollment code for a device. */
export const staffEnrollmentRoutes: FastifyPluginAsyncZod<{
  enrollment: EnrollmentService;
  authenticate: Authenticate;
}> = async (app, { enrollment, authenticate }) => {
  app.addHook('onRequest', authenticate);

  app.post(
    '/devices/:id/enrollment-code',
    {
      schema: {
        tags: ['enterprise devices'],
        security: [{ bearerAuth: [] }],
        summary:
          'A one-time enrollment code for the device (super user / product admin): single use, 30 minutes; replaces any earlier code',
        description:
          'The booth computer runs `sudo flashbooth-booth enroll <server_url> <code>` (`command`), which calls POST /api/device/enroll.',
        params: IdParamSchema,
        response: { 201: EnrollmentCodeSchema },
      },
    },
    async (request, reply) => {
      const code = await enrollment.issue(request.caller!, request.params.id, originOf(request));
      return reply.status(201).send(code);
    },
  );
};

/** The booth's enrollment (/api/device): no credentials yet, only the code. */
export const deviceEnrollmentRoutes: FastifyPluginAsyncZod<{
  enrollment: EnrollmentService;
}> = async (app, { enrollment }) => {
  app.post(
    '/enroll',
    {
      schema: {
        tags: ['device'],
        summary:
          "A booth computer trades a one-time enrollment code for its settings; the device's secret is replaced",
        description:
          'Answers BOOTH_MQTT_URL, BOOTH_THING_NAME, BOOTH_SECRET (new: the one shown before stops working) and BOOTH_SERVER_URL. A wrong code answers 401 `code_mismatch`, an expired one 401 `code_expired`, a used one 409 `conflict`; after 10 of those from one address in 15 minutes, 429 `too_many_attempts`.',
        body: EnrollRequestSchema,
        response: { 200: EnrollResponseSchema },
      },
    },
    (request) => enrollment.enroll(request.body.code, request.ip, originOf(request)),
  );
};
