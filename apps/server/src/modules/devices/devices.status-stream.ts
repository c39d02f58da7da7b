import type { ServerResponse } from 'node:http';
import { can, type StaffPrincipal } from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { decodeJwt } from 'jose';
import { AppError } from '../../errors.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import type { Authenticate } from '../../security/authenticate.js';
import type { StaffCaller } from '../users/users.service.js';
import type { DeviceStatusChange, DeviceStatusFeed } from './device-status-feed.js';

/** Under /api/enterprise. A static path: it wins over `devices/:id` (find-my-way). */
export const STATUS_STREAM_PATH = '/devices/status-stream';

/** A comment line this often, so proxies and load balancers keep an idle stream open. */
export const HEARTBEAT_MS = 15_000;
/** How often an open stream reloads the viewer's flags and memberships. */
export const VIEWER_REFRESH_MS = 30_000;
/** Bytes a client may leave unread before its stream is dropped (about 1,000 events). */
export const MAX_BUFFERED_BYTES = 256 * 1024;
/** What EventSource-style clients wait before reconnecting (the `retry:` field). */
const RETRY_MS = 2000;

export interface StatusStreamOptions {
  feed: DeviceStatusFeed;
  /** The viewer's flags and memberships (UsersService.staffPrincipal). */
  users: { staffPrincipal(claims: AccessClaims): Promise<StaffCaller> };
  authenticate: Authenticate;
  now: () => Date;
  heartbeatMs?: number;
  viewerRefreshMs?: number;
  maxBufferedBytes?: number;
}

/**
 * Whether a viewer may see a device's changes: as DevicesService decides for one device
 * (privileged staff every device, others `device.view` in the device's organization).
 */
export function mayView(principal: StaffPrincipal, orgId: number | null): boolean {
  if (can(principal, 'device.manage')) return true;
  return orgId !== null && can(principal, 'device.view', orgId);
}

/** One server-sent event of the stream. */
export function statusEventText(change: DeviceStatusChange): string {
  return `event: status\ndata: ${JSON.stringify(change.event)}\n\n`;
}

/** When the bearer token of the request lapses (ms since the epoch); the token was verified. */
function tokenExpiry(authorization: string | undefined): number | undefined {
  const token = authorization?.replace(/^Bearer\s+/i, '');
  if (!token) return undefined;
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * GET /api/enterprise/devices/status-stream (issue 11, live status): the status changes the
 * server records (booth reports over MQTT, its last will, ping results, restocks and other staff
 * changes) as server-sent events, `event: status` with a DeviceStatusEvent, for the devices the
 * viewer may see. Authenticated like every staff call (the web reads it with fetch, sending the
 * bearer token). The stream ends when the access token lapses (the client reconnects with a
 * fresh one, so a signed-out session cannot keep it), when the viewer's account is gone, and
 * when the client reads too slowly.
 */
export const staffDeviceStatusRoutes: FastifyPluginAsyncZod<StatusStreamOptions> = async (
  app,
  options,
) => {
  const { feed, users, now } = options;
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const viewerRefreshMs = options.viewerRefreshMs ?? VIEWER_REFRESH_MS;
  const maxBufferedBytes = options.maxBufferedBytes ?? MAX_BUFFERED_BYTES;
  /** The closers of the open streams: app.close() ends them before the server closes. */
  const openStreams = new Set<(reason: string) => void>();

  app.addHook('onRequest', options.authenticate);
  app.addHook('preClose', async () => {
    for (const close of [...openStreams]) close('server closing');
  });
  app.addHook('onClose', async () => feed.stop());

  app.get(
    STATUS_STREAM_PATH,
    {
      schema: {
        tags: ['enterprise devices'],
        security: [{ bearerAuth: [] }],
        summary: 'Live device status (server-sent events)',
        description:
          'A `text/event-stream` of `event: status` messages whose `data` is a DeviceStatusEvent (id, status, prints_left, software_version, pinged_at, updated_at), sent after the server recorded the change, for the devices the caller may see. Comment lines every 15 s keep it open; it ends when the access token lapses (reconnect with a fresh token).',
      },
    },
    async (request, reply) => {
      const claims = request.caller!;
      let principal = (await users.staffPrincipal(claims)).principal;
      // Hear the other instances before the client is told it is connected.
      await feed.ready();

      reply.hijack();
      const res: ServerResponse = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-store, no-transform',
        // nginx and similar proxies: pass each event on at once.
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
        'x-request-id': request.id,
      });
      res.socket?.setNoDelay(true);

      let closed = false;
      const timers: NodeJS.Timeout[] = [];
      let unsubscribe = () => {};
      const close = (reason: string, destroy = false) => {
        if (closed) return;
        closed = true;
        unsubscribe();
        for (const timer of timers) clearTimeout(timer);
        openStreams.delete(close);
        request.log.info({ reason }, 'device status stream closed');
        if (destroy) res.destroy();
        else if (!res.writableEnded) res.end();
      };
      const write = (text: string) => {
        if (closed) return;
        // A client that does not read: drop it rather than let its backlog grow.
        if (res.writableLength > maxBufferedBytes) {
          request.log.warn({ buffered: res.writableLength }, 'device status stream too slow');
          close('client too slow', true);
          return;
        }
        res.write(text);
      };

      openStreams.add(close);
      res.on('close', () => close('client disconnected', true));
      write(`retry: ${RETRY_MS}\n: connected\n\n`);
      unsubscribe = feed.subscribe((change) => {
        if (mayView(principal, change.orgId)) write(statusEventText(change));
      });

      timers.push(setInterval(() => write(': heartbeat\n\n'), heartbeatMs));
      timers.push(
        setInterval(() => {
          users.staffPrincipal(claims).then(
            (caller) => {
              principal = caller.principal;
            },
            (error: unknown) => {
              if (error instanceof AppError && error.code === 'unauthorized') {
                close('viewer no longer signed in');
              } else {
                request.log.warn({ err: error }, 'device status stream: viewer not reloaded');
              }
            },
          );
        }, viewerRefreshMs),
      );
      const expiresAt = tokenExpiry(request.headers.authorization);
      if (expiresAt !== undefined) {
        const lapse = setTimeout(
          () => close('access token lapsed'),
          Math.max(0, expiresAt - now().getTime()),
        );
        timers.push(lapse);
      }
      for (const timer of timers) timer.unref();
    },
  );
};
