import {
  IdParamSchema,
  listOf,
  ReleaseConfirmSchema,
  ReleasePresignRequestSchema,
  ReleasePresignSchema,
  SoftwareChannelCreateSchema,
  SoftwareChannelPatchSchema,
  SoftwareChannelSchema,
  SoftwarePageQuerySchema,
  SoftwareReleaseCreateSchema,
  SoftwareReleasePatchSchema,
  SoftwareReleaseSchema,
} from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Authenticate } from '../../security/authenticate.js';
import type { BoothInstallService } from './booth-install.js';
import type { SoftwareService } from './software.service.js';

export interface SoftwareRoutesOptions {
  software: SoftwareService;
  authenticate: Authenticate;
}

/** Staff (/api/enterprise): the spec's Software calls. Super users and product admins only. */
export const staffSoftwareRoutes: FastifyPluginAsyncZod<SoftwareRoutesOptions> = async (
  app,
  { software, authenticate },
) => {
  const security = [{ bearerAuth: [] }];
  const channelTags = ['enterprise software channels'];
  const releaseTags = ['enterprise software releases'];
  app.addHook('onRequest', authenticate);

  // ---- channels ----

  app.post(
    '/software/channels',
    {
      schema: {
        tags: channelTags,
        security,
        summary: 'Create a software channel, optionally linked to a release',
        body: SoftwareChannelCreateSchema,
        response: { 201: SoftwareChannelSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await software.createChannel(request.caller!, request.body)),
  );

  app.get(
    '/software/channels',
    {
      schema: {
        tags: channelTags,
        security,
        summary: 'Software channels, newest first, searching name and description (9 a page)',
        querystring: SoftwarePageQuerySchema,
        response: { 200: listOf(SoftwareChannelSchema) },
      },
    },
    (request) => software.listChannels(request.caller!, request.query),
  );

  app.get(
    '/software/channels/:id',
    {
      schema: {
        tags: channelTags,
        security,
        summary: 'Read a software channel',
        params: IdParamSchema,
        response: { 200: SoftwareChannelSchema },
      },
    },
    (request) => software.getChannel(request.caller!, request.params.id),
  );

  app.patch(
    '/software/channels/:id',
    {
      schema: {
        tags: channelTags,
        security,
        summary: 'Change name and description, or link a release (release_id; null unlinks)',
        params: IdParamSchema,
        body: SoftwareChannelPatchSchema,
        response: { 200: SoftwareChannelSchema },
      },
    },
    (request) => software.patchChannel(request.caller!, request.params.id, request.body),
  );

  app.delete(
    '/software/channels/:id',
    {
      schema: {
        tags: channelTags,
        security,
        summary: 'Delete a software channel (its devices then follow no channel)',
        params: IdParamSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await software.removeChannel(request.caller!, request.params.id);
      return reply.status(204).send(null);
    },
  );

  // ---- releases ----

  app.post(
    '/software/releases',
    {
      schema: {
        tags: releaseTags,
        security,
        summary: 'Create a release record (its file is uploaded next)',
        body: SoftwareReleaseCreateSchema,
        response: { 201: SoftwareReleaseSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await software.createRelease(request.caller!, request.body)),
  );

  app.get(
    '/software/releases',
    {
      schema: {
        tags: releaseTags,
        security,
        summary: 'Software releases, newest first, searching version and notes (9 a page)',
        querystring: SoftwarePageQuerySchema,
        response: { 200: listOf(SoftwareReleaseSchema) },
      },
    },
    (request) => software.listReleases(request.caller!, request.query),
  );

  app.get(
    '/software/releases/:id',
    {
      schema: {
        tags: releaseTags,
        security,
        summary: 'Read a release with a 1-hour download link to its file',
        params: IdParamSchema,
        response: { 200: SoftwareReleaseSchema },
      },
    },
    (request) => software.getRelease(request.caller!, request.params.id),
  );

  app.patch(
    '/software/releases/:id',
    {
      schema: {
        tags: releaseTags,
        security,
        summary: 'Change version and/or release notes',
        params: IdParamSchema,
        body: SoftwareReleasePatchSchema,
        response: { 200: SoftwareReleaseSchema },
      },
    },
    (request) => software.patchRelease(request.caller!, request.params.id, request.body),
  );

  app.delete(
    '/software/releases/:id',
    {
      schema: {
        tags: releaseTags,
        security,
        summary: 'Delete a release and its stored file (409 while a channel links it)',
        params: IdParamSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await software.removeRelease(request.caller!, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/software/releases/:id/file/presigned_upload',
    {
      schema: {
        tags: releaseTags,
        security,
        summary: 'A 1-hour upload URL for the release file (PUT with the same Content-Type)',
        params: IdParamSchema,
        body: ReleasePresignRequestSchema,
        response: { 200: ReleasePresignSchema },
      },
    },
    async (request) => {
      const { key, uploadUrl } = await software.presignUpload(
        request.caller!,
        request.params.id,
        request.body,
      );
      return { upload_url: uploadUrl, s3_key: key };
    },
  );

  app.post(
    '/software/releases/:id/file/confirm',
    {
      schema: {
        tags: releaseTags,
        security,
        summary: 'Use the uploaded file: computes its SHA-256 and size (the old file is deleted)',
        params: IdParamSchema,
        body: ReleaseConfirmSchema,
        response: { 200: SoftwareReleaseSchema },
      },
    },
    (request) => software.confirmUpload(request.caller!, request.params.id, request.body.s3_key),
  );
};

/**
 * The booth computer's one-command install (/booth): `curl -fsSL <server>/booth/install.sh |
 * sudo sh -s -- <code>`. No sign-in: the script is the same for everyone; the one-time code in
 * the command is what enrolls the booth.
 */
export const boothInstallRoutes: FastifyPluginAsyncZod<{ install: BoothInstallService }> = async (
  app,
  { install },
) => {
  app.get(
    '/install.sh',
    {
      schema: {
        tags: ['device'],
        summary:
          "The booth computer's install script: installs what the booth needs and the server's booth agent release (checked against its SHA-256), enrolls with the code given to it, starts the service",
        description:
          'Run as `curl -fsSL <server>/booth/install.sh | sudo sh -s -- <code>` (the console shows the line with the code). The script names this server and a one-hour download link of the release.',
        response: { 200: z.string() },
      },
    },
    async (request, reply) => {
      const script = await install.installScript(`${request.protocol}://${request.host}`);
      return reply
        .type('text/x-shellscript; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(script);
    },
  );
};
