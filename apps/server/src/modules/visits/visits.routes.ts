import { IdParamSchema, VisitSchema, VisitUpdateSchema } from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Authenticate } from '../../security/authenticate.js';
import type { VisitsService } from './visits.service.js';

/** Visitors (/api/regular): the caller's visit at a booth (issue 37). */
export const visitorVisitsRoutes: FastifyPluginAsyncZod<{
  visits: VisitsService;
  authenticate: Authenticate;
}> = async (app, { visits, authenticate }) => {
  const tags = ['regular visits'];
  const security = [{ bearerAuth: [] }];
  app.addHook('onRequest', authenticate);

  app.get(
    '/devices/:id/visit',
    {
      schema: {
        tags,
        security,
        summary:
          'Where the caller is at this booth now: the template picked, the payment and the capture of the current round (every visitor screen starts from it)',
        params: IdParamSchema,
        response: { 200: VisitSchema },
      },
    },
    (request) => visits.current(request.caller!, request.params.id),
  );

  app.post(
    '/devices/:id/visit',
    {
      schema: {
        tags,
        security,
        summary:
          "Yes, I'm Here, and a template pick: a finished round is let go, an open payment moves to the picked template (409 capture_in_progress while a capture runs)",
        params: IdParamSchema,
        body: VisitUpdateSchema,
        response: { 200: VisitSchema },
      },
    },
    (request) => visits.pick(request.caller!, request.params.id, request.body),
  );
};
