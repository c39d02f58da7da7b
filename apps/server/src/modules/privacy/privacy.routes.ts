import {
  DataExportSchema,
  DataExportStatusSchema,
  EraseAccountBodySchema,
  ErasureCodeSentSchema,
  ErasureResultSchema,
  IdParamSchema,
  PageQuerySchema,
  PrivacyActionListSchema,
} from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Authenticate } from '../../security/authenticate.js';
import { REFRESH_COOKIE } from '../auth/auth.routes.js';
import type { PrivacyService } from './privacy.service.js';

/** A visitor's own data: "Download my data" and "Delete my account" on the profile. */
export const visitorPrivacyRoutes: FastifyPluginAsyncZod<{
  privacy: PrivacyService;
  authenticate: Authenticate;
}> = async (app, { privacy, authenticate }) => {
  const tags = ['regular privacy'];
  const security = [{ bearerAuth: [] }];

  app.get(
    '/users/self/data-export',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security,
        summary: 'The latest data export: pending, ready (with its link and expiry), or expired',
        response: { 200: DataExportStatusSchema },
      },
    },
    (request) => privacy.exportStatus(request.caller!),
  );

  app.post(
    '/users/self/data-export',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security,
        summary: 'Ask for a ZIP of all your data, built in the background (one at a time)',
        response: { 202: DataExportSchema },
      },
    },
    async (request, reply) => reply.status(202).send(await privacy.requestExport(request.caller!)),
  );

  app.post(
    '/users/self/erasure-code',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security,
        summary: 'Send a one-time code by SMS that confirms deleting the account',
        response: { 200: ErasureCodeSentSchema },
      },
    },
    (request) => privacy.sendErasureCode(request.caller!),
  );

  app.post(
    '/users/self/erase',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security,
        summary:
          'Delete the account and all its data at once (confirmed by the SMS code); signs out every session',
        body: EraseAccountBodySchema,
        response: { 200: z.object({ status: z.literal('erased') }) },
      },
    },
    async (request, reply) => {
      await privacy.eraseSelf(request.caller!, request.body.code);
      reply.clearCookie(REFRESH_COOKIE, { path: '/api/regular/auth' });
      return { status: 'erased' as const };
    },
  );
};

/** Super users acting on a visitor's request: export or erase the person's data, and the log. */
export const staffPrivacyRoutes: FastifyPluginAsyncZod<{
  privacy: PrivacyService;
  authenticate: Authenticate;
}> = async (app, { privacy, authenticate }) => {
  const tags = ['enterprise privacy'];
  const security = [{ bearerAuth: [] }];

  app.get(
    '/privacy/people/:id/data-export',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security,
        summary: 'A visitor’s latest data export (super users)',
        params: IdParamSchema,
        response: { 200: DataExportStatusSchema },
      },
    },
    (request) => privacy.staffExportStatus(request.caller!, request.params.id),
  );

  app.post(
    '/privacy/people/:id/data-export',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security,
        summary: 'Export a visitor’s data on their request (super users; logged)',
        params: IdParamSchema,
        response: { 202: DataExportSchema },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await privacy.staffRequestExport(request.caller!, request.params.id)),
  );

  app.post(
    '/privacy/people/:id/erase',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security,
        summary: 'Erase a visitor’s account and data on their request (super users; logged)',
        params: IdParamSchema,
        response: { 200: ErasureResultSchema },
      },
    },
    (request) => privacy.staffErase(request.caller!, request.params.id),
  );

  app.get(
    '/privacy/actions',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security,
        summary: 'Who exported or erased whose data, when (ids only; super users)',
        querystring: PageQuerySchema.pick({ limit: true, offset: true }),
        response: { 200: PrivacyActionListSchema },
      },
    },
    (request) => privacy.actions(request.caller!, request.query),
  );
};
