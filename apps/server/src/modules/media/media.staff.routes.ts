import {
  AllMediaQuerySchema,
  IdParamSchema,
  ModerationLogPageSchema,
  OrganizationMediaQuerySchema,
  PageQuerySchema,
  StaffMediaPageSchema,
} from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Authenticate } from '../../security/authenticate.js';
import type { MediaLibraryService } from './media-library.service.js';

/**
 * Staff (/api/enterprise): the spec's media calls, an organization's repost-allowed media and
 * All Media (staff spec section 7).
 */
export const staffMediaRoutes: FastifyPluginAsyncZod<{
  library: MediaLibraryService;
  authenticate: Authenticate;
}> = async (app, { library, authenticate }) => {
  const tags = ['enterprise media'];
  const security = [{ bearerAuth: [] }];
  app.addHook('onRequest', authenticate);

  app.get(
    '/organizations/:id/media/repost_allowed',
    {
      schema: {
        tags,
        security,
        summary:
          "The organization's media whose owners allow reposting, newest first (members and privileged staff); 10 a page",
        params: IdParamSchema,
        querystring: OrganizationMediaQuerySchema,
        response: { 200: StaffMediaPageSchema },
      },
    },
    (request) => library.repostAllowed(request.caller!, request.params.id, request.query),
  );

  app.get(
    '/organizations/:id/moderation-log',
    {
      schema: {
        tags,
        security,
        summary:
          "Who hid or showed which of the organization's items, or deleted a comment, and when (its admins and privileged staff)",
        params: IdParamSchema,
        querystring: PageQuerySchema.pick({ limit: true, offset: true }),
        response: { 200: ModerationLogPageSchema },
      },
    },
    (request) => library.moderationLog(request.caller!, request.params.id, request.query),
  );

  app.get(
    '/media/all',
    {
      schema: {
        tags,
        security,
        summary:
          'Every uploaded item, newest first, by organization and booth (super users and product admins); 10 a page',
        querystring: AllMediaQuerySchema,
        response: { 200: StaffMediaPageSchema },
      },
    },
    (request) => library.all(request.caller!, request.query),
  );
};
