import {
  IdSchema,
  type KioskWallEvent,
  KioskWallSchema,
  WALL_MESSAGES,
} from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, notFound } from '../../errors.js';
import { type EventStream, openEventStream } from '../../lib/event-stream.js';
import type { KioskWallService } from './kiosk-wall.service.js';
import type { WallFeed } from './wall-feed.js';

/** A comment line this often keeps an idle stream open through proxies and load balancers. */
export const KIOSK_HEARTBEAT_MS = 15_000;
/** Open kiosk streams one instance serves at most; more get 503 (the kiosk then only reloads). */
export const MAX_KIOSK_STREAMS = 500;
/** Bytes a kiosk may leave unread before its stream is dropped. */
const MAX_BUFFERED_BYTES = 64 * 1024;
/** What EventSource waits before reconnecting (the `retry:` field). */
const RETRY_MS = 5000;

const OrgParamSchema = z.object({ orgId: IdSchema });

export interface KioskWallRoutesOptions {
  kiosk: KioskWallService;
  feed: WallFeed;
  heartbeatMs?: number;
  maxStreams?: number;
}

/**
 * The kiosk wall of one organization, for a venue's screen (no session): its newest items
 * (`walls/{orgId}`) and a live stream (`walls/{orgId}/events`, server-sent events, read with
 * EventSource) saying when one of its items comes onto the wall or leaves it, so the screen
 * reloads its items at once. The stream carries ids only, never pictures or names.
 */
export const visitorKioskWallRoutes: FastifyPluginAsyncZod<KioskWallRoutesOptions> = async (
  app,
  options,
) => {
  const { kiosk, feed } = options;
  const heartbeatMs = options.heartbeatMs ?? KIOSK_HEARTBEAT_MS;
  const maxStreams = options.maxStreams ?? MAX_KIOSK_STREAMS;
  const tags = ['regular kiosk wall'];
  const openStreams = new Set<EventStream>();

  app.addHook('preClose', async () => {
    for (const stream of [...openStreams]) stream.close('server closing');
  });
  app.addHook('onClose', async () => feed.stop());

  app.get(
    '/walls/:orgId',
    {
      schema: {
        tags,
        summary:
          "An organization's kiosk wall: its newest public items, its name, logo and booths. No session needed",
        params: OrgParamSchema,
        response: { 200: KioskWallSchema },
      },
    },
    async (request, reply) => {
      // Short: a screen reloads after every change anyway, and private items must leave soon.
      reply.header('Cache-Control', 'no-cache');
      return kiosk.wall(request.params.orgId);
    },
  );

  app.get(
    '/walls/:orgId/events',
    {
      schema: {
        tags,
        summary: 'Live changes of a kiosk wall (server-sent events). No session needed',
        description:
          'A `text/event-stream` of `event: wall` messages whose `data` is `{ media_id, on_wall }`: one of the organization’s items came onto the wall or left it. Comment lines every 15 s keep it open.',
        params: OrgParamSchema,
      },
    },
    async (request, reply) => {
      const orgId = request.params.orgId;
      if (!(await kiosk.exists(orgId))) throw notFound(WALL_MESSAGES.kioskNotFound);
      if (openStreams.size >= maxStreams) {
        throw new AppError('service_unavailable', WALL_MESSAGES.kioskTooManyStreams);
      }
      await feed.ready();

      let unsubscribe = () => {};
      const stream = openEventStream(request, reply, {
        retryMs: RETRY_MS,
        heartbeatMs,
        maxBufferedBytes: MAX_BUFFERED_BYTES,
        onClose: () => {
          unsubscribe();
          openStreams.delete(stream);
        },
      });
      openStreams.add(stream);
      unsubscribe = feed.subscribe((change) => {
        if (change.orgId !== orgId) return;
        const event: KioskWallEvent = { media_id: change.mediaId, on_wall: change.onWall };
        stream.write(`event: wall\ndata: ${JSON.stringify(event)}\n\n`);
      });
    },
  );
};
