import { can, type StaffPrincipal } from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { decodeJwt } from 'jose';
import { AppError } from '../../errors.js';
import { type EventStream, openEventStream } from '../../lib/event-stream.js';
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
  const openStreams = new Set<EventStream>();

  app.addHook('onRequest', options.authenticate);
  app.addHook('preClose', async () => {
    for (const stream of [...openStreams]) stream.close('server closing');
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

      let unsubscribe = () => {};
      const stream = openEventStream(request, reply, {
        retryMs: RETRY_MS,
        heartbeatMs,
        maxBufferedBytes,
        onClose: (reason) => {
          unsubscribe();
          openStreams.delete(stream);
          request.log.info({ reason }, 'device status stream closed');
        },
      });
      openStreams.add(stream);
      unsubscribe = feed.subscribe((change) => {
        if (mayView(principal, change.orgId)) stream.write(statusEventText(change));
      });

      stream.every(viewerRefreshMs, () => {
        users.staffPrincipal(claims).then(
          (caller) => {
            principal = caller.principal;
          },
          (error: unknown) => {
            if (error instanceof AppError && error.code === 'unauthorized') {
              stream.close('viewer no longer signed in');
            } else {
              request.log.warn({ err: error }, 'device status stream: viewer not reloaded');
            }
          },
        );
      });
      const expiresAt = tokenExpiry(request.headers.authorization);
      if (expiresAt !== undefined) {
        stream.after(Math.max(0, expiresAt - now().getTime()), () =>
          stream.close('access token lapsed'),
        );
      }
    },
  );
};
