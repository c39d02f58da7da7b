import {
  IdParamSchema,
  VisitorTemplatePageSchema,
  VisitorTemplatesQuerySchema,
} from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { TemplatesRoutesOptions } from './templates.routes.js';

/** Visitors (regular pool): the templates a booth offers, with cursor paging. */
export const visitorTemplatesRoutes: FastifyPluginAsyncZod<TemplatesRoutesOptions> = async (
  app,
  { templates, authenticate },
) => {
  app.addHook('onRequest', authenticate);

  app.get(
    '/devices/:id/templates',
    {
      schema: {
        tags: ['regular templates'],
        security: [{ bearerAuth: [] }],
        summary:
          "Templates of the booth's organization in id order; pass last_evaluated_key back for the next page",
        params: IdParamSchema,
        querystring: VisitorTemplatesQuerySchema,
        response: { 200: VisitorTemplatePageSchema },
      },
    },
    (request) => templates.forDevice(request.caller!, request.params.id, request.query),
  );
};
