import {
  PasskeyIdParamSchema,
  PasskeyListSchema,
  PasskeyOptionsResponseSchema,
  PasskeyRegistrationRequestSchema,
  PasskeyRenameSchema,
  PasskeySchema,
  PasskeySignInRequestSchema,
  type Pool,
  VerifyResponseSchema,
} from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Authenticate } from '../../security/authenticate.js';
import { sendSession } from '../auth/auth.routes.js';
import type { PasskeysService } from './passkeys.service.js';

/**
 * Passkeys, the same calls in both pools: the caller's own passkeys (signed in) and sign-in with
 * one (anonymous), which answers exactly like `auth/verify`, refresh cookie included.
 */
export const passkeysRoutes: FastifyPluginAsyncZod<{
  pool: Pool;
  passkeys: PasskeysService;
  authenticate: Authenticate;
  cookieSecure: boolean;
}> = async (app, { pool, passkeys, authenticate, cookieSecure }) => {
  const tags = [`${pool} passkeys`];
  const security = [{ bearerAuth: [] }];

  app.get(
    '/passkeys',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security,
        summary: "The caller's passkeys, oldest first (name, added, last used)",
        response: { 200: PasskeyListSchema },
      },
    },
    (request) => passkeys.list(request.caller!),
  );

  app.post(
    '/passkeys/registration/options',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security,
        summary:
          'Options for navigator.credentials.create() (a discoverable, user-verified passkey for the caller; the challenge is good for 5 minutes, once)',
        response: { 200: PasskeyOptionsResponseSchema },
      },
    },
    (request) => passkeys.registrationOptions(request.caller!),
  );

  app.post(
    '/passkeys/registration/verify',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security,
        summary:
          "Add the new passkey (the browser's registration response) to the caller's account",
        body: PasskeyRegistrationRequestSchema,
        response: { 201: PasskeySchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await passkeys.register(request.caller!, request.body)),
  );

  app.patch(
    '/passkeys/:id',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security,
        summary: "Rename one of the caller's passkeys",
        params: PasskeyIdParamSchema,
        body: PasskeyRenameSchema,
        response: { 200: PasskeySchema },
      },
    },
    (request) => passkeys.rename(request.caller!, request.params.id, request.body.name),
  );

  app.delete(
    '/passkeys/:id',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security,
        summary: "Remove one of the caller's passkeys (anyone else's is 404)",
        params: PasskeyIdParamSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await passkeys.remove(request.caller!, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/passkeys/sign-in/options',
    {
      schema: {
        tags,
        summary:
          'Options for navigator.credentials.get() (no phone number: the browser offers its passkeys for this site)',
        response: { 200: PasskeyOptionsResponseSchema },
      },
    },
    () => passkeys.signInOptions(pool),
  );

  app.post(
    '/passkeys/sign-in/verify',
    {
      schema: {
        tags,
        summary:
          "Sign in with a passkey (the browser's authentication response): the access token and refresh cookie of auth/verify",
        body: PasskeySignInRequestSchema,
        response: { 200: VerifyResponseSchema },
      },
    },
    async (request, reply) =>
      sendSession(reply, pool, await passkeys.signIn(pool, request.body), cookieSecure),
  );
};
