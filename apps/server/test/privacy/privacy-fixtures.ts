import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { DatabaseHandle } from '../../src/db/client.js';
import {
  creditLedger,
  media,
  mediaComments,
  mediaLikes,
  passkeys,
  paymentTransactions,
} from '../../src/db/schema.js';
import { AccountErasure } from '../../src/modules/privacy/account-erasure.js';
import { MediaEraser } from '../../src/modules/privacy/media-eraser.js';
import { ObjectCleanup } from '../../src/modules/storage/object-cleanup.js';
import { createStorage } from '../../src/modules/storage/create-storage.js';
import { newObjectKey, type ObjectStorage } from '../../src/modules/storage/storage.js';
import { startApp, type TestApp } from '../harness.js';

export const silentLog = pino({ level: 'silent' });

/**
 * An app on `database` and the same local store it uses (its folder, secret and clock), so a test
 * can put and look at objects directly; plus the privacy services built over that store.
 */
export async function privacyApp(database: DatabaseHandle, env: Record<string, string> = {}) {
  const started = await startApp(database, { OTP_SEND_LIMIT_PER_IP: '1000', ...env });
  const storage = await createStorage(started.config, started.clock.now);
  return { ...started, storage, ...privacyServices(started, storage) };
}

/** The erasers over `storage` (a test may hand them a failing store). */
export function privacyServices(
  started: Pick<TestApp, 'database' | 'clock'>,
  storage: ObjectStorage,
) {
  const db = started.database.db;
  const now = started.clock.now;
  const cleanup = new ObjectCleanup({ db, storage, now, log: silentLog });
  const mediaEraser = new MediaEraser({ db, cleanup, now, log: silentLog });
  const accountErasure = new AccountErasure({
    db,
    mediaEraser,
    cleanup,
    now,
    log: silentLog,
  });
  return { cleanup, mediaEraser, accountErasure };
}

/** A delivered media item of `userId` with its HD file and preview in the store. */
export async function storedItem(
  database: DatabaseHandle,
  storage: ObjectStorage,
  userId: number,
  options: {
    caption?: string;
    video?: boolean;
    /** A GIF item: a video with its `.gif` stored too. */
    gif?: boolean;
    isPublic?: boolean;
    orgId?: number;
  } = {},
) {
  const extension = options.video || options.gif ? 'mp4' : 'jpg';
  const s3Key = newObjectKey('media', extension);
  const lowresKey = newObjectKey('media/lowres', 'jpg');
  const hd = Buffer.from(`HD bytes of ${s3Key} ${randomUUID()}`);
  await storage.put(s3Key, hd, options.video ? 'video/mp4' : 'image/jpeg');
  await storage.put(lowresKey, Buffer.from(`preview of ${s3Key}`), 'image/jpeg');
  const gifKey = options.gif ? newObjectKey('media/gif', 'gif') : null;
  const gif = Buffer.from(`GIF89a of ${s3Key} ${randomUUID()}`);
  if (gifKey) await storage.put(gifKey, gif, 'image/gif');
  const [row] = await database.db
    .insert(media)
    .values({
      userId,
      captureId: randomUUID(),
      mediaType: options.video || options.gif ? 'video' : 'image',
      s3Key,
      lowresKey,
      gifKey,
      caption: options.caption ?? null,
      isPublic: options.isPublic ?? true,
      isUploaded: true,
      orgId: options.orgId ?? null,
    })
    .returning();
  return { ...row!, hd, gif: gifKey ? gif : null };
}

export async function like(database: DatabaseHandle, mediaId: number, userId: number) {
  await database.db.insert(mediaLikes).values({ mediaId, userId });
}

export async function comment(
  database: DatabaseHandle,
  mediaId: number,
  userId: number,
  text: string,
) {
  const [row] = await database.db
    .insert(mediaComments)
    .values({ mediaId, userId, commentText: text })
    .returning();
  return row!;
}

/** A payment of `userId` in `state` (completed by default), as the payments module writes one. */
export async function payment(
  database: DatabaseHandle,
  userId: number,
  state: 'COMPLETED' | 'PENDING' | 'REFUNDED' = 'COMPLETED',
  amountPaise = 14_900,
) {
  const at = new Date();
  const [row] = await database.db
    .insert(paymentTransactions)
    .values({
      userId,
      provider: 'sandbox',
      orderId: `FB${randomUUID().replace(/-/g, '').slice(0, 20)}`,
      amountPaise,
      state,
      expiresAt: new Date(at.getTime() + 900_000),
      nextCheckAt: at,
      completedAt: state === 'PENDING' ? null : at,
    })
    .returning();
  return row!;
}

export async function grant(database: DatabaseHandle, userId: number, paise: number) {
  await database.db.insert(creditLedger).values({ userId, deltaPaise: paise, reason: 'grant' });
}

export async function passkey(database: DatabaseHandle, userId: number) {
  await database.db.insert(passkeys).values({
    userId,
    pool: 'regular',
    credentialId: randomUUID(),
    publicKey: 'cHVibGljLWtleQ',
    name: 'Phone',
  });
}

/** The refresh call a signed-in browser makes with its cookie. */
export function refresh(app: FastifyInstance, pool: 'regular' | 'enterprise', cookie: string) {
  return app.inject({
    method: 'POST',
    url: `/api/${pool}/auth/refresh`,
    cookies: { flashbooth_refresh: cookie },
  });
}
