import {
  CommentBodySchema,
  CommentPageSchema,
  CommentSchema,
  CommentsQuerySchema,
  IdParamSchema,
  LikeStateSchema,
  WallHideStateSchema,
  WallPageSchema,
  WallQuerySchema,
} from '@flashbooth/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Authenticate } from '../../security/authenticate.js';
import type { WallService } from './wall.service.js';

/**
 * Optional sign-in for the wall's reading calls: without an Authorization header the caller is
 * anonymous; with one, the token must be valid (a bad one is 401, as everywhere).
 */
function optional(authenticate: Authenticate): Authenticate {
  return async (request: FastifyRequest) => {
    if (request.headers.authorization === undefined) return;
    await authenticate(request);
  };
}

/**
 * Visitors (/api/regular): the public wall, likes and comments. Static segments win in
 * find-my-way, so `media/public` and `media/comments/:id` never reach the media module's
 * `media/:id`.
 */
export const visitorWallRoutes: FastifyPluginAsyncZod<{
  wall: WallService;
  authenticate: Authenticate;
}> = async (app, { wall, authenticate }) => {
  const tags = ['regular wall'];
  const security = [{ bearerAuth: [] }];
  const maybe = optional(authenticate);

  app.get(
    '/media/public',
    {
      onRequest: maybe,
      schema: {
        tags,
        security: [{}, ...security],
        summary:
          'The public wall, newest first; search on caption, user, organization and booth. No session needed',
        querystring: WallQuerySchema,
        response: { 200: WallPageSchema },
      },
    },
    (request) => wall.list(request.caller, request.query),
  );

  app.post(
    '/media/:id/likes',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security,
        summary: 'Like a wall item (liking twice is one like)',
        params: IdParamSchema,
        response: { 200: LikeStateSchema },
      },
    },
    (request) => wall.like(request.caller!, request.params.id),
  );

  app.delete(
    '/media/:id/likes',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security,
        summary: "Take the caller's like of a wall item back (none is no change)",
        params: IdParamSchema,
        response: { 200: LikeStateSchema },
      },
    },
    (request) => wall.unlike(request.caller!, request.params.id),
  );

  app.get(
    '/media/:id/comments',
    {
      onRequest: maybe,
      schema: {
        tags,
        security: [{}, ...security],
        summary: "A wall item's comments, newest first (can_edit: the caller's own)",
        params: IdParamSchema,
        querystring: CommentsQuerySchema,
        response: { 200: CommentPageSchema },
      },
    },
    (request) => wall.comments(request.caller, request.params.id, request.query),
  );

  app.post(
    '/media/:id/comments',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security,
        summary: 'Comment on a wall item',
        params: IdParamSchema,
        body: CommentBodySchema,
        response: { 201: CommentSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await wall.addComment(request.caller!, request.params.id, request.body.comment_text)),
  );

  app.patch(
    '/media/comments/:id',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security,
        summary: "Change the caller's own comment",
        params: IdParamSchema,
        body: CommentBodySchema,
        response: { 200: CommentSchema },
      },
    },
    (request) => wall.editComment(request.caller!, request.params.id, request.body.comment_text),
  );

  app.delete(
    '/media/comments/:id',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security,
        summary: "Delete the caller's own comment",
        params: IdParamSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await wall.deleteComment(request.caller!, request.params.id);
      return reply.status(204).send(null);
    },
  );
};

/**
 * Staff (/api/enterprise): moderation of the wall. Privileged staff, and the admins of the
 * organization whose booth made the item; every action is logged with its moderator.
 */
export const staffWallRoutes: FastifyPluginAsyncZod<{
  wall: WallService;
  authenticate: Authenticate;
}> = async (app, { wall, authenticate }) => {
  const tags = ['enterprise wall moderation'];
  const security = [{ bearerAuth: [] }];
  app.addHook('onRequest', authenticate);

  app.post(
    '/media/:id/hide',
    {
      schema: {
        tags,
        security,
        summary: 'Hide an item from the wall (it stays in its owner’s My Media, marked)',
        params: IdParamSchema,
        response: { 200: WallHideStateSchema },
      },
    },
    (request) => wall.setHidden(request.caller!, request.params.id, true),
  );

  app.delete(
    '/media/:id/hide',
    {
      schema: {
        tags,
        security,
        summary: 'Show a hidden item on the wall again (if its owner keeps it public)',
        params: IdParamSchema,
        response: { 200: WallHideStateSchema },
      },
    },
    (request) => wall.setHidden(request.caller!, request.params.id, false),
  );

  app.get(
    '/media/:id/comments',
    {
      schema: {
        tags,
        security,
        summary: "An item's comments for its moderators (every one can_edit)",
        params: IdParamSchema,
        querystring: CommentsQuerySchema,
        response: { 200: CommentPageSchema },
      },
    },
    (request) => wall.staffComments(request.caller!, request.params.id, request.query),
  );

  app.delete(
    '/media/comments/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Delete any comment on an item the caller moderates',
        params: IdParamSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await wall.staffDeleteComment(request.caller!, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
