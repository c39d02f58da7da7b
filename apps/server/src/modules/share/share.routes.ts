import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { openableFromOutside } from '../../lib/opener-policy.js';
import { renderShareNotFound, SHARE_SCRIPT } from './share-page.js';
import type { ShareService } from './share.service.js';

/**
 * How long a browser or a link-preview cache may keep an image or video without asking again:
 * short, because making the item private must take it down (the route checks on every request).
 */
export const SHARE_MEDIA_MAX_AGE_SECONDS = 60;

const ParamsSchema = z.object({ publicId: z.string().max(64) });
const ImageQuerySchema = z.object({
  w: z.enum(['600', '1200']).default('1200'),
});

const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

function notFoundPage(reply: FastifyReply): FastifyReply {
  return openableFromOutside(reply)
    .status(404)
    .type('text/html; charset=utf-8')
    .header('Cache-Control', 'no-cache')
    .send(renderShareNotFound());
}

/**
 * Share pages under /p: `GET /p/{public_id}` (HTML rendered here; a motion item's page loads
 * `/p/share.js`, its tap-to-pause), its image
 * `/p/{public_id}/image.jpg?w=600|1200` and a motion item's `/p/{public_id}/video.mp4`,
 * `preview.webp` and (gif kind) `animation.gif`.
 * No session: these are what a link preview (WhatsApp, Facebook, X) and a friend open.
 */
export const shareRoutes: FastifyPluginAsyncZod<{ share: ShareService }> = async (
  app,
  { share },
) => {
  const tags = ['share pages'];

  // Before the page route: a static path wins over `/:publicId` either way, but reads first.
  app.get(
    '/share.js',
    {
      schema: {
        tags,
        summary: "The share page's script: a tap on a motion item's video pauses and plays it",
      },
    },
    async (_request, reply) =>
      reply
        .type('text/javascript; charset=utf-8')
        .header('Cache-Control', 'public, max-age=3600')
        .send(SHARE_SCRIPT),
  );

  app.get(
    '/:publicId',
    {
      schema: {
        tags,
        summary:
          "A public item's share page (HTML with Open Graph and Twitter card tags); 404 once it is private or hidden",
        params: ParamsSchema,
      },
    },
    async (request, reply) => {
      const page = await share.page(request.params.publicId, originOf(request));
      if (page === null) return notFoundPage(reply);
      // Revalidated on every view: a page made private must not be served from a cache.
      return openableFromOutside(reply)
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'no-cache')
        .send(page);
    },
  );

  app.get(
    '/:publicId/image.jpg',
    {
      schema: {
        tags,
        summary: "A public item's picture as a JPEG 1200 (og:image) or 600 px wide",
        params: ParamsSchema,
        querystring: ImageQuerySchema,
      },
    },
    async (request, reply) => {
      const image = await share.image(
        request.params.publicId,
        request.query.w === '600' ? 600 : 1200,
      );
      if (!image) return reply.status(404).send({ message: 'Not found.', code: 'not_found' });
      return reply
        .type('image/jpeg')
        .header('Cache-Control', `public, max-age=${SHARE_MEDIA_MAX_AGE_SECONDS}`)
        .send(image.body);
    },
  );

  const motionFiles = [
    { path: 'video.mp4', file: 'video', what: "A public motion item's video (og:video)" },
    { path: 'preview.webp', file: 'preview', what: "A public motion item's animated WebP preview" },
    { path: 'animation.gif', file: 'gif', what: "A public GIF item's .gif" },
  ] as const;
  for (const { path, file, what } of motionFiles) {
    app.get(
      `/:publicId/${path}`,
      {
        schema: {
          tags,
          summary: `${what}: a redirect to a short-lived link to the stored file`,
          params: ParamsSchema,
        },
      },
      async (request, reply) => {
        const link = await share.videoLink(request.params.publicId, file);
        if (!link) return reply.status(404).send({ message: 'Not found.', code: 'not_found' });
        // To the store (which answers byte ranges); asked again on every play, never cached here.
        return reply.header('Cache-Control', 'no-store').redirect(link, 302);
      },
    );
  }
};
