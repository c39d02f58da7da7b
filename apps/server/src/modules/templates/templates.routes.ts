import {
  ForegroundConfirmSchema,
  ForegroundPresignRequestSchema,
  ForegroundPresignSchema,
  IdParamSchema,
  itemsOf,
  listOf,
  OrgIdParamSchema,
  PageQuerySchema,
  SampleConfirmSchema,
  SamplePresignRequestSchema,
  SamplePresignSchema,
  TemplateCreateSchema,
  TemplateImageCreateSchema,
  TemplateImageParamsSchema,
  TemplateImagePatchSchema,
  TemplateImageSchema,
  TemplateOrganizationSchema,
  TemplateOrgLinkSchema,
  TemplateOrgParamsSchema,
  TemplatePatchSchema,
  TemplateSchema,
} from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Authenticate } from '../../security/authenticate.js';
import type { TemplatesService } from './templates.service.js';

export interface TemplatesRoutesOptions {
  templates: TemplatesService;
  authenticate: Authenticate;
}

/** Staff (enterprise pool): the spec's Templates calls. */
export const staffTemplatesRoutes: FastifyPluginAsyncZod<TemplatesRoutesOptions> = async (
  app,
  { templates, authenticate },
) => {
  const tags = ['enterprise templates'];
  const security = [{ bearerAuth: [] }];
  app.addHook('onRequest', authenticate);

  app.post(
    '/templates',
    {
      schema: {
        tags,
        security,
        summary: 'Create a template (super user / product admin)',
        body: TemplateCreateSchema,
        response: { 201: TemplateSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await templates.create(request.caller!, request.body)),
  );

  app.get(
    '/templates',
    {
      schema: {
        tags,
        security,
        summary: 'Templates, newest first, searching the name',
        querystring: PageQuerySchema,
        response: { 200: listOf(TemplateSchema) },
      },
    },
    (request) => templates.list(request.caller!, request.query),
  );

  app.get(
    '/templates/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Read a template with its image slots',
        params: IdParamSchema,
        response: { 200: TemplateSchema },
      },
    },
    (request) => templates.get(request.caller!, request.params.id),
  );

  app.patch(
    '/templates/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Change any of name, orientation, is_cut, is_duplicated',
        params: IdParamSchema,
        body: TemplatePatchSchema,
        response: { 200: TemplateSchema },
      },
    },
    (request) => templates.patch(request.caller!, request.params.id, request.body),
  );

  app.delete(
    '/templates/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Delete a template, its slots, associations and stored images',
        params: IdParamSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await templates.remove(request.caller!, request.params.id);
      return reply.status(204).send(null);
    },
  );

  // ---- image slots ----

  app.post(
    '/templates/:id/images',
    {
      schema: {
        tags,
        security,
        summary: 'Add an image slot',
        params: IdParamSchema,
        body: TemplateImageCreateSchema,
        response: { 201: TemplateImageSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await templates.addImage(request.caller!, request.params.id, request.body)),
  );

  app.get(
    '/templates/:id/images',
    {
      schema: {
        tags,
        security,
        summary: "The template's image slots by id",
        params: IdParamSchema,
        response: { 200: itemsOf(TemplateImageSchema) },
      },
    },
    (request) => templates.images(request.caller!, request.params.id),
  );

  app.patch(
    '/templates/:id/images/:imageId',
    {
      schema: {
        tags,
        security,
        summary: 'Change any of x, y, w, h, filter of a slot',
        params: TemplateImageParamsSchema,
        body: TemplateImagePatchSchema,
        response: { 200: TemplateImageSchema },
      },
    },
    (request) =>
      templates.patchImage(
        request.caller!,
        request.params.id,
        request.params.imageId,
        request.body,
      ),
  );

  app.delete(
    '/templates/:id/images/:imageId',
    {
      schema: {
        tags,
        security,
        summary: 'Remove a slot',
        params: TemplateImageParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await templates.removeImage(request.caller!, request.params.id, request.params.imageId);
      return reply.status(204).send(null);
    },
  );

  // ---- organizations ----

  app.post(
    '/templates/:id/orgs',
    {
      schema: {
        tags,
        security,
        summary: 'Associate the template with an organization (201 new, 200 already)',
        params: IdParamSchema,
        body: TemplateOrgLinkSchema,
        response: { 200: TemplateOrganizationSchema, 201: TemplateOrganizationSchema },
      },
    },
    async (request, reply) => {
      const { created, organization } = await templates.associate(
        request.caller!,
        request.params.id,
        request.body.org_id,
      );
      return reply.status(created ? 201 : 200).send(organization);
    },
  );

  app.delete(
    '/templates/:id/orgs/:orgId',
    {
      schema: {
        tags,
        security,
        summary: 'Remove the association with an organization',
        params: TemplateOrgParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await templates.dissociate(request.caller!, request.params.id, request.params.orgId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/templates/:id/orgs',
    {
      schema: {
        tags,
        security,
        summary: "The template's organizations (others' only for super users / product admins)",
        params: IdParamSchema,
        response: { 200: itemsOf(TemplateOrganizationSchema) },
      },
    },
    (request) => templates.organizations(request.caller!, request.params.id),
  );

  app.get(
    '/orgs/:orgId/templates',
    {
      schema: {
        tags,
        security,
        summary: "An organization's templates by id",
        params: OrgIdParamSchema,
        response: { 200: itemsOf(TemplateSchema) },
      },
    },
    (request) => templates.templatesOfOrganization(request.caller!, request.params.orgId),
  );

  // ---- sample and foreground uploads ----

  app.post(
    '/templates/:id/sample/presigned_upload',
    {
      schema: {
        tags,
        security,
        summary: 'A 15-minute upload URL for a JPEG or PNG sample (at most 20 MB)',
        params: IdParamSchema,
        body: SamplePresignRequestSchema,
        response: { 200: SamplePresignSchema },
      },
    },
    async (request) => {
      const { key, uploadUrl } = await templates.presignUpload(
        request.caller!,
        request.params.id,
        'sample',
        request.body,
      );
      return { sample_key: key, upload_url: uploadUrl };
    },
  );

  app.post(
    '/templates/:id/sample/confirm',
    {
      schema: {
        tags,
        security,
        summary: 'Use the uploaded sample (the previous one is deleted)',
        params: IdParamSchema,
        body: SampleConfirmSchema,
        response: { 200: TemplateSchema },
      },
    },
    (request) =>
      templates.confirmUpload(
        request.caller!,
        request.params.id,
        'sample',
        request.body.sample_key,
      ),
  );

  app.post(
    '/templates/:id/foreground/presigned_upload',
    {
      schema: {
        tags,
        security,
        summary: 'A 15-minute upload URL for a PNG foreground (at most 20 MB)',
        params: IdParamSchema,
        body: ForegroundPresignRequestSchema,
        response: { 200: ForegroundPresignSchema },
      },
    },
    async (request) => {
      const { key, uploadUrl } = await templates.presignUpload(
        request.caller!,
        request.params.id,
        'foreground',
        request.body,
      );
      return { foreground_key: key, upload_url: uploadUrl };
    },
  );

  app.post(
    '/templates/:id/foreground/confirm',
    {
      schema: {
        tags,
        security,
        summary:
          'Use the uploaded foreground: a PNG of the canvas size, transparent over every slot (else 400 and it is deleted; the previous one is deleted once replaced)',
        params: IdParamSchema,
        body: ForegroundConfirmSchema,
        response: { 200: TemplateSchema },
      },
    },
    (request) =>
      templates.confirmUpload(
        request.caller!,
        request.params.id,
        'foreground',
        request.body.foreground_key,
      ),
  );
};
