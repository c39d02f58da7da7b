import {
  type Device,
  DeviceErrorSchema,
  DeviceHealthViewSchema,
  DeviceLinkSchema,
  DevicePatchSchema,
  DeviceSchema,
  IdParamSchema,
  listOf,
  PageQuerySchema,
  RegisterDeviceSchema,
  RegisteredDeviceSchema,
} from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Authenticate } from '../../security/authenticate.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import type { DevicesService } from './devices.service.js';

/** Sends a device its channel's release (SoftwareService); declared here so devices imports no domain. */
export interface DeviceSoftwareUpdates {
  updateDevice(caller: AccessClaims, deviceId: number): Promise<Device>;
}

/**
 * Staff (/api/enterprise): the spec's Devices calls, and POST devices/{id}/update, which sends
 * the device's channel release to the booth.
 */
export const staffDevicesRoutes: FastifyPluginAsyncZod<{
  devices: DevicesService;
  software: DeviceSoftwareUpdates;
  authenticate: Authenticate;
}> = async (app, { devices, software, authenticate }) => {
  const tags = ['enterprise devices'];
  const security = [{ bearerAuth: [] }];
  app.addHook('onRequest', authenticate);

  app.post(
    '/devices',
    {
      schema: {
        tags,
        security,
        summary: 'Register a device (super user / product admin); the secret is shown only here',
        description:
          'Answers the device, its broker secret (never shown again) and `booth_env`, the environment a booth agent runs with: BOOTH_MQTT_URL (BOOTH_MQTT_PUBLIC_URL, else MQTT_URL, else the embedded broker on the host booths reach this server at), BOOTH_THING_NAME, BOOTH_SECRET and BOOTH_SERVER_URL (PUBLIC_URL, else the address of this request).',
        body: RegisterDeviceSchema,
        response: { 201: RegisteredDeviceSchema },
      },
    },
    async (request, reply) => {
      // Without PUBLIC_URL, the address this request came to is the one a booth is told.
      const origin = `${request.protocol}://${request.host}`;
      const device = await devices.register(request.caller!, request.body?.name, origin);
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
    '/devices/:id/health',
    {
      schema: {
        tags,
        security,
        summary:
          "The booth's last health report (camera, printer, disk, delivery queue) and its delivery times over the last 7 days (whoever may view the device; beyond the spec)",
        params: IdParamSchema,
        response: { 200: DeviceHealthViewSchema },
      },
    },
    (request) => devices.health(request.caller!, request.params.id),
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

  app.post(
    '/devices/:id/update',
    {
      schema: {
        tags,
        security,
        summary:
          "Install the device's channel release: the booth downloads, verifies and installs it; returns the device",
        params: IdParamSchema,
        response: { 200: DeviceSchema },
      },
    },
    (request) => software.updateDevice(request.caller!, request.params.id),
  );
};
