import { COMMENT_MAX_LENGTH, MEDIA_MESSAGES, WALL_MESSAGES } from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { media } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { signedInProductAdmin } from '../harness.js';
import {
  photo,
  regular,
  startWallWorld,
  staff,
  visitor,
  type WallWorld,
  wallIds,
} from './wall-suite.js';

/*
 * Issue 38, items 7 and 8: a caption or comment over its limit is refused with the server's
 * message, never shortened; the wall's search finds words next to punctuation and emoji.
 */
describe.each(databaseTargets)('texts and the wall search on $name', ({ open }) => {
  let database: DatabaseHandle;
  let world: WallWorld;
  let owner: Awaited<ReturnType<typeof visitor>>;

  beforeAll(async () => {
    database = await open();
    world = await startWallWorld(database);
    owner = await visitor(world.app, 'Asha Owner');
  });
  afterAll(async () => {
    await world.app.close();
    await database.close();
  });

  const storedCaption = async (id: number) =>
    (await database.db.select({ caption: media.caption }).from(media).where(eq(media.id, id)))[0]
      ?.caption;

  describe('length limits', () => {
    it('keeps a caption of 500 characters whole and refuses 501 with its message', async () => {
      const id = await photo(world, owner.userId);
      const full = `${'a'.repeat(499)}z`;
      const saved = await regular(world.app, 'PATCH', `media/${id}`, owner.token, {
        caption: `  ${full}  `,
      });
      expect(saved.statusCode).toBe(200);
      expect(saved.json().caption).toBe(full);
      expect(await storedCaption(id)).toBe(full);
      // Characters are counted as code points: 500 emoji are 500 characters, kept whole.
      const emoji = '🎉'.repeat(500);
      const savedEmoji = await regular(world.app, 'PATCH', `media/${id}`, owner.token, {
        caption: emoji,
      });
      expect(savedEmoji.json().caption).toBe(emoji);
      await regular(world.app, 'PATCH', `media/${id}`, owner.token, { caption: full });

      for (const tooLong of [`${full}!`, '🎉'.repeat(501)]) {
        const refused = await regular(world.app, 'PATCH', `media/${id}`, owner.token, {
          caption: tooLong,
        });
        expect(refused.statusCode).toBe(400);
        expect(refused.json().message).toBe(MEDIA_MESSAGES.captionTooLong);
      }
      // Nothing was cut and saved in its place.
      expect(await storedCaption(id)).toBe(full);
    });

    it('refuses a comment over 500 characters, posted or edited, with its message', async () => {
      const id = await photo(world, owner.userId);
      const full = 'c'.repeat(COMMENT_MAX_LENGTH);
      const posted = await regular(world.app, 'POST', `media/${id}/comments`, owner.token, {
        comment_text: full,
      });
      expect(posted.statusCode).toBe(201);
      expect(posted.json().comment_text).toBe(full);
      const commentId = posted.json<{ id: number }>().id;

      const tooLongPost = await regular(world.app, 'POST', `media/${id}/comments`, owner.token, {
        comment_text: `${full}c`,
      });
      expect(tooLongPost.statusCode).toBe(400);
      expect(tooLongPost.json().message).toBe(WALL_MESSAGES.commentTooLong);

      const tooLongEdit = await regular(
        world.app,
        'PATCH',
        `media/comments/${commentId}`,
        owner.token,
        { comment_text: `${full}d` },
      );
      expect(tooLongEdit.statusCode).toBe(400);
      expect(tooLongEdit.json().message).toBe(WALL_MESSAGES.commentTooLong);
    });
  });

  describe('search', () => {
    it('finds words next to punctuation: markup, links, addresses, quotes', async () => {
      const scripts = [
        await photo(world, owner.userId, {
          caption: '<script>alert("caption")</script> "quoted" & \'single\'',
        }),
        await photo(world, owner.userId, { caption: '<script>alert(1)</script>' }),
        await photo(world, owner.userId, {
          caption: '</p><script>alert(document.cookie)</script>',
        }),
        await photo(world, owner.userId, { caption: "x<script>alert('hi')</script>y" }),
      ];
      const link = await photo(world, owner.userId, {
        caption: 'See https://example.org/photos/wedding?id=3',
      });
      const address = await photo(world, owner.userId, { caption: 'Mail priya.k@example.org' });
      const version = await photo(world, owner.userId, { caption: 'Booth v2.5-beta_build' });
      const ids = async (search: string) =>
        (await wallIds(world.app, undefined, search)).ids.sort((a, b) => a - b);

      expect(await ids('script')).toEqual(scripts);
      expect(await ids('alert')).toEqual(scripts);
      expect(await ids('<script>')).toEqual(scripts);
      expect(await ids('cookie')).toEqual([scripts[2]]);
      expect(await ids('document.cookie')).toEqual([scripts[2]]);
      expect(await ids('quoted single')).toEqual([scripts[0]]);
      expect(await ids('photos wedding')).toEqual([link]);
      expect(await ids('example.org')).toEqual([link, address]);
      expect(await ids('priya')).toEqual([address]);
      expect(await ids('beta build')).toEqual([version]);
      expect(await ids('v2')).toEqual([version]);
    });

    it('finds emoji, alone or next to words, and the words next to them', async () => {
      const party = await photo(world, owner.userId, { caption: 'Party time 🎉🎉' });
      const cake = await photo(world, owner.userId, { caption: 'Cake🎂and more🎉!' });
      const heart = await photo(world, owner.userId, { caption: '❤️ Zorblat' });
      const thumbs = await photo(world, owner.userId, { caption: 'Nice 👍🏽' });
      const ids = async (search: string) =>
        (await wallIds(world.app, undefined, search)).ids.sort((a, b) => a - b);

      expect(await ids('🎉')).toEqual([party, cake]);
      expect(await ids('🎂')).toEqual([cake]);
      expect(await ids('cake')).toEqual([cake]);
      expect(await ids('and more')).toEqual([cake]);
      expect(await ids('party 🎉')).toEqual([party]);
      expect(await ids('🎉 party')).toEqual([party]);
      // With or without the emoji presentation selector.
      expect(await ids('❤️')).toEqual([heart]);
      expect(await ids('❤')).toEqual([heart]);
      expect(await ids('zorblat')).toEqual([heart]);
      // A skin tone is its own part: the thumb finds every tone, the tone narrows it.
      expect(await ids('👍')).toEqual([thumbs]);
      expect(await ids('👍🏽')).toEqual([thumbs]);
      expect(await ids('👍🏿')).toEqual([]);
      expect(await ids('🦄')).toEqual([]);
    });

    it('finds the same way in the staff media views', async () => {
      const tagged = await photo(world, owner.userId, {
        caption: '<b>Glimmerfest</b> 🪩',
        isPublic: false,
      });
      const admin = await signedInProductAdmin(world.app, database);
      const search = async (term: string) => {
        const response = await staff(
          world.app,
          'GET',
          `media/all?${new URLSearchParams({ search: term, limit: '50' })}`,
          admin.token,
        );
        expect(response.statusCode).toBe(200);
        return response.json<{ items: { id: number }[] }>().items.map((item) => item.id);
      };
      expect(await search('glimmerfest')).toEqual([tagged]);
      expect(await search('🪩')).toEqual([tagged]);
    });
  });
});
