import {
  CursorPageQuerySchema,
  IdParamSchema,
  MediaPageSchema,
  MediaPatchResultSchema,
  MediaPatchSchema,
  MediaUploadConfirmedSchema,
  MediaUploadConfirmSchema,
  MediaUploadLinkSchema,
  MediaUploadedQuerySchema,
  MediaUploadedSchema,
  RepostAllowedSchema,
  StatusOkSchema,
} from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Authenticate } from '../../security/authenticate.js';
import { createDeviceAuthenticate } from './device-auth.js';
import type { MediaRepository } from './media.repository.js';
import type { MediaService } from './media.service.js';

/** Visitors (/api/regular): their own media. */
export const visitorMediaRoutes: FastifyPluginAsyncZod<{
  media: MediaService;
  authenticate: Authenticate;
}> = async (app, { media, authenticate }) => {
  const tags = ['regular media'];
  const security = [{ bearerAuth: [] }];
  app.addHook('onRequest', authenticate);

  app.get(
    '/media/uploaded',
    {
      schema: {
        tags,
        security,
        summary: "Whether the caller's items are uploaded (others' ids are left out)",
        querystring: MediaUploadedQuerySchema,
        response: { 200: MediaUploadedSchema },
      },
    },
    (request) => media.uploaded(request.caller!, request.query.media_ids),
  );

  app.patch(
    '/media/repost_allowed',
    {
      schema: {
        tags,
        security,
        summary: "Allow or forbid reposting of the caller's items",
        body: RepostAllowedSchema,
        response: { 200: StatusOkSchema },
      },
    },
    (request) =>
      media.setRepostAllowed(
        request.caller!,
        request.body.media_ids,
        request.body.is_repost_allowed,
      ),
  );

  app.get(
    '/media',
    {
      schema: {
        tags,
        security,
        summary: "The caller's media, newest first; search on caption, organization and device",
        querystring: CursorPageQuerySchema,
        response: { 200: MediaPageSchema },
      },
    },
    (request) => media.list(request.caller!, request.query),
  );

  app.patch(
    '/media/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Change exactly one of is_public, caption, is_downloaded, is_shared',
        params: IdParamSchema,
        body: MediaPatchSchema,
        response: { 200: MediaPatchResultSchema },
      },
    },
    (request) => media.patch(request.caller!, request.params.id, request.body),
  );
};

/** The booth's own calls (`Authorization: Device <thing_name>:<secret>`), under /api/device. */
export const deviceMediaRoutes: FastifyPluginAsyncZod<{
  media: MediaService;
  repository: MediaRepository;
}> = async (app, { media, repository }) => {
  app.addHook('onRequest', createDeviceAuthenticate(repository));

  app.post(
    '/media/:id/uploaded',
    {
      schema: {
        tags: ['device'],
        summary:
          'The booth confirms an upload: checks the file is a JPEG, marks it uploaded (idempotent); the low-res preview follows in the background',
        params: IdParamSchema,
        body: MediaUploadConfirmSchema,
        response: { 200: MediaUploadConfirmedSchema },
      },
    },
    (request) => media.confirmUpload(request.device!.id, request.params.id, request.body),
  );

  app.post(
    '/media/:id/upload-url',
    {
      schema: {
        tags: ['device'],
        summary:
          "A fresh upload link for an item still waiting in the booth's delivery queue (the capture command's link has expired); 409 once uploaded",
        params: IdParamSchema,
        response: { 200: MediaUploadLinkSchema },
      },
    },
    (request) => media.uploadLink(request.device!.id, request.params.id),
  );
};
