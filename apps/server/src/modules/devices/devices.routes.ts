import {
  DeviceErrorSchema,
  DeviceLinkSchema,
  DevicePatchSchema,
  DevicePingResultSchema,
  DeviceSchema,
  IdParamSchema,
  listOf,
  PageQuerySchema,
  type Pool,
  RegisterDeviceSchema,
  RegisteredDeviceSchema,
  VisitorDeviceSchema,
} from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Authenticate } from '../auth/auth.hooks.js';
import type { DevicesService } from './devices.service.js';

/** Staff: the spec's Devices calls. Visitors: GET devices/{id} and ping. */
export const devicesRoutes: FastifyPluginAsyncZod<{
  pool: Pool;
  devices: DevicesService;
  authenticate: Authenticate;
}> = async (app, { pool, devices, authenticate }) => {
  const tags = [`${pool} devices`];
  const security = [{ bearerAuth: [] }];
  app.addHook('onRequest', authenticate);

  if (pool === 'regular') {
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
    return;
  }

  app.post(
    '/devices',
    {
      schema: {
        tags,
        security,
        summary: 'Register a device (super user / product admin); the secret is shown only here',
        body: RegisterDeviceSchema,
        response: { 201: RegisteredDeviceSchema },
      },
    },
    async (request, reply) => {
      const device = await devices.register(request.caller!, request.body?.name);
      return reply.status(201).send(device);
    },
  );

  app.get(
    '/devices',
    {
      schema: {
        tags,
        security,
        summary: "Devices the caller may see (all for admins, else their organizations')",
        querystring: PageQuerySchema,
        response: { 200: listOf(DeviceSchema) },
      },
    },
    (request) => devices.list(request.caller!, request.query),
  );

  app.get(
    '/devices/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Read a device',
        params: IdParamSchema,
        response: { 200: DeviceSchema },
      },
    },
    (request) => devices.get(request.caller!, request.params.id),
  );

  app.patch(
    '/devices/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Change exactly one of name, software_channel_id, prints_left, price_rupees',
        params: IdParamSchema,
        body: DevicePatchSchema,
        response: { 200: DeviceSchema },
      },
    },
    (request) => devices.patch(request.caller!, request.params.id, request.body),
  );

  app.patch(
    '/devices/:id/link',
    {
      schema: {
        tags,
        security,
        summary: 'Link the device to an organization',
        params: IdParamSchema,
        body: DeviceLinkSchema,
        response: { 200: DeviceSchema },
      },
    },
    (request) => devices.link(request.caller!, request.params.id, request.body.org_id),
  );

  app.patch(
    '/devices/:id/unlink',
    {
      schema: {
        tags,
        security,
        summary: 'Unlink the device from its organization',
        params: IdParamSchema,
        response: { 200: DeviceSchema },
      },
    },
    (request) => devices.unlink(request.caller!, request.params.id),
  );

  app.delete(
    '/devices/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Delete a device and its error log',
        params: IdParamSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await devices.remove(request.caller!, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/devices/:id/ping',
    {
      schema: {
        tags,
        security,
        summary: 'Ask the booth for its status; returns the device (503 when it does not answer)',
        params: IdParamSchema,
        response: { 200: DeviceSchema },
      },
    },
    (request) => devices.ping(request.caller!, request.params.id),
  );

  app.get(
    '/devices/:id/errors',
    {
      schema: {
        tags,
        security,
        summary: "The device's error log, newest first",
        params: IdParamSchema,
        querystring: PageQuerySchema,
        response: { 200: listOf(DeviceErrorSchema) },
      },
    },
    (request) => devices.errors(request.caller!, request.params.id, request.query),
  );
};
