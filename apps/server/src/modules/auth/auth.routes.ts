import {
  type Pool,
  RefreshResponseSchema,
  SignInRequestSchema,
  SignInResponseSchema,
  SignOutResponseSchema,
  SignUpRequestSchema,
  SignUpResponseSchema,
  VerifyRequestSchema,
  VerifyResponseSchema,
} from '@flashbooth/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type AuthService, type IssuedSession, RetryLaterError } from './auth.service.js';

export const REFRESH_COOKIE = 'flashbooth_refresh';

/** Runs `work`; a refusal that knows when to come back also says so in `Retry-After` (seconds). */
async function withRetryAfter<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RetryLaterError) {
      void reply.header('retry-after', String(error.retryAfterSeconds));
    }
    throw error;
  }
}

export const authRoutes: FastifyPluginAsyncZod<{
  pool: Pool;
  auth: AuthService;
  cookieSecure: boolean;
}> = async (app, { pool, auth, cookieSecure }) => {
  const tags = [`${pool} auth`];
  // The refresh cookie is scoped to this pool's auth path, so the pools never share it.
  const cookiePath = `/api/${pool}/auth`;

  const setRefreshCookie = (reply: FastifyReply, session: IssuedSession) =>
    reply.setCookie(REFRESH_COOKIE, session.refreshToken, {
      path: cookiePath,
      httpOnly: true,
      secure: cookieSecure,
      sameSite: 'strict',
      expires: session.refreshExpiresAt,
    });

  app.post(
    '/auth/sign-in',
    {
      schema: {
        tags,
        summary: 'Send a one-time code to an existing account',
        body: SignInRequestSchema,
        response: { 200: SignInResponseSchema },
      },
    },
    async (request, reply) => {
      await withRetryAfter(reply, () => auth.signIn(pool, request.body.phone, request.ip));
      return { status: 'code_sent' as const };
    },
  );

  app.post(
    '/auth/sign-up',
    {
      schema: {
        tags,
        summary: 'Create an account and send it a one-time code',
        body: SignUpRequestSchema,
        response: { 201: SignUpResponseSchema },
      },
    },
    async (request, reply) => {
      await withRetryAfter(reply, () =>
        auth.signUp(pool, request.body.phone, request.body.name, request.ip),
      );
      return reply.code(201).send({ status: 'code_sent' as const });
    },
  );

  app.post(
    '/auth/verify',
    {
      schema: {
        tags,
        summary: 'Exchange the code for an access token and a refresh cookie',
        body: VerifyRequestSchema,
        response: { 200: VerifyResponseSchema },
      },
    },
    async (request, reply) => {
      const session = await withRetryAfter(reply, () =>
        auth.verify(pool, request.body.phone, request.body.code, request.ip),
      );
      setRefreshCookie(reply, session);
      return {
        access_token: session.accessToken,
        expires_in: session.expiresIn,
        user: session.user,
      };
    },
  );

  app.post(
    '/auth/refresh',
    {
      schema: {
        tags,
        summary: 'Rotate the refresh cookie and return a new access token',
        response: { 200: RefreshResponseSchema },
      },
    },
    async (request, reply) => {
      try {
        const session = await auth.refresh(pool, request.cookies[REFRESH_COOKIE]);
        setRefreshCookie(reply, session);
        return { access_token: session.accessToken, expires_in: session.expiresIn };
      } catch (error) {
        reply.clearCookie(REFRESH_COOKIE, { path: cookiePath });
        throw error;
      }
    },
  );

  app.post(
    '/auth/sign-out',
    {
      schema: {
        tags,
        summary: 'Revoke the refresh token family and clear the cookie',
        response: { 200: SignOutResponseSchema },
      },
    },
    async (request, reply) => {
      await auth.signOut(pool, request.cookies[REFRESH_COOKIE]);
      reply.clearCookie(REFRESH_COOKIE, { path: cookiePath });
      return { status: 'signed_out' as const };
    },
  );
};
