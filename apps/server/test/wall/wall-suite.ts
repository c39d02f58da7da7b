import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../src/db/client.js';
import { devices, media, moderationLog } from '../../src/db/schema.js';
import { apiCall, createOrg, signedIn, signedInOrgStaff, startApp } from '../harness.js';

/** The wall's world: an organization with a booth, its admin and member, and visitors. */
export async function startWallWorld(database: DatabaseHandle) {
  const testApp = await startApp(database, {
    OTP_SEND_LIMIT_PER_IP: '100000',
    OTP_GLOBAL_HOURLY_LIMIT: '100000',
  });
  const { app } = testApp;
  const orgId = await createOrg(database, 'Sunrise Mall');
  const otherOrgId = await createOrg(database, 'Harbour Point');
  const [booth] = await database.db
    .insert(devices)
    .values({ name: 'Atrium booth', thingName: `wall-${randomUUID()}`, orgId, secretHash: 'x' })
    .returning({ id: devices.id });
  return {
    ...testApp,
    orgId,
    otherOrgId,
    boothId: booth!.id,
    orgAdmin: await signedInOrgStaff(app, database, orgId, 'admin'),
    orgMember: await signedInOrgStaff(app, database, orgId, 'member'),
    otherOrgAdmin: await signedInOrgStaff(app, database, otherOrgId, 'admin'),
  };
}
export type WallWorld = Awaited<ReturnType<typeof startWallWorld>>;

/** A signed-in visitor. */
export const visitor = (app: FastifyInstance, name = 'Visitor') =>
  signedIn(app, 'regular', undefined, name);

let minute = 0;
/** A photo of `userId` at the world's booth, uploaded; public unless told, newer than the last. */
export async function photo(
  world: WallWorld,
  userId: number,
  values: { isPublic?: boolean; caption?: string | null; isUploaded?: boolean } = {},
): Promise<number> {
  minute += 1;
  const captureId = randomUUID();
  const [row] = await world.database.db
    .insert(media)
    .values({
      userId,
      deviceId: world.boothId,
      orgId: world.orgId,
      captureId,
      s3Key: `media/${userId}/${captureId}.jpg`,
      caption: values.caption ?? null,
      isPublic: values.isPublic ?? true,
      isUploaded: values.isUploaded ?? true,
      createdAt: new Date(Date.UTC(2025, 8, 1, 0, minute)),
    })
    .returning({ id: media.id });
  return row!.id;
}

export const regular = (
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  token: string | undefined,
  payload?: object,
) => apiCall(app, method, url, token, payload, 'regular');

export const staff = (
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  token: string | undefined,
  payload?: object,
) => apiCall(app, method, url, token, payload, 'enterprise');

/** The wall's ids (first page of `search`, 200 items), for membership checks. */
export async function wallIds(app: FastifyInstance, token?: string, search?: string) {
  const query = new URLSearchParams({ limit: '200', ...(search ? { search } : {}) });
  const response = await regular(app, 'GET', `media/public?${query}`, token);
  if (response.statusCode !== 200) throw new Error(`media/public: ${response.body}`);
  const body = response.json<{ items: { id: number }[]; total_count: number }>();
  return { ids: body.items.map((item) => item.id), total: body.total_count };
}

export async function logOf(database: DatabaseHandle, mediaId: number) {
  return database.db
    .select()
    .from(moderationLog)
    .where(eq(moderationLog.mediaId, mediaId))
    .orderBy(moderationLog.id);
}
