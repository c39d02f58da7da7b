import { WALL_MESSAGES } from '@flashbooth/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { media, mediaLikes, users, wallStats } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { signedInProductAdmin } from '../harness.js';
import {
  logOf,
  photo,
  regular,
  staff,
  startWallWorld,
  visitor,
  type WallWorld,
  wallIds,
} from './wall-suite.js';

describe.each(databaseTargets)('the wall on $name', ({ open }) => {
  let database: DatabaseHandle;
  let world: WallWorld;
  let owner: Awaited<ReturnType<typeof visitor>>;
  let other: Awaited<ReturnType<typeof visitor>>;

  beforeAll(async () => {
    database = await open();
    world = await startWallWorld(database);
    owner = await visitor(world.app, 'Asha Owner');
    other = await visitor(world.app, 'Ben Other');
  });
  afterAll(async () => {
    await world.app.close();
    await database.close();
  });

  describe('visibility', () => {
    it('lists only public, uploaded, not hidden items, newest first, without a session', async () => {
      const shown = await photo(world, owner.userId, { caption: 'Sunset' });
      const privateOne = await photo(world, owner.userId, { isPublic: false });
      const notUploaded = await photo(world, owner.userId, { isUploaded: false });
      const newest = await photo(world, owner.userId);
      const { ids } = await wallIds(world.app);
      expect(ids).toContain(shown);
      expect(ids).not.toContain(privateOne);
      expect(ids).not.toContain(notUploaded);
      expect(ids.indexOf(newest)).toBeLessThan(ids.indexOf(shown));

      const response = await regular(world.app, 'GET', 'media/public', undefined);
      expect(response.statusCode).toBe(200);
      const body = response.json<{ items: Record<string, unknown>[]; total_count: number }>();
      expect(body.items.length).toBeLessThanOrEqual(10);
      const item = body.items.find((entry) => entry.id === newest)!;
      expect(item).toMatchObject({
        user_name: 'Asha Owner',
        org_name: 'Sunrise Mall',
        device_name: 'Atrium booth',
        is_public: true,
        likes_count: 0,
        is_liked_by_caller: false,
        hidden_from_wall: false,
      });
      expect(item.s3_url).toEqual(expect.any(String));
    });

    it('pages with limit 10 by default and an exact total_count', async () => {
      for (let i = 0; i < 11; i += 1) await photo(world, other.userId);
      const first = (await regular(world.app, 'GET', 'media/public', undefined)).json<{
        items: { id: number }[];
        total_count: number;
      }>();
      expect(first.items).toHaveLength(10);
      const second = (
        await regular(world.app, 'GET', 'media/public?offset=10&limit=10', undefined)
      ).json<{ items: { id: number }[]; total_count: number }>();
      expect(second.total_count).toBe(first.total_count);
      expect(second.items.map((item) => item.id)).not.toContain(first.items[0]!.id);
      const onWall = await database.db.$count(
        media,
        and(eq(media.isPublic, true), eq(media.isUploaded, true), isNull(media.hiddenFromWallAt)),
      );
      expect(first.total_count).toBe(onWall);
    });

    it('drops an item the moment its owner makes it private', async () => {
      const id = await photo(world, owner.userId);
      expect((await wallIds(world.app)).ids).toContain(id);
      const made = await regular(world.app, 'PATCH', `media/${id}`, owner.token, {
        is_public: false,
      });
      expect(made.statusCode).toBe(200);
      expect((await wallIds(world.app)).ids).not.toContain(id);
      const like = await regular(world.app, 'POST', `media/${id}/likes`, other.token);
      expect(like.statusCode).toBe(404);
      const comments = await regular(world.app, 'GET', `media/${id}/comments`, undefined);
      expect(comments.statusCode).toBe(404);
    });

    it('keeps total_count exact under concurrent public, private, hide and delete changes', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 12; i += 1) {
        ids.push(await photo(world, owner.userId, { isPublic: i % 3 !== 0 }));
      }
      const onWall = and(
        eq(media.isPublic, true),
        eq(media.isUploaded, true),
        isNull(media.hiddenFromWallAt),
      );
      const changes: Promise<unknown>[] = [];
      ids.forEach((id, i) => {
        // Every item changes several times at once: owner toggles, a moderator's hide and show.
        for (const isPublic of [true, false, i % 2 === 0]) {
          changes.push(
            regular(world.app, 'PATCH', `media/${id}`, owner.token, { is_public: isPublic }),
          );
        }
        if (i % 4 === 1) {
          changes.push(staff(world.app, 'POST', `media/${id}/hide`, world.orgAdmin.token));
        }
        if (i % 4 === 2) {
          changes.push(staff(world.app, 'POST', `media/${id}/hide`, world.orgAdmin.token));
          changes.push(staff(world.app, 'DELETE', `media/${id}/hide`, world.orgAdmin.token));
        }
      });
      changes.push(database.db.delete(media).where(eq(media.id, ids[11]!)));
      changes.push(
        database.db.update(media).set({ isUploaded: false }).where(eq(media.id, ids[10]!)),
      );
      changes.push(photo(world, other.userId));
      await Promise.all(changes);

      const expected = await database.db.$count(media, onWall);
      const listed = await regular(world.app, 'GET', 'media/public', undefined);
      expect(listed.json<{ total_count: number }>().total_count).toBe(expected);
      const [kept] = await database.db.select().from(wallStats);
      expect(kept).toEqual({ id: 1, mediaCount: expected });
    });

    it('searches caption, user, organization and booth names', async () => {
      const named = await visitor(world.app, 'Zephyrine Quill');
      const byCaption = await photo(world, owner.userId, { caption: 'Marigold evening' });
      const byUser = await photo(world, named.userId);
      const withPercent = await photo(world, owner.userId, { caption: '100% fun' });
      expect((await wallIds(world.app, undefined, 'marigold')).ids).toEqual([byCaption]);
      const userSearch = await wallIds(world.app, undefined, 'zephyrine');
      expect(userSearch).toEqual({ ids: [byUser], total: 1 });
      expect((await wallIds(world.app, undefined, 'sunrise')).ids).toContain(byCaption);
      expect((await wallIds(world.app, undefined, 'atrium')).ids).toContain(byUser);
      expect((await wallIds(world.app, undefined, '100%')).ids).toEqual([withPercent]);
      expect((await wallIds(world.app, undefined, 'no such text anywhere')).total).toBe(0);
    });

    it('finds words: all of them in one field, in any order, the last also as a prefix', async () => {
      const diwali = await photo(world, owner.userId, {
        caption: 'Sparkling Diwali night, Quorvex!',
      });
      const hindi = await photo(world, owner.userId, { caption: 'जन्मदिन मुबारक' });
      const ids = async (search: string) => (await wallIds(world.app, undefined, search)).ids;
      expect(await ids('quorvex diwali')).toEqual([diwali]);
      expect(await ids('QUORVEX')).toEqual([diwali]);
      expect(await ids('sparkling quorv')).toEqual([diwali]);
      // Words before the last are whole words; a word inside another is not a match.
      expect(await ids('quorv sparkling')).toEqual([]);
      expect(await ids('orvex')).toEqual([]);
      expect(await ids('diwali xyzzyq')).toEqual([]);
      expect(await ids('जन्म')).toEqual([hindi]);
      expect(await ids('मुबारक जन्मदिन')).toEqual([hindi]);
      // Punctuation alone has no words: nothing matches, and nothing breaks.
      expect(await wallIds(world.app, undefined, "'&|!:*()")).toEqual({ ids: [], total: 0 });
    });

    it('refuses a bad token instead of treating it as anonymous', async () => {
      const response = await regular(world.app, 'GET', 'media/public', 'not-a-token');
      expect(response.statusCode).toBe(401);
    });
  });

  describe('likes', () => {
    it('needs a session, counts a second like once and tells the caller', async () => {
      const id = await photo(world, owner.userId);
      expect((await regular(world.app, 'POST', `media/${id}/likes`, undefined)).statusCode).toBe(
        401,
      );
      const first = await regular(world.app, 'POST', `media/${id}/likes`, other.token);
      expect(first.json()).toEqual({ id, likes_count: 1, is_liked_by_caller: true });
      const again = await regular(world.app, 'POST', `media/${id}/likes`, other.token);
      expect(again.json()).toEqual({ id, likes_count: 1, is_liked_by_caller: true });

      const page = (await regular(world.app, 'GET', 'media/public?limit=200', other.token)).json<{
        items: { id: number; likes_count: number; is_liked_by_caller: boolean }[];
      }>();
      expect(page.items.find((item) => item.id === id)).toMatchObject({
        likes_count: 1,
        is_liked_by_caller: true,
      });
      const asOwner = (
        await regular(world.app, 'GET', 'media/public?limit=200', owner.token)
      ).json<{ items: { id: number; is_liked_by_caller: boolean }[] }>();
      expect(asOwner.items.find((item) => item.id === id)?.is_liked_by_caller).toBe(false);

      const unliked = await regular(world.app, 'DELETE', `media/${id}/likes`, other.token);
      expect(unliked.json()).toEqual({ id, likes_count: 0, is_liked_by_caller: false });
      const unlikedAgain = await regular(world.app, 'DELETE', `media/${id}/likes`, other.token);
      expect(unlikedAgain.json()).toEqual({ id, likes_count: 0, is_liked_by_caller: false });
    });

    it('ends exact after 50 concurrent likes, then 25 concurrent unlikes with repeats', async () => {
      const id = await photo(world, owner.userId);
      const visitors = [];
      for (let i = 0; i < 50; i += 1) visitors.push(await visitor(world.app, `Fan ${i}`));
      // Every visitor likes twice at once: 100 concurrent requests, 50 likes.
      const likes = await Promise.all(
        [...visitors, ...visitors].map((fan) =>
          regular(world.app, 'POST', `media/${id}/likes`, fan.token),
        ),
      );
      expect(likes.every((response) => response.statusCode === 200)).toBe(true);
      const [afterLikes] = await database.db
        .select({ likesCount: media.likesCount })
        .from(media)
        .where(eq(media.id, id));
      expect(afterLikes!.likesCount).toBe(50);
      expect(await database.db.$count(mediaLikes, eq(mediaLikes.mediaId, id))).toBe(50);

      const leaving = visitors.slice(0, 25);
      const unlikes = await Promise.all(
        [...leaving, ...leaving].map((fan) =>
          regular(world.app, 'DELETE', `media/${id}/likes`, fan.token),
        ),
      );
      expect(unlikes.every((response) => response.statusCode === 200)).toBe(true);
      const [afterUnlikes] = await database.db
        .select({ likesCount: media.likesCount })
        .from(media)
        .where(eq(media.id, id));
      expect(afterUnlikes!.likesCount).toBe(25);

      // A visitor's account deleted takes its like and the count with it.
      await database.db.delete(users).where(eq(users.id, visitors[49]!.userId));
      const [afterDelete] = await database.db
        .select({ likesCount: media.likesCount })
        .from(media)
        .where(eq(media.id, id));
      expect(afterDelete!.likesCount).toBe(24);
    });
  });

  describe('comments', () => {
    it('lets visitors comment, lists newest first 5 a page, author-only edit and delete', async () => {
      const id = await photo(world, owner.userId);
      const anonymous = await regular(world.app, 'POST', `media/${id}/comments`, undefined, {
        comment_text: 'Hi',
      });
      expect(anonymous.statusCode).toBe(401);
      const blank = await regular(world.app, 'POST', `media/${id}/comments`, other.token, {
        comment_text: '   ',
      });
      expect(blank.statusCode).toBe(400);
      expect(blank.json().message).toContain(WALL_MESSAGES.commentEmpty);
      const tooLong = await regular(world.app, 'POST', `media/${id}/comments`, other.token, {
        comment_text: 'x'.repeat(501),
      });
      expect(tooLong.statusCode).toBe(400);

      const posted = await regular(world.app, 'POST', `media/${id}/comments`, other.token, {
        comment_text: '  Lovely light!  ',
      });
      expect(posted.statusCode).toBe(201);
      const comment = posted.json<{ id: number }>();
      expect(posted.json()).toMatchObject({
        user_name: 'Ben Other',
        comment_text: 'Lovely light!',
        can_edit: true,
      });
      for (let i = 0; i < 5; i += 1) {
        await regular(world.app, 'POST', `media/${id}/comments`, owner.token, {
          comment_text: `Thanks ${i}`,
        });
      }
      const page = (await regular(world.app, 'GET', `media/${id}/comments`, other.token)).json<{
        items: { id: number; comment_text: string; can_edit: boolean }[];
        total_count: number;
      }>();
      expect(page.total_count).toBe(6);
      expect(page.items).toHaveLength(5);
      expect(page.items[0]!.comment_text).toBe('Thanks 4');
      expect(page.items.every((item) => item.can_edit === false)).toBe(true);
      const second = (
        await regular(world.app, 'GET', `media/${id}/comments?offset=5`, other.token)
      ).json<{ items: { id: number; can_edit: boolean }[] }>();
      expect(second.items).toEqual([expect.objectContaining({ id: comment.id, can_edit: true })]);
      const anonymousRead = await regular(world.app, 'GET', `media/${id}/comments`, undefined);
      expect(anonymousRead.statusCode).toBe(200);

      const byOwner = await regular(
        world.app,
        'PATCH',
        `media/comments/${comment.id}`,
        owner.token,
        {
          comment_text: 'Hijacked',
        },
      );
      expect(byOwner.statusCode).toBe(403);
      expect(
        (await regular(world.app, 'DELETE', `media/comments/${comment.id}`, owner.token))
          .statusCode,
      ).toBe(403);

      const edited = await regular(
        world.app,
        'PATCH',
        `media/comments/${comment.id}`,
        other.token,
        {
          comment_text: 'Lovely light, again',
        },
      );
      expect(edited.statusCode).toBe(200);
      expect(edited.json()).toMatchObject({ comment_text: 'Lovely light, again', can_edit: true });
      const deleted = await regular(
        world.app,
        'DELETE',
        `media/comments/${comment.id}`,
        other.token,
      );
      expect(deleted.statusCode).toBe(204);
      const gone = await regular(world.app, 'DELETE', `media/comments/${comment.id}`, other.token);
      expect(gone.statusCode).toBe(404);
    });

    it('refuses comments on items not on the wall', async () => {
      const privateId = await photo(world, owner.userId, { isPublic: false });
      const response = await regular(
        world.app,
        'POST',
        `media/${privateId}/comments`,
        other.token,
        {
          comment_text: 'Hello',
        },
      );
      expect(response.statusCode).toBe(404);
    });
  });

  describe('moderation', () => {
    it('lets the organization admin hide and show an item, logged, kept in My Media marked', async () => {
      const id = await photo(world, owner.userId);
      for (const refused of [world.orgMember, world.otherOrgAdmin]) {
        const response = await staff(world.app, 'POST', `media/${id}/hide`, refused.token);
        expect(response.statusCode).toBe(403);
      }
      expect((await staff(world.app, 'POST', `media/${id}/hide`, owner.token)).statusCode).toBe(
        401,
      );
      expect(
        (await staff(world.app, 'POST', 'media/999999/hide', world.orgAdmin.token)).statusCode,
      ).toBe(404);

      const hidden = await staff(world.app, 'POST', `media/${id}/hide`, world.orgAdmin.token);
      expect(hidden.statusCode).toBe(200);
      expect(hidden.json()).toMatchObject({
        id,
        hidden_from_wall: true,
        hidden_from_wall_by: world.orgAdmin.userId,
        hidden_from_wall_at: expect.any(String),
      });
      expect((await wallIds(world.app)).ids).not.toContain(id);
      expect((await regular(world.app, 'POST', `media/${id}/likes`, other.token)).statusCode).toBe(
        404,
      );

      const mine = (await regular(world.app, 'GET', 'media?limit=200', owner.token)).json<{
        items: { id: number; hidden_from_wall: boolean; is_public: boolean }[];
      }>();
      expect(mine.items.find((item) => item.id === id)).toMatchObject({
        hidden_from_wall: true,
        is_public: true,
      });

      // Hiding again changes nothing and logs nothing.
      await staff(world.app, 'POST', `media/${id}/hide`, world.orgAdmin.token);
      const productAdmin = await signedInProductAdmin(world.app, database);
      const shown = await staff(world.app, 'DELETE', `media/${id}/hide`, productAdmin.token);
      expect(shown.json()).toEqual({
        id,
        hidden_from_wall: false,
        hidden_from_wall_at: null,
        hidden_from_wall_by: null,
      });
      expect((await wallIds(world.app)).ids).toContain(id);
      const log = await logOf(database, id);
      expect(log.map((entry) => [entry.action, entry.actorId])).toEqual([
        ['hide_media', world.orgAdmin.userId],
        ['show_media', productAdmin.userId],
      ]);
    });

    it('refuses to hide an item that is not public (409, nothing logged), but shows a hidden one', async () => {
      const id = await photo(world, owner.userId, { isPublic: false });
      const refused = await staff(world.app, 'POST', `media/${id}/hide`, world.orgAdmin.token);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({
        message: WALL_MESSAGES.hideNotPublic,
        code: 'conflict',
      });
      const [row] = await database.db.select().from(media).where(eq(media.id, id));
      expect(row!.hiddenFromWallAt).toBeNull();
      expect(await logOf(database, id)).toEqual([]);

      // Hidden while public, then made private by its owner: hiding again changes nothing, and
      // a moderator can still take the hide back.
      const once = await photo(world, owner.userId);
      await staff(world.app, 'POST', `media/${once}/hide`, world.orgAdmin.token);
      await regular(world.app, 'PATCH', `media/${once}`, owner.token, { is_public: false });
      const again = await staff(world.app, 'POST', `media/${once}/hide`, world.orgAdmin.token);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ id: once, hidden_from_wall: true });
      const shown = await staff(world.app, 'DELETE', `media/${once}/hide`, world.orgAdmin.token);
      expect(shown.statusCode).toBe(200);
      expect(shown.json()).toMatchObject({ id: once, hidden_from_wall: false });
    });

    it('lets moderators read and delete any comment, logged; others are refused', async () => {
      const id = await photo(world, owner.userId);
      const posted = await regular(world.app, 'POST', `media/${id}/comments`, other.token, {
        comment_text: 'Rude words',
      });
      const commentId = posted.json<{ id: number }>().id;

      const list = await staff(world.app, 'GET', `media/${id}/comments`, world.orgAdmin.token);
      expect(list.statusCode).toBe(200);
      expect(list.json().items).toEqual([
        expect.objectContaining({ id: commentId, can_edit: true, user_name: 'Ben Other' }),
      ]);
      for (const refused of [world.orgMember, world.otherOrgAdmin]) {
        expect(
          (await staff(world.app, 'GET', `media/${id}/comments`, refused.token)).statusCode,
        ).toBe(403);
        expect(
          (await staff(world.app, 'DELETE', `media/comments/${commentId}`, refused.token))
            .statusCode,
        ).toBe(403);
      }
      // A visitor's token is not a staff token.
      expect(
        (await staff(world.app, 'DELETE', `media/comments/${commentId}`, other.token)).statusCode,
      ).toBe(401);

      const deleted = await staff(
        world.app,
        'DELETE',
        `media/comments/${commentId}`,
        world.orgAdmin.token,
      );
      expect(deleted.statusCode).toBe(204);
      const after = (await regular(world.app, 'GET', `media/${id}/comments`, undefined)).json();
      expect(after.total_count).toBe(0);
      const log = await logOf(database, id);
      expect(log).toEqual([
        expect.objectContaining({
          action: 'delete_comment',
          actorId: world.orgAdmin.userId,
          commentId,
          commentText: 'Rude words',
        }),
      ]);
    });
  });
});
