import { DevSmsQuerySchema, DevSmsResponseSchema } from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { toApiTimestamp } from '../../lib/time.js';
import type { OutboxSmsSender } from './sms.sender.js';

/** GET /api/dev/sms: only registered when the outbox is the SMS provider outside production. */
export const devSmsRoutes: FastifyPluginAsyncZod<{ outbox: OutboxSmsSender }> = async (
  app,
  { outbox },
) => {
  app.get(
    '/sms',
    {
      schema: {
        tags: ['development'],
        summary: 'Messages sent to a phone through the development SMS outbox, newest first',
        querystring: DevSmsQuerySchema,
        response: { 200: DevSmsResponseSchema },
      },
    },
    async (request) => {
      const rows = await outbox.list(request.query.phone);
      return {
        items: rows.map((row) => ({
          phone: row.phone,
          text: row.text,
          code: row.code,
          created_at: toApiTimestamp(row.createdAt),
        })),
      };
    },
  );
};
