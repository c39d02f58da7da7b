import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import type { KioskWallService } from '../../src/modules/wall/kiosk-wall.service.js';
import { WallFeed } from '../../src/modules/wall/wall-feed.js';
import { visitorKioskWallRoutes } from '../../src/modules/wall/wall.kiosk.routes.js';

/** The kiosk walls' live streams on their own: the per-instance limit and the venue filter. */
describe('kiosk wall streams', () => {
  it('are limited per instance: one more is refused with 503 until one closes', async () => {
    const feed = new WallFeed({ log: pino({ level: 'silent' }) });
    const kiosk = { exists: async () => true } as unknown as KioskWallService;
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.setErrorHandler((error, _request, reply) =>
      error instanceof AppError
        ? reply.status(503).send({ message: error.message })
        : reply.status(500).send({ message: 'unexpected' }),
    );
    await app.register(visitorKioskWallRoutes, { kiosk, feed, maxStreams: 1 });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const controller = new AbortController();
    try {
      const first = await fetch(`${address}/walls/1/events`, { signal: controller.signal });
      expect(first.status).toBe(200);
      const second = await fetch(`${address}/walls/1/events`);
      expect(second.status).toBe(503);
      expect(await second.json()).toEqual({
        message:
          'Too many live walls are open on this server. The wall still reloads every few minutes.',
      });
      // Without a database the feed delivers its own changes: the open stream gets them.
      const reader = first.body!.getReader();
      feed.publish({ mediaId: 7, orgId: 1, onWall: true });
      feed.publish({ mediaId: 8, orgId: 2, onWall: true });
      let text = '';
      while (!text.includes('"media_id":7')) {
        text += new TextDecoder().decode((await reader.read()).value);
      }
      expect(text).not.toContain('"media_id":8');
    } finally {
      controller.abort();
      await app.close();
    }
  });
});
