import {
  type Pool,
  profilePatchSchema,
  UserIdParamSchema,
  UserSchema,
} from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Authenticate } from '../../security/authenticate.js';
import type { UsersService } from './users.service.js';

export const usersRoutes: FastifyPluginAsyncZod<{
  pool: Pool;
  users: UsersService;
  authenticate: Authenticate;
}> = async (app, { pool, users, authenticate }) => {
  const tags = [`${pool} users`];
  const security = [{ bearerAuth: [] }];

  app.get(
    '/users/:id',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security,
        summary: 'Read a user (`self` for the caller)',
        params: UserIdParamSchema,
        response: { 200: UserSchema },
      },
    },
    (request) => users.get(request.caller!, request.params.id),
  );

  app.patch(
    '/users/:id',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security,
        summary: 'Change profile fields (name, email, dob yyyy-mm-dd, gender)',
        params: UserIdParamSchema,
        body: profilePatchSchema(pool),
        response: { 200: UserSchema },
      },
    },
    (request) => users.patch(request.caller!, request.params.id, request.body),
  );
};
