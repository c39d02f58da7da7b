import { IdParamSchema, OrganizationStatsSchema } from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Authenticate } from '../../security/authenticate.js';
import type { StatsService } from './stats.service.js';

/** Staff (/api/enterprise): GET organizations/{id}/stats. */
export const staffStatsRoutes: FastifyPluginAsyncZod<{
  stats: StatsService;
  authenticate: Authenticate;
}> = async (app, { stats, authenticate }) => {
  app.addHook('onRequest', authenticate);

  app.get(
    '/organizations/:id/stats',
    {
      schema: {
        tags: ['enterprise statistics'],
        security: [{ bearerAuth: [] }],
        summary: "An organization's statistics (members; rates, repeated users, revenue: admins)",
        description:
          'Totals of the media its booths delivered, weekly and monthly counts (UTC, only ' +
          'periods with media; the screen gap-fills them) and the most used template. ' +
          'share_rate, download_rate, repeated_users and revenue are present only for the ' +
          "organization's admins, super users and product admins.",
        params: IdParamSchema,
        response: { 200: OrganizationStatsSchema },
      },
    },
    (request) => stats.organizationStats(request.caller!, request.params.id),
  );
};
