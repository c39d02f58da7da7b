import { randomUUID } from 'node:crypto';
import type { Pool } from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { openPglite } from '../databases.js';
import { media, mediaComments, users } from '../../src/db/schema.js';
import { latestCode, newPhone } from '../harness.js';
import {
  AcceptingLink,
  type AppRoute,
  appRoutes,
  authHeaders,
  CALLER_KINDS,
  type Caller,
  type CallerKind,
  Fixtures,
  PNG,
  routeKey,
  type SecurityWorld,
  send,
  startSecurityWorld,
} from './security-suite.js';

/*
 * Issue 14, item 7: every route × every kind of caller → allowed ("ok": the permission check
 * passed and the call did its work, any 2xx) or refused with its status. Each cell is called
 * against the running app. The request of a row is valid (real ids, a valid body), so "ok" can
 * only mean the permission check let it through; a refusal is the status that check (or the
 * authentication before it) answers: 401 no or the wrong pool's token, 403 a role that may not,
 * 404 a row the caller may not even see (ids do not leak), 429 a spent code budget.
 *
 * Columns (CALLER_KINDS, security-suite.ts): anon = no token; vis = a visitor; bVis = a visitor
 * whose code budget is spent (still holding the session made before); sup = super user;
 * prod = product admin; oAdm / oMem = admin / member of the organization the row acts on;
 * othr = admin of another organization; none = staff of no organization; bStf = a member of the
 * organization whose code budget is spent.
 *
 * TO ADD A ROUTE: add one line to TABLE (the method and Fastify's URL pattern, then one cell per
 * column) and a request builder under the same key in REQUESTS. A row may name a variant after
 * the route in brackets ("GET /api/x/:id (another's)"); every route needs at least one row.
 * A cell that is allowed to change something ("ok" on a route other than GET) gets fixtures of
 * its own (`Fixtures.fresh`: a new organization with the org admin, member and blocked staff in
 * it, and whatever rows the request builder asks for), so a delete in one cell never changes what
 * another sees; reads and refused calls share one set (a refused call that changed something
 * would fail its own cell first).
 */

const TABLE = `
route                                                           anon vis  bVis sup  prod oAdm oMem othr none bStf
POST /api/regular/auth/sign-in                                  ok   ok   429  ok   ok   ok   ok   ok   ok   ok
POST /api/regular/auth/sign-up                                  ok   ok   ok   ok   ok   ok   ok   ok   ok   ok
POST /api/regular/auth/verify                                   ok   ok   429  ok   ok   ok   ok   ok   ok   ok
POST /api/regular/auth/refresh                                  401  ok   ok   401  401  401  401  401  401  401
POST /api/regular/auth/sign-out                                 ok   ok   ok   ok   ok   ok   ok   ok   ok   ok
GET /api/regular/users/:id                                      401  ok   ok   401  401  401  401  401  401  401
PATCH /api/regular/users/:id                                    401  ok   ok   401  401  401  401  401  401  401
POST /api/regular/auth/link                                     ok   ok   ok   ok   ok   ok   ok   ok   ok   ok
GET /api/regular/passkeys                                       401  ok   ok   401  401  401  401  401  401  401
POST /api/regular/passkeys/registration/options                 401  ok   ok   401  401  401  401  401  401  401
POST /api/regular/passkeys/registration/verify                  401  400  400  401  401  401  401  401  401  401
PATCH /api/regular/passkeys/:id                                 401  ok   ok   401  401  401  401  401  401  401
DELETE /api/regular/passkeys/:id                                401  ok   ok   401  401  401  401  401  401  401
DELETE /api/regular/passkeys/:id (another person's)             401  404  404  401  401  401  401  401  401  401
POST /api/regular/passkeys/sign-in/options                      ok   ok   ok   ok   ok   ok   ok   ok   ok   ok
POST /api/regular/passkeys/sign-in/verify                       400  400  400  400  400  400  400  400  400  400
GET /api/regular/users/:id (another person's id)                401  403  403  401  401  401  401  401  401  401
GET /api/regular/devices/:id                                    401  ok   ok   401  401  401  401  401  401  401
POST /api/regular/devices/:id/ping                              401  ok   ok   401  401  401  401  401  401  401
GET /api/regular/devices/:id/templates                          401  ok   ok   401  401  401  401  401  401  401
GET /api/regular/devices/:id/entitlement                        401  ok   ok   401  401  401  401  401  401  401
GET /api/regular/devices/:id/visit                              401  ok   ok   401  401  401  401  401  401  401
POST /api/regular/devices/:id/visit                             401  ok   ok   401  401  401  401  401  401  401
POST /api/regular/devices/:id/capture                           401  ok   ok   401  401  401  401  401  401  401
GET /api/regular/media/uploaded                                 401  ok   ok   401  401  401  401  401  401  401
PATCH /api/regular/media/repost_allowed                         401  ok   ok   401  401  401  401  401  401  401
GET /api/regular/media                                          401  ok   ok   401  401  401  401  401  401  401
PATCH /api/regular/media/:id                                    401  ok   ok   401  401  401  401  401  401  401
PATCH /api/regular/media/:id (another visitor's)                401  404  404  401  401  401  401  401  401  401
GET /api/regular/media/public                                   ok   ok   ok   401  401  401  401  401  401  401
POST /api/regular/media/:id/likes                               401  ok   ok   401  401  401  401  401  401  401
DELETE /api/regular/media/:id/likes                             401  ok   ok   401  401  401  401  401  401  401
GET /api/regular/media/:id/comments                             ok   ok   ok   401  401  401  401  401  401  401
POST /api/regular/media/:id/comments                            401  ok   ok   401  401  401  401  401  401  401
PATCH /api/regular/media/comments/:id                           401  ok   ok   401  401  401  401  401  401  401
PATCH /api/regular/media/comments/:id (another visitor's)       401  403  403  401  401  401  401  401  401  401
DELETE /api/regular/media/comments/:id                          401  ok   ok   401  401  401  401  401  401  401
DELETE /api/regular/media/comments/:id (another visitor's)      401  403  403  401  401  401  401  401  401  401
POST /api/regular/payments/create                               401  ok   ok   401  401  401  401  401  401  401
POST /api/regular/payments/checkout                             401  ok   ok   401  401  401  401  401  401  401
POST /api/regular/payments/checkout (another visitor's)         401  404  404  401  401  401  401  401  401  401
GET /api/regular/payments/:id/status                            401  ok   ok   401  401  401  401  401  401  401
GET /api/regular/payments/:id/status (another visitor's)        401  404  404  401  401  401  401  401  401  401
GET /api/regular/transactions                                   401  ok   ok   401  401  401  401  401  401  401
GET /api/regular/users/self/data-export                         401  ok   ok   401  401  401  401  401  401  401
POST /api/regular/users/self/data-export                        401  ok   ok   401  401  401  401  401  401  401
POST /api/regular/users/self/erasure-code                       401  ok   ok   401  401  401  401  401  401  401
POST /api/regular/users/self/erase (a wrong code)               401  422  422  401  401  401  401  401  401  401
GET /api/regular/walls/:orgId                                   ok   ok   ok   ok   ok   ok   ok   ok   ok   ok
GET /api/regular/walls/:orgId/events                            ok   ok   ok   ok   ok   ok   ok   ok   ok   ok
POST /api/enterprise/auth/sign-in                               ok   ok   ok   ok   ok   ok   ok   ok   ok   429
POST /api/enterprise/auth/sign-up                               ok   ok   ok   ok   ok   ok   ok   ok   ok   ok
POST /api/enterprise/auth/verify                                ok   ok   ok   ok   ok   ok   ok   ok   ok   429
POST /api/enterprise/auth/refresh                               401  401  401  ok   ok   ok   ok   ok   ok   ok
POST /api/enterprise/auth/sign-out                              ok   ok   ok   ok   ok   ok   ok   ok   ok   ok
GET /api/enterprise/users/:id                                   401  401  401  ok   ok   ok   ok   ok   ok   ok
PATCH /api/enterprise/users/:id                                 401  401  401  ok   ok   ok   ok   ok   ok   ok
POST /api/enterprise/auth/link                                  ok   ok   ok   ok   ok   ok   ok   ok   ok   ok
GET /api/enterprise/passkeys                                    401  401  401  ok   ok   ok   ok   ok   ok   ok
POST /api/enterprise/passkeys/registration/options              401  401  401  ok   ok   ok   ok   ok   ok   ok
POST /api/enterprise/passkeys/registration/verify               401  401  401  400  400  400  400  400  400  400
PATCH /api/enterprise/passkeys/:id                              401  401  401  ok   ok   ok   ok   ok   ok   ok
DELETE /api/enterprise/passkeys/:id                             401  401  401  ok   ok   ok   ok   ok   ok   ok
POST /api/enterprise/passkeys/sign-in/options                   ok   ok   ok   ok   ok   ok   ok   ok   ok   ok
POST /api/enterprise/passkeys/sign-in/verify                    400  400  400  400  400  400  400  400  400  400
GET /api/enterprise/devices/status-stream                       401  401  401  ok   ok   ok   ok   ok   ok   ok
POST /api/enterprise/devices                                    401  401  401  ok   ok   403  403  403  403  403
GET /api/enterprise/devices                                     401  401  401  ok   ok   ok   ok   ok   ok   ok
GET /api/enterprise/devices/:id                                 401  401  401  ok   ok   ok   ok   404  404  ok
PATCH /api/enterprise/devices/:id                               401  401  401  ok   ok   ok   403  404  404  403
PATCH /api/enterprise/devices/:id (price)                       401  401  401  ok   ok   403  403  404  404  403
DELETE /api/enterprise/devices/:id                              401  401  401  ok   ok   403  403  404  404  403
PATCH /api/enterprise/devices/:id/link                          401  401  401  ok   ok   403  403  404  404  403
PATCH /api/enterprise/devices/:id/unlink                        401  401  401  ok   ok   403  403  404  404  403
POST /api/enterprise/devices/:id/ping                           401  401  401  ok   ok   ok   ok   404  404  ok
GET /api/enterprise/devices/:id/health                          401  401  401  ok   ok   ok   ok   404  404  ok
GET /api/enterprise/devices/:id/errors                          401  401  401  ok   ok   403  403  404  404  403
POST /api/enterprise/devices/:id/update                         401  401  401  ok   ok   403  403  404  404  403
POST /api/enterprise/devices/:id/enrollment-code              401  401  401  ok   ok   403  403  404  404  403
POST /api/enterprise/templates                                  401  401  401  ok   ok   403  403  403  403  403
GET /api/enterprise/templates                                   401  401  401  ok   ok   ok   ok   ok   ok   ok
GET /api/enterprise/templates/:id                               401  401  401  ok   ok   ok   ok   ok   ok   ok
PATCH /api/enterprise/templates/:id                             401  401  401  ok   ok   403  403  403  403  403
DELETE /api/enterprise/templates/:id                            401  401  401  ok   ok   403  403  403  403  403
POST /api/enterprise/templates/:id/images                       401  401  401  ok   ok   403  403  403  403  403
GET /api/enterprise/templates/:id/images                        401  401  401  ok   ok   ok   ok   ok   ok   ok
PATCH /api/enterprise/templates/:id/images/:imageId             401  401  401  ok   ok   403  403  403  403  403
DELETE /api/enterprise/templates/:id/images/:imageId            401  401  401  ok   ok   403  403  403  403  403
POST /api/enterprise/templates/:id/orgs                         401  401  401  ok   ok   403  403  403  403  403
GET /api/enterprise/templates/:id/orgs                          401  401  401  ok   ok   ok   ok   ok   ok   ok
DELETE /api/enterprise/templates/:id/orgs/:orgId                401  401  401  ok   ok   403  403  403  403  403
GET /api/enterprise/orgs/:orgId/templates                       401  401  401  ok   ok   ok   ok   404  404  ok
POST /api/enterprise/templates/:id/sample/presigned_upload      401  401  401  ok   ok   403  403  403  403  403
POST /api/enterprise/templates/:id/sample/confirm               401  401  401  ok   ok   403  403  403  403  403
POST /api/enterprise/templates/:id/foreground/presigned_upload  401  401  401  ok   ok   403  403  403  403  403
POST /api/enterprise/templates/:id/foreground/confirm           401  401  401  ok   ok   403  403  403  403  403
POST /api/enterprise/templates/:id/preview                      401  401  401  ok   ok   ok   ok   ok   ok   ok
POST /api/enterprise/organizations                              401  401  401  ok   ok   403  403  403  403  403
GET /api/enterprise/organizations                               401  401  401  ok   ok   ok   ok   ok   ok   ok
GET /api/enterprise/organizations/:id                           401  401  401  ok   ok   ok   ok   404  404  ok
PATCH /api/enterprise/organizations/:id                         401  401  401  ok   ok   ok   403  404  404  403
DELETE /api/enterprise/organizations/:id                        401  401  401  ok   ok   403  403  404  404  403
POST /api/enterprise/organizations/:id/logo/presigned_upload    401  401  401  ok   ok   ok   403  404  404  403
POST /api/enterprise/organizations/:id/logo/confirm             401  401  401  ok   ok   ok   403  404  404  403
GET /api/enterprise/organizations/:id/users                     401  401  401  ok   ok   ok   ok   404  404  ok
GET /api/enterprise/organizations/:id/users/:userId             401  401  401  ok   ok   ok   ok   404  404  ok
PATCH /api/enterprise/organizations/:id/users/:userId           401  401  401  ok   ok   403  403  404  404  403
DELETE /api/enterprise/organizations/:id/users/:userId          401  401  401  ok   ok   403  403  404  404  403
GET /api/enterprise/users/:id/invites                           401  401  401  ok   ok   ok   ok   ok   ok   ok
GET /api/enterprise/users/:id/invites (another staff member's)  401  401  401  ok   ok   403  403  403  403  403
POST /api/enterprise/organizations/:id/invites                  401  401  401  ok   ok   403  403  404  404  403
POST /api/enterprise/organizations/:id/invites/accept           401  401  401  ok   ok   ok   ok   ok   ok   ok
POST /api/enterprise/organizations/:id/invites/deny             401  401  401  ok   ok   ok   ok   ok   ok   ok
DELETE /api/enterprise/organizations/:id/invites/:inviteId      401  401  401  ok   ok   403  403  404  404  403
GET /api/enterprise/organizations/:id/guests                    401  401  401  ok   ok   ok   ok   404  404  ok
GET /api/enterprise/organizations/:id/guests/export.csv         401  401  401  ok   ok   ok   403  404  404  403
GET /api/enterprise/organizations/:id/moderation-log            401  401  401  ok   ok   ok   403  404  404  403
GET /api/enterprise/privacy/people/:id/data-export              401  401  401  ok   403  403  403  403  403  403
POST /api/enterprise/privacy/people/:id/data-export             401  401  401  ok   403  403  403  403  403  403
POST /api/enterprise/privacy/people/:id/erase                   401  401  401  ok   403  403  403  403  403  403
GET /api/enterprise/privacy/actions                             401  401  401  ok   403  403  403  403  403  403
GET /api/enterprise/organizations/:id/stats                     401  401  401  ok   ok   ok   ok   404  404  ok
GET /api/enterprise/organizations/:id/media/repost_allowed      401  401  401  ok   ok   ok   ok   404  404  ok
GET /api/enterprise/media/all                                   401  401  401  ok   ok   403  403  403  403  403
POST /api/enterprise/media/:id/hide                             401  401  401  ok   ok   ok   403  403  403  403
DELETE /api/enterprise/media/:id/hide                           401  401  401  ok   ok   ok   403  403  403  403
GET /api/enterprise/media/:id/comments                          401  401  401  ok   ok   ok   403  403  403  403
DELETE /api/enterprise/media/comments/:id                       401  401  401  ok   ok   ok   403  403  403  403
POST /api/enterprise/software/channels                          401  401  401  ok   ok   403  403  403  403  403
GET /api/enterprise/software/channels                           401  401  401  ok   ok   403  403  403  403  403
GET /api/enterprise/software/channels/:id                       401  401  401  ok   ok   403  403  403  403  403
PATCH /api/enterprise/software/channels/:id                     401  401  401  ok   ok   403  403  403  403  403
DELETE /api/enterprise/software/channels/:id                    401  401  401  ok   ok   403  403  403  403  403
POST /api/enterprise/software/releases                          401  401  401  ok   ok   403  403  403  403  403
GET /api/enterprise/software/releases                           401  401  401  ok   ok   403  403  403  403  403
GET /api/enterprise/software/releases/:id                       401  401  401  ok   ok   403  403  403  403  403
PATCH /api/enterprise/software/releases/:id                     401  401  401  ok   ok   403  403  403  403  403
DELETE /api/enterprise/software/releases/:id                    401  401  401  ok   ok   403  403  403  403  403
POST /api/enterprise/software/releases/:id/file/presigned_upload 401 401  401  ok   ok   403  403  403  403  403
POST /api/enterprise/software/releases/:id/file/confirm         401  401  401  ok   ok   403  403  403  403  403
POST /api/enterprise/software/channels/:id/rollouts             401  401  401  ok   ok   403  403  403  403  403
GET /api/enterprise/software/channels/:id/rollouts/latest       401  401  401  ok   ok   403  403  403  403  403
GET /api/enterprise/software/rollouts/:id                       401  401  401  ok   ok   403  403  403  403  403
POST /api/enterprise/software/rollouts/:id/pause                401  401  401  ok   ok   403  403  403  403  403
POST /api/enterprise/software/rollouts/:id/resume               401  401  401  ok   ok   403  403  403  403  403
POST /api/enterprise/software/rollouts/:id/cancel               401  401  401  ok   ok   403  403  403  403  403
POST /api/enterprise/transactions/:id/refund                    401  401  401  ok   ok   403  403  403  403  403
POST /api/enterprise/users/:id/credits                          401  401  401  ok   ok   403  403  403  403  403
GET /api/enterprise/users/:id/credits/ledger                    401  401  401  ok   ok   403  403  403  403  403
POST /api/device/media/:id/uploaded                             401  401  401  401  401  401  401  401  401  401
POST /api/device/media/:id/upload-url                           401  401  401  401  401  401  401  401  401  401
POST /api/device/enroll                                         ok   ok   ok   ok   ok   ok   ok   ok   ok   ok
GET /api/device/whoami                                          401  401  401  401  401  401  401  401  401  401
GET /booth/install.sh                                           ok   ok   ok   ok   ok   ok   ok   ok   ok   ok
GET /api/health                                                 ok   ok   ok   ok   ok   ok   ok   ok   ok   ok
GET /api/health/live                                            ok   ok   ok   ok   ok   ok   ok   ok   ok   ok
GET /api/health/ready                                           ok   ok   ok   ok   ok   ok   ok   ok   ok   ok
GET /api/health/details                                         401  401  401  ok   403  403  403  403  403  403
GET /api/health/details (the metrics token)                     ok   ok   ok   ok   ok   ok   ok   ok   ok   ok
GET /p/share.js                                                 ok   ok   ok   ok   ok   ok   ok   ok   ok   ok
GET /p/:publicId                                                ok   ok   ok   ok   ok   ok   ok   ok   ok   ok
GET /p/:publicId/image.jpg                                      ok   ok   ok   ok   ok   ok   ok   ok   ok   ok
GET /p/:publicId/video.mp4                                      302  302  302  302  302  302  302  302  302  302
GET /p/:publicId/preview.webp                                   302  302  302  302  302  302  302  302  302  302
GET /p/:publicId/animation.gif                                  302  302  302  302  302  302  302  302  302  302
GET /api/sandbox/checkout/:orderId                              ok   ok   ok   ok   ok   ok   ok   ok   ok   ok
POST /api/sandbox/checkout/:orderId                             303  303  303  303  303  303  303  303  303  303
GET /api/dev/sms                                                ok   ok   ok   ok   ok   ok   ok   ok   ok   ok
POST /api/mqtt/auth                                             403  403  403  403  403  403  403  403  403  403
POST /api/mqtt/acl                                              403  403  403  403  403  403  403  403  403  403
POST /api/mqtt/go-auth/user                                     403  403  403  403  403  403  403  403  403  403
POST /api/mqtt/go-auth/acl                                      403  403  403  403  403  403  403  403  403  403
PUT /api/storage/objects/*                                      ok   ok   ok   ok   ok   ok   ok   ok   ok   ok
PUT /api/storage/objects/* (unsigned)                           403  403  403  403  403  403  403  403  403  403
GET /api/storage/objects/*                                      ok   ok   ok   ok   ok   ok   ok   ok   ok   ok
`;

type Cell = 'ok' | number;

interface Request {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  payload?: object | string | Buffer;
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
  /** Leave out the caller's bearer token (calls that carry another credential or none). */
  withoutToken?: boolean;
}

type Build = (f: Fixtures, caller: Caller) => Promise<Request>;

/** The world's METRICS_TOKEN: the health details answer it (as /metrics does). */
const METRICS_TOKEN = 'authorization-matrix-metrics-token';
const metricsBearer = { authorization: `Bearer ${METRICS_TOKEN}` };

const R = '/api/regular';
const E = '/api/enterprise';
const get = (url: string, extra: Partial<Request> = {}): Request => ({
  method: 'GET',
  url,
  ...extra,
});
const post = (url: string, payload?: object, extra: Partial<Request> = {}): Request => ({
  method: 'POST',
  url,
  ...(payload ? { payload } : {}),
  ...extra,
});
const patch = (url: string, payload?: object): Request => ({
  method: 'PATCH',
  url,
  ...(payload ? { payload } : {}),
});
const del = (url: string): Request => ({ method: 'DELETE', url });

/** The phone of an account in `pool`: the caller's own, or a new account's. */
async function accountPhone(f: Fixtures, caller: Caller, pool: Pool): Promise<string> {
  if (caller.pool === pool) return caller.phone!;
  const phone = newPhone();
  await f.world.database.db.insert(users).values({ pool, phone, name: 'Account holder' });
  return phone;
}

/** The caller when its account is in `pool`, else a caller whose account is. */
const ownerIn = (f: Fixtures, caller: Caller, pool: Pool): Caller =>
  caller.pool === pool ? caller : f.world.callers[pool === 'regular' ? 'visitor' : 'org member'];

/** The visitor who is not the owner (another visitor's rows). */
const otherVisitor = (f: Fixtures, caller: Caller): Caller =>
  f.world.callers[caller.kind === 'visitor' ? 'blocked visitor' : 'visitor'];

/** A photo of `owner` at the row's organization's booth, uploaded and public: on the wall. */
async function wallItem(f: Fixtures, owner: Caller): Promise<number> {
  const captureId = randomUUID();
  const [row] = await f.world.database.db
    .insert(media)
    .values({
      userId: owner.userId!,
      deviceId: (await f.device()).id,
      orgId: await f.orgId(),
      templateId: await f.template(),
      captureId,
      s3Key: `media/${owner.userId}/${captureId}.jpg`,
      caption: 'On the wall',
      isPublic: true,
      isUploaded: true,
    })
    .returning({ id: media.id });
  return row!.id;
}

/** A comment of `author` on a new wall item of the row's organization. */
async function wallComment(f: Fixtures, author: Caller): Promise<number> {
  const [row] = await f.world.database.db
    .insert(mediaComments)
    .values({
      mediaId: await wallItem(f, f.world.callers.visitor),
      userId: author.userId!,
      commentText: 'Nice one',
    })
    .returning({ id: mediaComments.id });
  return row!.id;
}

/** A new visitor account no fixture uses (staff export or erase it). */
async function newVisitor(f: Fixtures): Promise<number> {
  const [row] = await f.world.database.db
    .insert(users)
    .values({ pool: 'regular', phone: newPhone(), name: 'Asks for their data' })
    .returning({ id: users.id });
  return row!.id;
}

/**
 * The public id of a new wall item whose file is in the store (a share page shows it); a motion
 * item's preview and GIF are that file too.
 */
async function sharedItem(f: Fixtures, mediaType: 'image' | 'video'): Promise<string> {
  const id = await wallItem(f, f.world.callers.visitor);
  const key = await f.templateUpload('sample');
  const motionKeys = mediaType === 'video' ? { previewKey: key, gifKey: key } : {};
  const [row] = await f.world.database.db
    .update(media)
    .set({ s3Key: key, mediaType, ...motionKeys })
    .where(eq(media.id, id))
    .returning({ publicId: media.publicId });
  return row!.publicId!;
}

const authRequests = (pool: Pool): Record<string, Build> => ({
  [`POST /api/${pool}/auth/sign-in`]: async (f, c) =>
    post(`/api/${pool}/auth/sign-in`, { phone: await accountPhone(f, c, pool) }),
  [`POST /api/${pool}/auth/sign-up`]: async () =>
    post(`/api/${pool}/auth/sign-up`, { phone: newPhone(), name: 'New Person' }),
  [`POST /api/${pool}/auth/verify`]: async (f, c) => {
    const phone = await accountPhone(f, c, pool);
    // A code is sent where the budget allows; a spent budget checks none, right or wrong.
    const sent = await f.app.inject(post(`/api/${pool}/auth/sign-in`, { phone }));
    const code = sent.statusCode === 200 ? await latestCode(f.app, phone) : '0000';
    return post(`/api/${pool}/auth/verify`, { phone, code });
  },
  [`POST /api/${pool}/auth/refresh`]: async (_f, c) =>
    post(`/api/${pool}/auth/refresh`, undefined, {
      cookies: c.pool === pool ? { flashbooth_refresh: c.refreshCookies[0]! } : {},
    }),
  [`POST /api/${pool}/auth/sign-out`]: async (_f, c) =>
    post(`/api/${pool}/auth/sign-out`, undefined, {
      cookies: c.pool === pool ? { flashbooth_refresh: c.refreshCookies[1]! } : {},
    }),
  [`POST /api/${pool}/auth/link`]: async (f, c) => {
    // The link of the latest sign-in SMS (it works when the code budget is spent, too).
    const phone = await accountPhone(f, c, pool);
    await f.app.inject(post(`/api/${pool}/auth/sign-in`, { phone }));
    const outbox = await f.app.inject(get(`/api/dev/sms?phone=${encodeURIComponent(phone)}`));
    const token = /(?:^|[^A-Za-z0-9_-])([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/.exec(
      JSON.stringify(outbox.json<{ items: unknown[] }>().items[0] ?? ''),
    )?.[1];
    return post(`/api/${pool}/auth/link`, { token: token ?? 'x'.repeat(43) });
  },
  [`GET /api/${pool}/passkeys`]: async () => get(`/api/${pool}/passkeys`),
  [`POST /api/${pool}/passkeys/registration/options`]: async () =>
    post(`/api/${pool}/passkeys/registration/options`, {}),
  // A well-formed credential the authenticator never made: refused after the caller is known.
  [`POST /api/${pool}/passkeys/registration/verify`]: async () =>
    post(`/api/${pool}/passkeys/registration/verify`, {
      name: 'Laptop',
      credential: {
        id: 'AAAAAAAAAAAAAAAAAAAAAA',
        rawId: 'AAAAAAAAAAAAAAAAAAAAAA',
        type: 'public-key',
        response: { clientDataJSON: 'e30', attestationObject: 'oA' },
        clientExtensionResults: {},
      },
    }),
  [`PATCH /api/${pool}/passkeys/:id`]: async (f, c) =>
    patch(`/api/${pool}/passkeys/${await f.passkey(ownerIn(f, c, pool))}`, { name: 'Phone' }),
  [`DELETE /api/${pool}/passkeys/:id`]: async (f, c) =>
    del(`/api/${pool}/passkeys/${await f.passkey(ownerIn(f, c, pool))}`),
  [`POST /api/${pool}/passkeys/sign-in/options`]: async () =>
    post(`/api/${pool}/passkeys/sign-in/options`, {}),
  [`POST /api/${pool}/passkeys/sign-in/verify`]: async () =>
    post(`/api/${pool}/passkeys/sign-in/verify`, {
      credential: {
        id: 'AAAAAAAAAAAAAAAAAAAAAA',
        rawId: 'AAAAAAAAAAAAAAAAAAAAAA',
        type: 'public-key',
        response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
        clientExtensionResults: {},
      },
    }),
  [`GET /api/${pool}/users/:id`]: async () => get(`/api/${pool}/users/self`),
  [`PATCH /api/${pool}/users/:id`]: async () =>
    patch(`/api/${pool}/users/self`, { name: 'Renamed Person' }),
});

const REQUESTS: Record<string, Build> = {
  ...authRequests('regular'),
  ...authRequests('enterprise'),
  'DELETE /api/regular/passkeys/:id (another person\u2019s)': async (f, c) =>
    del(`${R}/passkeys/${await f.passkey(otherVisitor(f, c))}`),
  'GET /api/regular/users/:id (another person\u2019s id)': async (f, c) =>
    get(`${R}/users/${otherVisitor(f, c).userId}`),

  // Visitors: a booth linked to an organization, their own photos and payments.
  'GET /api/regular/devices/:id': async (f) => get(`${R}/devices/${(await f.device()).id}`),
  'POST /api/regular/devices/:id/ping': async (f) =>
    post(`${R}/devices/${(await f.device()).id}/ping`),
  'GET /api/regular/devices/:id/templates': async (f) =>
    get(`${R}/devices/${(await f.device()).id}/templates`),
  'GET /api/regular/devices/:id/entitlement': async (f) =>
    get(`${R}/devices/${(await f.device()).id}/entitlement?template_id=${await f.template()}`),
  'GET /api/regular/devices/:id/visit': async (f) =>
    get(`${R}/devices/${(await f.device()).id}/visit`),
  'POST /api/regular/devices/:id/visit': async (f) =>
    post(`${R}/devices/${(await f.device()).id}/visit`, { template_id: await f.template() }),
  'POST /api/regular/devices/:id/capture': async (f) =>
    post(`${R}/devices/${(await f.device()).id}/capture`, { template_id: await f.template() }),
  'GET /api/regular/media/uploaded': async (f, c) =>
    get(`${R}/media/uploaded?media_ids=${await f.media(f.owner(c))}`),
  'PATCH /api/regular/media/repost_allowed': async (f, c) =>
    patch(`${R}/media/repost_allowed`, {
      media_ids: [await f.media(f.owner(c))],
      is_repost_allowed: false,
    }),
  'GET /api/regular/media': async () => get(`${R}/media`),
  'PATCH /api/regular/media/:id': async (f, c) =>
    patch(`${R}/media/${await f.media(f.owner(c))}`, { is_public: true }),
  'PATCH /api/regular/media/:id (another visitor\u2019s)': async (f, c) =>
    patch(`${R}/media/${await f.media(otherVisitor(f, c))}`, { is_public: true }),
  // The wall: an item of the row's organization on the wall, and comments on it.
  'GET /api/regular/media/public': async () => get(`${R}/media/public?search=a`),
  'POST /api/regular/media/:id/likes': async (f, c) =>
    post(`${R}/media/${await wallItem(f, otherVisitor(f, c))}/likes`),
  'DELETE /api/regular/media/:id/likes': async (f, c) =>
    del(`${R}/media/${await wallItem(f, otherVisitor(f, c))}/likes`),
  'GET /api/regular/media/:id/comments': async (f, c) =>
    get(`${R}/media/${await wallItem(f, otherVisitor(f, c))}/comments`),
  'POST /api/regular/media/:id/comments': async (f, c) =>
    post(`${R}/media/${await wallItem(f, otherVisitor(f, c))}/comments`, {
      comment_text: 'Lovely!',
    }),
  'PATCH /api/regular/media/comments/:id': async (f, c) =>
    patch(`${R}/media/comments/${await wallComment(f, f.owner(c))}`, { comment_text: 'Edited' }),
  'PATCH /api/regular/media/comments/:id (another visitor\u2019s)': async (f, c) =>
    patch(`${R}/media/comments/${await wallComment(f, otherVisitor(f, c))}`, {
      comment_text: 'Edited',
    }),
  'DELETE /api/regular/media/comments/:id': async (f, c) =>
    del(`${R}/media/comments/${await wallComment(f, f.owner(c))}`),
  'DELETE /api/regular/media/comments/:id (another visitor\u2019s)': async (f, c) =>
    del(`${R}/media/comments/${await wallComment(f, otherVisitor(f, c))}`),
  'POST /api/regular/payments/create': async (f) =>
    post(`${R}/payments/create`, {
      device_id: (await f.pricedDevice()).id,
      template_id: await f.template(),
    }),
  'POST /api/regular/payments/checkout': async (f, c) => {
    const txnId = await f.transaction(f.owner(c));
    return post(`${R}/payments/checkout`, {
      txn_id: txnId,
      redirect_url: `http://localhost:80/payment-status?txn_id=${txnId}`,
    });
  },
  'POST /api/regular/payments/checkout (another visitor\u2019s)': async (f, c) => {
    const txnId = await f.transaction(otherVisitor(f, c));
    return post(`${R}/payments/checkout`, {
      txn_id: txnId,
      redirect_url: `http://localhost:80/payment-status?txn_id=${txnId}`,
    });
  },
  'GET /api/regular/payments/:id/status': async (f, c) =>
    get(`${R}/payments/${await f.transaction(f.owner(c))}/status`),
  'GET /api/regular/payments/:id/status (another visitor\u2019s)': async (f, c) =>
    get(`${R}/payments/${await f.transaction(otherVisitor(f, c))}/status`),
  'GET /api/regular/transactions': async () => get(`${R}/transactions`),

  // Staff: devices.
  'GET /api/regular/users/self/data-export': async () => get(`${R}/users/self/data-export`),
  'POST /api/regular/users/self/data-export': async () => post(`${R}/users/self/data-export`),
  'POST /api/regular/users/self/erasure-code': async () => post(`${R}/users/self/erasure-code`),
  // A wrong code: the session is let through and the code refused; the account stays.
  'POST /api/regular/users/self/erase (a wrong code)': async () =>
    post(`${R}/users/self/erase`, { code: '0000' }),
  'GET /api/regular/walls/:orgId': async (f) => get(`${R}/walls/${await f.orgId()}`),
  'GET /api/regular/walls/:orgId/events': async (f) => get(`${R}/walls/${await f.orgId()}/events`),
  'GET /api/enterprise/devices/status-stream': async () => get(`${E}/devices/status-stream`),
  'POST /api/enterprise/devices': async () => post(`${E}/devices`),
  'GET /api/enterprise/devices': async () => get(`${E}/devices`),
  'GET /api/enterprise/devices/:id': async (f) => get(`${E}/devices/${(await f.device()).id}`),
  'PATCH /api/enterprise/devices/:id': async (f) =>
    patch(`${E}/devices/${(await f.device()).id}`, { name: 'Renamed booth' }),
  'PATCH /api/enterprise/devices/:id (price)': async (f) =>
    patch(`${E}/devices/${(await f.device()).id}`, { price_rupees: 60 }),
  'DELETE /api/enterprise/devices/:id': async (f) => del(`${E}/devices/${(await f.device()).id}`),
  'PATCH /api/enterprise/devices/:id/link': async (f) =>
    patch(`${E}/devices/${(await f.device()).id}/link`, { org_id: f.world.otherOrgId }),
  'PATCH /api/enterprise/devices/:id/unlink': async (f) =>
    patch(`${E}/devices/${(await f.device()).id}/unlink`),
  'POST /api/enterprise/devices/:id/ping': async (f) =>
    post(`${E}/devices/${(await f.device()).id}/ping`),
  'GET /api/enterprise/devices/:id/health': async (f) =>
    get(`${E}/devices/${(await f.device()).id}/health`),
  'GET /api/enterprise/devices/:id/errors': async (f) =>
    get(`${E}/devices/${(await f.device()).id}/errors`),
  'POST /api/enterprise/devices/:id/update': async (f) =>
    post(`${E}/devices/${await f.updatableDevice()}/update`),
  'POST /api/enterprise/devices/:id/enrollment-code': async (f) =>
    post(`${E}/devices/${(await f.device()).id}/enrollment-code`),

  // Staff: templates.
  'POST /api/enterprise/templates': async () =>
    post(`${E}/templates`, { name: 'New strip', orientation: 'landscape' }),
  'GET /api/enterprise/templates': async () => get(`${E}/templates`),
  'GET /api/enterprise/templates/:id': async (f) => get(`${E}/templates/${await f.template()}`),
  'PATCH /api/enterprise/templates/:id': async (f) =>
    patch(`${E}/templates/${await f.template()}`, { name: 'Renamed strip' }),
  'DELETE /api/enterprise/templates/:id': async (f) => del(`${E}/templates/${await f.template()}`),
  'POST /api/enterprise/templates/:id/images': async (f) =>
    post(`${E}/templates/${await f.template()}/images`, {
      x: 5,
      y: 5,
      w: 50,
      h: 50,
      filter: 'grayscale',
    }),
  'GET /api/enterprise/templates/:id/images': async (f) =>
    get(`${E}/templates/${await f.template()}/images`),
  'PATCH /api/enterprise/templates/:id/images/:imageId': async (f) =>
    patch(`${E}/templates/${await f.template()}/images/${await f.templateImage()}`, { x: 20 }),
  'DELETE /api/enterprise/templates/:id/images/:imageId': async (f) =>
    del(`${E}/templates/${await f.template()}/images/${await f.templateImage()}`),
  'POST /api/enterprise/templates/:id/orgs': async (f) =>
    post(`${E}/templates/${await f.template()}/orgs`, { org_id: f.world.otherOrgId }),
  'GET /api/enterprise/templates/:id/orgs': async (f) =>
    get(`${E}/templates/${await f.template()}/orgs`),
  'POST /api/enterprise/templates/:id/preview': async (f) =>
    post(`${E}/templates/${await f.template()}/preview`, {
      orientation: 'landscape',
      images: [{ x: 0, y: 0, w: 1200, h: 800, filter: 'none' }],
    }),
  'DELETE /api/enterprise/templates/:id/orgs/:orgId': async (f) =>
    del(`${E}/templates/${await f.template()}/orgs/${await f.orgId()}`),
  'GET /api/enterprise/orgs/:orgId/templates': async (f) =>
    get(`${E}/orgs/${await f.orgId()}/templates`),
  'POST /api/enterprise/templates/:id/sample/presigned_upload': async (f) =>
    post(`${E}/templates/${await f.template()}/sample/presigned_upload`, {
      filename: 'sample.png',
      contentType: 'image/png',
    }),
  'POST /api/enterprise/templates/:id/sample/confirm': async (f) =>
    post(`${E}/templates/${await f.template()}/sample/confirm`, {
      sample_key: await f.templateUpload('sample'),
    }),
  'POST /api/enterprise/templates/:id/foreground/presigned_upload': async (f) =>
    post(`${E}/templates/${await f.template()}/foreground/presigned_upload`, {
      filename: 'foreground.png',
      contentType: 'image/png',
    }),
  'POST /api/enterprise/templates/:id/foreground/confirm': async (f) =>
    post(`${E}/templates/${await f.template()}/foreground/confirm`, {
      foreground_key: await f.templateUpload('foreground'),
    }),

  // Staff: organizations.
  'POST /api/enterprise/organizations': async () =>
    post(`${E}/organizations`, { name: 'New venue' }),
  'GET /api/enterprise/organizations': async () => get(`${E}/organizations`),
  'GET /api/enterprise/organizations/:id': async (f) =>
    get(`${E}/organizations/${await f.orgId()}`),
  'PATCH /api/enterprise/organizations/:id': async (f) =>
    patch(`${E}/organizations/${await f.orgId()}`, { address: '1 New Road' }),
  'DELETE /api/enterprise/organizations/:id': async (f) =>
    del(`${E}/organizations/${await f.orgId()}`),
  'POST /api/enterprise/organizations/:id/logo/presigned_upload': async (f) =>
    post(`${E}/organizations/${await f.orgId()}/logo/presigned_upload`, {
      filename: 'logo.png',
      contentType: 'image/png',
    }),
  'POST /api/enterprise/organizations/:id/logo/confirm': async (f) =>
    post(`${E}/organizations/${await f.orgId()}/logo/confirm`, {
      logo_key: await f.logoUpload(),
    }),
  'GET /api/enterprise/organizations/:id/users': async (f) =>
    get(`${E}/organizations/${await f.orgId()}/users`),
  'GET /api/enterprise/organizations/:id/users/:userId': async (f) =>
    get(`${E}/organizations/${await f.orgId()}/users/${await f.subject()}`),
  'PATCH /api/enterprise/organizations/:id/users/:userId': async (f) =>
    patch(`${E}/organizations/${await f.orgId()}/users/${await f.subject()}`, { role: 'admin' }),
  'DELETE /api/enterprise/organizations/:id/users/:userId': async (f) =>
    del(`${E}/organizations/${await f.orgId()}/users/${await f.subject()}`),
  'GET /api/enterprise/users/:id/invites': async () => get(`${E}/users/self/invites`),
  'GET /api/enterprise/users/:id/invites (another staff member\u2019s)': async (f, c) =>
    get(
      `${E}/users/${f.world.callers[c.kind === 'no org staff' ? 'other org staff' : 'no org staff'].userId}/invites`,
    ),
  'POST /api/enterprise/organizations/:id/invites': async (f) =>
    post(`${E}/organizations/${await f.orgId()}/invites`, {
      role: 'member',
      invitee_phone: newPhone(),
    }),
  // The caller's own invitation (every staff member may answer their own).
  'POST /api/enterprise/organizations/:id/invites/accept': async (f, c) => {
    if (c.pool === 'enterprise') await f.invitation(c.phone);
    return post(`${E}/organizations/${await f.orgId()}/invites/accept`, {});
  },
  'POST /api/enterprise/organizations/:id/invites/deny': async (f, c) => {
    if (c.pool === 'enterprise') await f.invitation(c.phone);
    return post(`${E}/organizations/${await f.orgId()}/invites/deny`, {});
  },
  'DELETE /api/enterprise/organizations/:id/invites/:inviteId': async (f) =>
    del(`${E}/organizations/${await f.orgId()}/invites/${await f.invitation()}`),
  'GET /api/enterprise/organizations/:id/guests': async (f) =>
    get(`${E}/organizations/${await f.orgId()}/guests`),
  'GET /api/enterprise/organizations/:id/guests/export.csv': async (f) =>
    get(`${E}/organizations/${await f.orgId()}/guests/export.csv`),
  'GET /api/enterprise/organizations/:id/moderation-log': async (f) =>
    get(`${E}/organizations/${await f.orgId()}/moderation-log`),
  'GET /api/enterprise/privacy/people/:id/data-export': async (f) =>
    get(`${E}/privacy/people/${await newVisitor(f)}/data-export`),
  'POST /api/enterprise/privacy/people/:id/data-export': async (f) =>
    post(`${E}/privacy/people/${await newVisitor(f)}/data-export`),
  'POST /api/enterprise/privacy/people/:id/erase': async (f) =>
    post(`${E}/privacy/people/${await newVisitor(f)}/erase`),
  'GET /api/enterprise/privacy/actions': async () => get(`${E}/privacy/actions`),
  'GET /api/enterprise/organizations/:id/stats': async (f) =>
    get(`${E}/organizations/${await f.orgId()}/stats`),

  // Staff: wall moderation (an item of the row's organization, with a visitor's comment).
  'POST /api/enterprise/media/:id/hide': async (f) =>
    post(`${E}/media/${await wallItem(f, f.world.callers.visitor)}/hide`),
  'DELETE /api/enterprise/media/:id/hide': async (f) =>
    del(`${E}/media/${await wallItem(f, f.world.callers.visitor)}/hide`),
  'GET /api/enterprise/media/:id/comments': async (f) =>
    get(`${E}/media/${await wallItem(f, f.world.callers.visitor)}/comments`),
  'DELETE /api/enterprise/media/comments/:id': async (f) =>
    del(`${E}/media/comments/${await wallComment(f, f.world.callers.visitor)}`),
  // Staff: media views.
  'GET /api/enterprise/organizations/:id/media/repost_allowed': async (f) =>
    get(`${E}/organizations/${await f.orgId()}/media/repost_allowed?search=a`),
  'GET /api/enterprise/media/all': async (f) => get(`${E}/media/all?org_id=${await f.orgId()}`),

  // Staff: software.
  'POST /api/enterprise/software/channels': async () =>
    post(`${E}/software/channels`, { name: `Channel ${newPhone()}`, description: 'New' }),
  'GET /api/enterprise/software/channels': async () => get(`${E}/software/channels`),
  'GET /api/enterprise/software/channels/:id': async (f) =>
    get(`${E}/software/channels/${await f.channel()}`),
  'PATCH /api/enterprise/software/channels/:id': async (f) =>
    patch(`${E}/software/channels/${await f.channel()}`, {
      name: `Renamed ${newPhone()}`,
      description: 'Renamed',
    }),
  'DELETE /api/enterprise/software/channels/:id': async (f) =>
    del(`${E}/software/channels/${await f.channel()}`),
  'POST /api/enterprise/software/releases': async () =>
    post(`${E}/software/releases`, {
      version: `8.${newPhone().slice(-7)}.0`,
      release_notes: 'New',
    }),
  'GET /api/enterprise/software/releases': async () => get(`${E}/software/releases`),
  'GET /api/enterprise/software/releases/:id': async (f) =>
    get(`${E}/software/releases/${await f.release()}`),
  'PATCH /api/enterprise/software/releases/:id': async (f) =>
    patch(`${E}/software/releases/${await f.release()}`, { release_notes: 'Changed' }),
  'DELETE /api/enterprise/software/releases/:id': async (f) =>
    del(`${E}/software/releases/${await f.release()}`),
  'POST /api/enterprise/software/releases/:id/file/presigned_upload': async (f) =>
    post(`${E}/software/releases/${await f.release()}/file/presigned_upload`, {
      filename: 'agent.tar.gz',
      contentType: 'application/gzip',
    }),
  'POST /api/enterprise/software/releases/:id/file/confirm': async (f) => {
    const id = await f.release();
    const presigned = await f.admin<{ upload_url: string; s3_key: string }>(
      'POST',
      `software/releases/${id}/file/presigned_upload`,
      { filename: 'agent.tar.gz', contentType: 'application/gzip' },
    );
    await f.put(presigned.upload_url, Buffer.from('agent'), 'application/gzip');
    return post(`${E}/software/releases/${id}/file/confirm`, { s3_key: presigned.s3_key });
  },

  // Staff: staged rollouts.
  'POST /api/enterprise/software/channels/:id/rollouts': async (f) => {
    await f.updatableDevice();
    return post(`${E}/software/channels/${await f.channel()}/rollouts`, {});
  },
  'GET /api/enterprise/software/channels/:id/rollouts/latest': async (f) => {
    await f.rollout();
    return get(`${E}/software/channels/${await f.channel()}/rollouts/latest`);
  },
  'GET /api/enterprise/software/rollouts/:id': async (f) =>
    get(`${E}/software/rollouts/${await f.rollout()}`),
  'POST /api/enterprise/software/rollouts/:id/pause': async (f) =>
    post(`${E}/software/rollouts/${await f.rollout()}/pause`),
  'POST /api/enterprise/software/rollouts/:id/resume': async (f) => {
    const id = await f.rollout();
    // Paused first (a shared one may be paused already: refused cells reuse it).
    await f.app.inject({
      method: 'POST',
      url: `${E}/software/rollouts/${id}/pause`,
      headers: authHeaders(f.world.callers['super user']),
    });
    return post(`${E}/software/rollouts/${id}/resume`);
  },
  'POST /api/enterprise/software/rollouts/:id/cancel': async (f) =>
    post(`${E}/software/rollouts/${await f.rollout()}/cancel`),

  // Staff: payments and credit.
  'POST /api/enterprise/transactions/:id/refund': async (f) =>
    post(`${E}/transactions/${await f.paidTransaction(f.world.callers.visitor)}/refund`, {
      to: 'source',
    }),
  'POST /api/enterprise/users/:id/credits': async (f) =>
    post(`${E}/users/${(await f.guest()).userId}/credits`, { amount_rupees: 10 }),
  'GET /api/enterprise/users/:id/credits/ledger': async (f) =>
    get(`${E}/users/${(await f.guest()).userId}/credits/ledger`),

  // Other credentials: a booth's (device secret), the broker's (hook secret), a signed URL.
  // A person's token is none of them.
  'POST /api/device/media/:id/uploaded': async (f, c) =>
    post(`/api/device/media/${await f.media(f.owner(c))}/uploaded`),
  'POST /api/device/media/:id/upload-url': async (f, c) =>
    post(`/api/device/media/${await f.media(f.owner(c))}/upload-url`),
  // A booth computer's enrollment carries only its one-time code (a fresh one per cell).
  'POST /api/device/enroll': async (f) => {
    const { id } = await f.device();
    const { code } = await f.admin<{ code: string }>('POST', `devices/${id}/enrollment-code`);
    return post('/api/device/enroll', { code });
  },
  // A booth's own check of its credentials (doctor): a person's token is not a booth's secret.
  'GET /api/device/whoami': async () => get('/api/device/whoami'),
  // The booth computer's install script: no sign-in (the code in the command enrolls).
  'GET /booth/install.sh': async () => get('/booth/install.sh'),
  'GET /api/health': async () => get('/api/health'),
  'GET /api/health/details': async () => get('/api/health/details'),
  // A monitor's call: the metrics token instead of a person's sign-in.
  'GET /api/health/details (the metrics token)': async () =>
    get('/api/health/details', { withoutToken: true, headers: metricsBearer }),
  // The share page's player script (no session, the same for everyone).
  'GET /p/share.js': async () => get('/p/share.js'),
  'GET /p/:publicId': async (f) => get(`/p/${await sharedItem(f, 'image')}`),
  'GET /p/:publicId/image.jpg': async (f) =>
    get(`/p/${await sharedItem(f, 'image')}/image.jpg?w=600`),
  'GET /p/:publicId/video.mp4': async (f) => get(`/p/${await sharedItem(f, 'video')}/video.mp4`),
  'GET /p/:publicId/preview.webp': async (f) =>
    get(`/p/${await sharedItem(f, 'video')}/preview.webp`),
  'GET /p/:publicId/animation.gif': async (f) =>
    get(`/p/${await sharedItem(f, 'video')}/animation.gif`),
  'GET /api/health/live': async () => get('/api/health/live'),
  'GET /api/health/ready': async () => get('/api/health/ready'),
  'GET /api/sandbox/checkout/:orderId': async (f) =>
    get((await f.checkout(f.world.callers.visitor)).paymentUrl),
  'POST /api/sandbox/checkout/:orderId': async (f) =>
    post((await f.checkout(f.world.callers.visitor)).paymentUrl, undefined, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'action=pay',
    }),
  'GET /api/dev/sms': async (f) =>
    get(`/api/dev/sms?phone=${encodeURIComponent(f.world.callers.visitor.phone!)}`),
  'POST /api/mqtt/auth': async (f) =>
    post('/api/mqtt/auth', {
      username: (await f.device()).thingName,
      password: (await f.device()).secret,
    }),
  'POST /api/mqtt/acl': async (f) =>
    post('/api/mqtt/acl', {
      username: (await f.device()).thingName,
      topic: `flashbooth/devices/${(await f.device()).thingName}/status`,
      action: 'publish',
    }),
  // Without the hook secret in the URI (a person's token is no key to the broker hooks).
  'POST /api/mqtt/go-auth/user': async (f) =>
    post('/api/mqtt/go-auth/user', {
      username: (await f.device()).thingName,
      password: (await f.device()).secret,
    }),
  'POST /api/mqtt/go-auth/acl': async (f) =>
    post('/api/mqtt/go-auth/acl', {
      username: (await f.device()).thingName,
      topic: `flashbooth/devices/${(await f.device()).thingName}/status`,
      acc: 2,
    }),
  'PUT /api/storage/objects/*': async (f) => ({
    method: 'PUT',
    url: await f.uploadUrl(),
    headers: { 'content-type': 'image/png' },
    payload: PNG,
  }),
  'PUT /api/storage/objects/* (unsigned)': async (f) => ({
    method: 'PUT',
    url: new URL(await f.uploadUrl(), 'http://localhost').pathname,
    headers: { 'content-type': 'image/png' },
    payload: PNG,
  }),
  'GET /api/storage/objects/*': async (f) => get(await f.downloadUrl()),
};

interface Row {
  key: string;
  route: string;
  cells: Cell[];
}

function parseTable(table: string): Row[] {
  const [header, ...lines] = table.trim().split('\n');
  const columns = header!.trim().split(/\s+/).slice(1);
  if (columns.length !== CALLER_KINDS.length)
    throw new Error('TABLE header: one column per caller');
  return lines.map((line) => {
    const match = /^(\S+ \S+(?: \([^)]*\))?)\s+(.*)$/.exec(line.trim());
    if (!match) throw new Error(`TABLE: cannot read the row "${line}"`);
    const key = match[1]!.replace(/'/g, '\u2019');
    const cells = match[2]!
      .trim()
      .split(/\s+/)
      .map((cell) => (cell === 'ok' ? 'ok' : Number(cell)));
    if (cells.length !== CALLER_KINDS.length || cells.some((c) => c !== 'ok' && !(c >= 100))) {
      throw new Error(
        `TABLE: the row "${key}" needs ${CALLER_KINDS.length} cells, each ok or a status`,
      );
    }
    return { key, route: key.replace(/ \(.*\)$/, ''), cells };
  });
}

const ROWS = parseTable(TABLE);

const matches = (cell: Cell, status: number) =>
  cell === 'ok' ? status >= 200 && status < 300 : status === cell;

describe('authorization matrix: every route × every kind of caller', () => {
  let database: DatabaseHandle;
  let world: SecurityWorld;
  let shared: Fixtures;
  let routes: AppRoute[];

  beforeAll(async () => {
    database = await openPglite();
    world = await startSecurityWorld(
      database,
      { deviceLink: new AcceptingLink() },
      { METRICS_TOKEN },
    );
    shared = Fixtures.shared(world);
    routes = await appRoutes(world);
  });
  afterAll(async () => {
    await world?.app.close();
    await database?.close();
  });

  it('has a row for every route of the app, and no row for a route it does not have', () => {
    const inApp = new Set(routes.map(routeKey));
    const inTable = new Set(ROWS.map((row) => row.route));
    const missing = [...inApp].filter((key) => !inTable.has(key)).sort();
    const gone = [...inTable].filter((key) => !inApp.has(key)).sort();
    const problems = [
      ...(missing.length > 0
        ? [
            `Routes without a row in the authorization matrix:\n  ${missing.join('\n  ')}\n` +
              'Add a line per route to TABLE in apps/server/test/security/authorization-matrix.int.test.ts ' +
              '(the method and URL as above, then ok or the refusal status for each caller kind) ' +
              'and a request builder under the same key in REQUESTS.',
          ]
        : []),
      ...(gone.length > 0
        ? [`Rows for routes the app no longer has (remove them):\n  ${gone.join('\n  ')}`]
        : []),
    ];
    expect(problems.join('\n\n'), problems.join('\n\n')).toBe('');
  });

  it('has a request builder for every row and a row for every request builder', () => {
    const keys = new Set(ROWS.map((row) => row.key));
    expect(ROWS.filter((row) => !REQUESTS[row.key]).map((row) => row.key)).toEqual([]);
    expect(Object.keys(REQUESTS).filter((key) => !keys.has(key))).toEqual([]);
    expect(ROWS.length).toBe(keys.size);
  });

  it.each(ROWS.map((row) => ({ ...row, name: row.key })))(
    '$name',
    async (row) => {
      const build = REQUESTS[row.key];
      if (!build) throw new Error(`no request builder for ${row.key}`);
      const wrong: string[] = [];
      for (const [index, kind] of CALLER_KINDS.entries()) {
        const caller = world.callers[kind as CallerKind];
        const cell = row.cells[index]!;
        // A call that may change something acts on rows of its own; a refused one cannot.
        const fixtures =
          cell === 'ok' && !row.route.startsWith('GET ') ? Fixtures.fresh(world) : shared;
        const request = await build(fixtures, caller);
        const response = await send(world.app, {
          method: request.method,
          url: request.url,
          headers: { ...(request.withoutToken ? {} : authHeaders(caller)), ...request.headers },
          ...(request.cookies ? { cookies: request.cookies } : {}),
          ...(request.payload !== undefined ? { payload: request.payload } : {}),
        });
        if (!matches(cell, response.statusCode)) {
          wrong.push(
            `  ${kind}: expected ${cell}, got ${response.statusCode} ${response.body.slice(0, 200)}`,
          );
        }
      }
      expect(wrong, `${row.key}\n${wrong.join('\n')}`).toEqual([]);
    },
    30_000,
  );
});
