import {
  type CaptureEntitlement,
  CaptureEntitlementSchema,
  type CaptureResult,
  CaptureRequestSchema,
  CaptureResultSchema,
  DevicePingResultSchema,
  IdParamSchema,
  VisitorDeviceSchema,
  type VisitorTemplatePage,
  VisitorTemplatePageSchema,
  type VisitorTemplatesQuery,
  VisitorTemplatesQuerySchema,
} from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AccessClaims } from '../../security/access-tokens.js';
import type { Authenticate } from '../../security/authenticate.js';
import type { DevicesService } from './devices.service.js';

/** The templates a booth offers (TemplatesService); declared here so devices imports no domain. */
export interface BoothTemplates {
  forDevice(
    caller: AccessClaims,
    deviceId: number,
    query: VisitorTemplatesQuery,
  ): Promise<VisitorTemplatePage>;
}

/** A capture at a booth (CaptureService). */
export interface BoothCaptures {
  capture(caller: AccessClaims, deviceId: number, templateId: number): Promise<CaptureResult>;
  entitlement(
    caller: AccessClaims,
    deviceId: number,
    templateId: number,
  ): Promise<CaptureEntitlement>;
}

/**
 * Visitors (/api/regular): a booth linked to an organization, its ping, the templates it offers
 * and a capture at it.
 */
export const visitorDevicesRoutes: FastifyPluginAsyncZod<{
  devices: DevicesService;
  templates: BoothTemplates;
  captures: BoothCaptures;
  authenticate: Authenticate;
}> = async (app, { devices, templates, captures, authenticate }) => {
  const tags = ['regular devices'];
  const security = [{ bearerAuth: [] }];
  app.addHook('onRequest', authenticate);

  app.get(
    '/devices/:id',
    {
      schema: {
        tags,
        security,
        summary: 'A booth linked to an organization, as a visitor sees it',
        params: IdParamSchema,
        response: { 200: VisitorDeviceSchema },
      },
    },
    (request) => devices.visitorGet(request.caller!, request.params.id),
  );
  app.post(
    '/devices/:id/ping',
    {
      schema: {
        tags,
        security,
        summary: 'Ask the booth for its status (503 when it does not answer)',
        params: IdParamSchema,
        response: { 200: DevicePingResultSchema },
      },
    },
    (request) => devices.visitorPing(request.caller!, request.params.id),
  );

  app.get(
    '/devices/:id/templates',
    {
      schema: {
        tags: ['regular templates'],
        security,
        summary:
          "Templates of the booth's organization in id order; pass last_evaluated_key back for the next page",
        params: IdParamSchema,
        querystring: VisitorTemplatesQuerySchema,
        response: { 200: VisitorTemplatePageSchema },
      },
    },
    (request) => templates.forDevice(request.caller!, request.params.id, request.query),
  );

  app.get(
    '/devices/:id/entitlement',
    {
      schema: {
        tags: ['regular media'],
        security,
        summary:
          'What a capture with this template would use now (free, payment, credit or nothing) and whether the booth can take the visitor',
        params: IdParamSchema,
        querystring: CaptureRequestSchema,
        response: { 200: CaptureEntitlementSchema },
      },
    },
    (request) =>
      captures.entitlement(request.caller!, request.params.id, request.query.template_id),
  );

  app.post(
    '/devices/:id/capture',
    {
      schema: {
        tags: ['regular media'],
        security,
        summary:
          'Start a capture: checks entitlement, creates the media records and waits for the booth to accept',
        params: IdParamSchema,
        body: CaptureRequestSchema,
        response: { 200: CaptureResultSchema },
      },
    },
    (request) => captures.capture(request.caller!, request.params.id, request.body.template_id),
  );
};
