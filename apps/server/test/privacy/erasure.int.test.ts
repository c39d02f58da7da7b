import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, type DatabaseHandle } from '../../src/db/client.js';
import {
  creditLedger,
  media,
  mediaComments,
  mediaLikes,
  moderationLog,
  objectCleanup,
  passkeys,
  paymentTransactions,
  refreshTokens,
  users,
} from '../../src/db/schema.js';
import { PAYMENT_IN_PROGRESS } from '../../src/modules/privacy/account-erasure.js';
import { WallRepository } from '../../src/modules/wall/wall.repository.js';
import type { ObjectStorage } from '../../src/modules/storage/storage.js';
import { databaseTargets } from '../databases.js';
import { signedIn } from '../harness.js';
import {
  comment,
  grant,
  like,
  passkey,
  payment,
  privacyApp,
  privacyServices,
  refresh,
  storedItem,
} from './privacy-fixtures.js';

describe.each(databaseTargets)('media and account erasure on $name', ({ open }) => {
  let database: DatabaseHandle;
  let t: Awaited<ReturnType<typeof privacyApp>>;

  beforeAll(async () => {
    database = await open();
    t = await privacyApp(database);
  }, 60_000);
  afterAll(async () => {
    await t.app.close();
    await t.storage.close();
    await database.close();
  });

  const mediaOf = (userId: number) =>
    database.db.select().from(media).where(eq(media.userId, userId));
  const exists = async (key: string) => (await t.storage.head(key)) !== null;

  it('erases an account: no media, likes, comments, objects or sessions left; payments kept without the person', async () => {
    const phone = '+917000000101';
    const asha = await signedIn(t.app, 'regular', phone, 'Asha Erased');
    const secondSession = await signedIn(t.app, 'regular', phone);
    const ravi = await signedIn(t.app, 'regular', undefined, 'Ravi Stays');

    const ownPhoto = await storedItem(database, t.storage, asha.userId, { caption: 'Beach day' });
    const ownVideo = await storedItem(database, t.storage, asha.userId, { video: true });
    // The share page made its image of the photo (modules/share).
    const shareImage = `share/${ownPhoto.id}/w1200.jpg`;
    await t.storage.put(shareImage, Buffer.from('og image'), 'image/jpeg');
    const ravisPhoto = await storedItem(database, t.storage, ravi.userId);
    await like(database, ownPhoto.id, ravi.userId); // on her item
    await like(database, ravisPhoto.id, asha.userId); // given by her
    await comment(database, ownPhoto.id, ravi.userId, 'Lovely');
    await comment(database, ravisPhoto.id, asha.userId, 'Nice one');
    const keptComment = await comment(database, ravisPhoto.id, ravi.userId, 'Thanks');
    await passkey(database, asha.userId);
    await grant(database, asha.userId, 5000);
    const paid = await payment(database, asha.userId, 'COMPLETED');
    const refunded = await payment(database, asha.userId, 'REFUNDED');
    const [before] = await database.db.select().from(media).where(eq(media.id, ravisPhoto.id));
    expect(before!.likesCount).toBe(1);

    const counts = await t.accountErasure.erase(asha.userId, {
      reason: 'self',
      actorId: asha.userId,
    });

    expect(counts).toEqual({
      media: 2,
      likes: 2,
      comments: 2,
      // HD and preview of both items, and the share images of each (share/{id}/w600|w1200.jpg).
      objects: 8,
      sessions: 2,
      passkeys: 1,
      signInRecords: expect.any(Number),
      invitations: 0,
      exports: 0,
      creditEntries: 1,
      paymentsAnonymised: 2,
    });
    expect(counts!.signInRecords).toBeGreaterThan(0);

    // No media, no objects in the store, nothing queued still waiting.
    expect(await mediaOf(asha.userId)).toEqual([]);
    for (const key of [
      ownPhoto.s3Key,
      ownPhoto.lowresKey!,
      ownVideo.s3Key,
      ownVideo.lowresKey!,
      shareImage,
    ]) {
      expect(await exists(key), key).toBe(false);
    }
    expect(await database.db.select().from(objectCleanup)).toEqual([]);
    // Her likes and comments are gone, on anyone's item; Ravi's own item and comment stay.
    expect(
      await database.db.select().from(mediaLikes).where(eq(mediaLikes.userId, asha.userId)),
    ).toEqual([]);
    expect(
      await database.db.select().from(mediaComments).where(eq(mediaComments.userId, asha.userId)),
    ).toEqual([]);
    const [after] = await database.db.select().from(media).where(eq(media.id, ravisPhoto.id));
    expect(after!.likesCount).toBe(0);
    expect(await exists(ravisPhoto.s3Key)).toBe(true);
    expect(
      (
        await database.db
          .select()
          .from(mediaComments)
          .where(eq(mediaComments.mediaId, ravisPhoto.id))
      ).map((row) => row.id),
    ).toEqual([keptComment.id]);

    // Every session is signed out: no refresh token, and both cookies are refused.
    expect(
      await database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, asha.userId)),
    ).toEqual([]);
    expect((await refresh(t.app, 'regular', asha.refreshCookie)).statusCode).toBe(401);
    expect((await refresh(t.app, 'regular', secondSession.refreshCookie)).statusCode).toBe(401);
    // An access token still within its lifetime opens nothing of the account any more.
    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/regular/users/self',
      headers: { authorization: `Bearer ${asha.token}` },
    });
    expect(profile.statusCode).toBe(401);
    expect(
      await database.db.select().from(passkeys).where(eq(passkeys.userId, asha.userId)),
    ).toEqual([]);
    expect(
      await database.db.select().from(creditLedger).where(eq(creditLedger.userId, asha.userId)),
    ).toEqual([]);
    expect(await database.db.select().from(users).where(eq(users.id, asha.userId))).toEqual([]);

    // The payments stay, amounts and states as they were, with no link to a person.
    const kept = await database.db
      .select()
      .from(paymentTransactions)
      .where(inArray(paymentTransactions.id, [paid.id, refunded.id]));
    expect(kept.map((row) => [row.id, row.userId, row.amountPaise, row.state]).sort()).toEqual(
      [
        [paid.id, null, 14_900, 'COMPLETED'],
        [refunded.id, null, 14_900, 'REFUNDED'],
      ].sort(),
    );
    // Neither her name nor her phone is anywhere in the database.
    for (const needle of ['Asha Erased', phone]) {
      expect(await tablesContaining(database, needle), needle).toEqual([]);
    }

    // Erasing again finds nothing to do.
    expect(await t.accountErasure.erase(asha.userId, { reason: 'self' })).toBeNull();
  });

  it('clears the text of comments a moderator deleted once their author or their item is erased, keeping the log', async () => {
    const moderator = await signedIn(t.app, 'enterprise', undefined, 'Mo Moderator');
    const author = await signedIn(t.app, 'regular', undefined, 'Ada Author');
    const other = await signedIn(t.app, 'regular', undefined, 'Otto Other');
    const othersPhoto = await storedItem(database, t.storage, other.userId);
    const othersSecond = await storedItem(database, t.storage, other.userId);
    const authorsPhoto = await storedItem(database, t.storage, author.userId);
    const wall = new WallRepository(database.db);
    const moderate = async (mediaId: number, userId: number, text: string) => {
      const written = await comment(database, mediaId, userId, text);
      expect(await wall.moderateDeleteComment(written.id, moderator.userId, new Date())).toBe(true);
      return written.id;
    };
    const byAuthor = await moderate(othersPhoto.id, author.userId, 'Rude words by Ada');
    const onAuthorsItem = await moderate(authorsPhoto.id, other.userId, 'Rude words on Ada');
    const onErasedItem = await moderate(othersSecond.id, other.userId, 'Rude words, item erased');
    const kept = await moderate(othersPhoto.id, other.userId, 'Rude words that stay');
    const textOf = async (commentId: number) => {
      const rows = await database.db
        .select()
        .from(moderationLog)
        .where(eq(moderationLog.commentId, commentId));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ action: 'delete_comment', actorId: moderator.userId });
      return rows[0]!.commentText;
    };
    expect(await textOf(byAuthor)).toBe('Rude words by Ada');

    await t.mediaEraser.erase([othersSecond.id]);
    expect(await textOf(onErasedItem)).toBeNull();
    await t.accountErasure.erase(author.userId, { reason: 'self' });
    // Hers, wherever it was; others' on her item (erased with her); the rest stays.
    expect(await textOf(byAuthor)).toBeNull();
    expect(await textOf(onAuthorsItem)).toBeNull();
    expect(await textOf(kept)).toBe('Rude words that stay');
    expect(await tablesContaining(database, 'Rude words by Ada')).toEqual([]);
  });

  it('erases media items twice without harm, and keeps other items', async () => {
    const owner = await signedIn(t.app, 'regular');
    const one = await storedItem(database, t.storage, owner.userId);
    const two = await storedItem(database, t.storage, owner.userId);
    const kept = await storedItem(database, t.storage, owner.userId);
    await like(database, one.id, owner.userId);
    await comment(database, two.id, owner.userId, 'Mine');

    expect(await t.mediaEraser.erase([one.id, two.id])).toEqual({
      media: 2,
      likes: 1,
      comments: 1,
      objects: 8,
    });
    expect(await t.mediaEraser.erase([one.id, two.id])).toEqual({
      media: 0,
      likes: 0,
      comments: 0,
      objects: 0,
    });
    expect((await mediaOf(owner.userId)).map((row) => row.id)).toEqual([kept.id]);
    expect(await exists(one.s3Key)).toBe(false);
    expect(await exists(two.lowresKey!)).toBe(false);
    expect(await exists(kept.s3Key)).toBe(true);
  });

  it('never leaves a row pointing at a missing object: a store that fails keeps the key queued until the cleanup job deletes it', async () => {
    const owner = await signedIn(t.app, 'regular');
    const item = await storedItem(database, t.storage, owner.userId);
    const failing: ObjectStorage = Object.create(t.storage, {
      delete: { value: () => Promise.reject(new Error('store unreachable')) },
    }) as ObjectStorage;
    const broken = privacyServices(t, failing);

    const counts = await broken.mediaEraser.erase([item.id]);
    expect(counts).toEqual({ media: 1, likes: 0, comments: 0, objects: 0 });
    // The row is gone; both objects are still in the store and queued with the error.
    expect(await mediaOf(owner.userId)).toEqual([]);
    expect(await exists(item.s3Key)).toBe(true);
    const queued = await database.db.select().from(objectCleanup);
    expect(queued.map((row) => [row.objectKey, row.reason, row.lastError]).sort()).toEqual(
      [
        [item.s3Key, 'erased', 'store unreachable'],
        [item.lowresKey, 'erased', 'store unreachable'],
        [`share/${item.id}/w600.jpg`, 'erased', 'store unreachable'],
        [`share/${item.id}/w1200.jpg`, 'erased', 'store unreachable'],
      ].sort(),
    );

    // Retried after its pause (attempts² minutes), by the cleanup job on a working store.
    expect((await t.cleanup.runOnce()).counts).toEqual({ deleted: 0, failed: 0 });
    t.clock.advance(120);
    expect(await t.cleanup.runOnce({ dryRun: true })).toEqual({
      counts: { deleted: 4, failed: 0 },
      plan: expect.arrayContaining([`delete object ${item.s3Key} (erased)`]),
    });
    expect(await exists(item.s3Key)).toBe(true);
    expect((await t.cleanup.runOnce()).counts).toEqual({ deleted: 4, failed: 0 });
    expect(await exists(item.s3Key)).toBe(false);
    expect(await exists(item.lowresKey!)).toBe(false);
    expect(await database.db.select().from(objectCleanup)).toEqual([]);
  });

  it('refuses to erase an account while one of its payments is still pending', async () => {
    const person = await signedIn(t.app, 'regular');
    const item = await storedItem(database, t.storage, person.userId);
    const pending = await payment(database, person.userId, 'PENDING');

    await expect(t.accountErasure.erase(person.userId, { reason: 'self' })).rejects.toMatchObject({
      statusCode: 409,
      message: PAYMENT_IN_PROGRESS,
    });
    // Nothing was touched.
    expect((await mediaOf(person.userId)).map((row) => row.id)).toEqual([item.id]);
    expect(await exists(item.s3Key)).toBe(true);

    await database.db
      .update(paymentTransactions)
      .set({ state: 'FAILED' })
      .where(eq(paymentTransactions.id, pending.id));
    expect(await t.accountErasure.erase(person.userId, { reason: 'inactive' })).toMatchObject({
      media: 1,
      objects: 4,
      paymentsAnonymised: 1,
    });
  });
});

/** Every table.column (text columns of the public schema) holding `needle` anywhere. */
async function tablesContaining(database: DatabaseHandle, needle: string): Promise<string[]> {
  const columns = rowsOf<{ table_name: string; column_name: string }>(
    await database.db.execute(sql`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and data_type in ('text', 'character varying')`),
  );
  const found: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    const result = await database.db.execute(
      sql`select 1 from ${sql.identifier(table)} where position(${needle} in ${sql.identifier(column)}) > 0 limit 1`,
    );
    if (rowsOf(result).length > 0) found.push(`${table}.${column}`);
  }
  return found;
}
