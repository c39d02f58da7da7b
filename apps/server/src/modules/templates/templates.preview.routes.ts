import { IdParamSchema, TemplatePreviewRequestSchema } from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Authenticate } from '../../security/authenticate.js';
import type { TemplatePreviewService } from './templates.preview.js';

export interface TemplatePreviewRoutesOptions {
  previews: TemplatePreviewService;
  authenticate: Authenticate;
}

/** A draft is a few hundred bytes; 24 slots with long filter names stay far below this. */
const BODY_LIMIT = 16 * 1024;

/** Staff (enterprise pool): POST templates/{id}/preview, the true print preview of a draft. */
export const staffTemplatePreviewRoutes: FastifyPluginAsyncZod<
  TemplatePreviewRoutesOptions
> = async (app, { previews, authenticate }) => {
  app.addHook('onRequest', authenticate);

  app.post(
    '/templates/:id/preview',
    {
      bodyLimit: BODY_LIMIT,
      schema: {
        tags: ['enterprise templates'],
        security: [{ bearerAuth: [] }],
        summary:
          "The draft's print as a booth composes it (JPEG of the canvas size, sample photos, the stored foreground)",
        params: IdParamSchema,
        body: TemplatePreviewRequestSchema,
        response: { 200: z.any().describe('image/jpeg') },
      },
    },
    async (request, reply) => {
      const image = await previews.preview(request.caller!, request.params.id, request.body);
      return reply
        .header('Content-Type', 'image/jpeg')
        .header('Cache-Control', 'no-store')
        .send(image);
    },
  );
};
