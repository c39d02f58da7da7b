import {
  IdParamSchema,
  LatestRolloutSchema,
  RolloutSchema,
  RolloutStartSchema,
} from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Authenticate } from '../../security/authenticate.js';
import type { RolloutsService } from './rollouts.service.js';

export interface RolloutsRoutesOptions {
  rollouts: RolloutsService;
  authenticate: Authenticate;
}

/**
 * Staff (/api/enterprise): staged rollouts of a channel's release (issue 11). Super users and
 * product admins only, like every software call.
 */
export const staffRolloutsRoutes: FastifyPluginAsyncZod<RolloutsRoutesOptions> = async (
  app,
  { rollouts, authenticate },
) => {
  const security = [{ bearerAuth: [] }];
  const tags = ['enterprise software rollouts'];
  app.addHook('onRequest', authenticate);

  app.post(
    '/software/channels/:id/rollouts',
    {
      schema: {
        tags,
        security,
        summary:
          "Roll the channel's release out to its booths in waves (one, a quarter of the rest, the rest)",
        description:
          'Stops by itself when more than `max_failures` booths fail (default ROLLOUT_MAX_FAILURES). ' +
          '409 without a linked, uploaded release, without booths, or while another rollout of the ' +
          'channel is running or paused.',
        params: IdParamSchema,
        body: RolloutStartSchema.nullish(),
        response: { 201: RolloutSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await rollouts.start(request.caller!, request.params.id, request.body ?? {})),
  );

  app.get(
    '/software/channels/:id/rollouts/latest',
    {
      schema: {
        tags,
        security,
        summary: "The channel's newest rollout with every booth's state by wave, or null",
        params: IdParamSchema,
        response: { 200: LatestRolloutSchema },
      },
    },
    (request) => rollouts.latest(request.caller!, request.params.id),
  );

  app.get(
    '/software/rollouts/:id',
    {
      schema: {
        tags,
        security,
        summary: "A rollout with every booth's state by wave",
        params: IdParamSchema,
        response: { 200: RolloutSchema },
      },
    },
    (request) => rollouts.get(request.caller!, request.params.id),
  );

  for (const [action, summary] of [
    ['pause', 'Pause a running rollout (updates already sent finish)'],
    ['resume', 'Resume a paused rollout (its wave gets a fresh timeout)'],
    ['cancel', 'Cancel a running or paused rollout (updates already sent finish)'],
  ] as const) {
    app.post(
      `/software/rollouts/:id/${action}`,
      {
        schema: {
          tags,
          security,
          summary,
          params: IdParamSchema,
          response: { 200: RolloutSchema },
        },
      },
      (request) => rollouts[action](request.caller!, request.params.id),
    );
  }
};
