import {
  type Pool,
  RefreshResponseSchema,
  SignInLinkRequestSchema,
  SignInRequestSchema,
  SignInResponseSchema,
  SignOutResponseSchema,
  SignUpRequestSchema,
  SignUpResponseSchema,
  VerifyRequestSchema,
  VerifyResponseSchema,
} from '@flashbooth/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  type AuthService,
  CodeBudgetSpentError,
  type IssuedSession,
  type LinkTarget,
  RetryLaterError,
} from './auth.service.js';

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

/**
 * Hands a new session to the browser: the refresh cookie (HttpOnly, SameSite=Strict, scoped to
 * the pool's auth path, so the pools never share it) and the verify body. Every sign-in route of
 * the pool answers with it (code here, passkeys in modules/passkeys).
 */
export function sendSession(
  reply: FastifyReply,
  pool: Pool,
  session: IssuedSession,
  cookieSecure: boolean,
) {
  void reply.setCookie(REFRESH_COOKIE, session.refreshToken, {
    path: `/api/${pool}/auth`,
    httpOnly: true,
    secure: cookieSecure,
    sameSite: 'strict',
    expires: session.refreshExpiresAt,
  });
  return {
    access_token: session.accessToken,
    expires_in: session.expiresIn,
    user: session.user,
  };
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
    sendSession(reply, pool, session, cookieSecure);

  /** Where the SMS's sign-in link leads (PUBLIC_URL, when set, wins in the service). */
  const linkTarget = (request: FastifyRequest, next: string | undefined): LinkTarget => ({
    origin: `${request.protocol}://${request.host}`,
    next,
  });

  // A spent code budget's 429 also says when codes work again and whether a sign-in link was
  // just sent (the login screen explains it); everything else goes on to the app's handler.
  app.setErrorHandler((error, _request, reply) => {
    if (!(error instanceof CodeBudgetSpentError)) throw error;
    return reply
      .status(error.statusCode)
      .header('retry-after', String(error.retryAfterSeconds))
      .send({ message: error.message, code: error.code, ...error.details });
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
      await withRetryAfter(reply, () =>
        auth.signIn(pool, request.body.phone, request.ip, linkTarget(request, request.body.next)),
      );
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
        auth.signUp(
          pool,
          request.body.phone,
          request.body.name,
          request.ip,
          linkTarget(request, request.body.next),
        ),
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
      return setRefreshCookie(reply, session);
    },
  );

  app.post(
    '/auth/link',
    {
      schema: {
        tags,
        summary:
          'Exchange a one-tap sign-in link from the SMS for an access token and a refresh cookie',
        description:
          'The token from the fragment of the link in a sign-in SMS (`#link=…`). Single use, as long-lived as the code sent with it, only in the pool it was sent for; answered exactly like `auth/verify`. Not limited by the code budget; an unknown, used or expired token is 401 `invalid_token`.',
        body: SignInLinkRequestSchema,
        response: { 200: VerifyResponseSchema },
      },
    },
    async (request, reply) => {
      const session = await auth.signInWithLink(pool, request.body.token, request.ip);
      return setRefreshCookie(reply, session);
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
