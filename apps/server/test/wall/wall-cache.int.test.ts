import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { devices, media, organizations, users } from '../../src/db/schema.js';
import { LIKERS_KEPT, WallRepository } from '../../src/modules/wall/wall.repository.js';
import { sharedDatabaseTargets } from '../databases.js';
import { startApp, type TestApp } from '../harness.js';
import { photo, regular, startWallWorld, visitor, type WallWorld } from './wall-suite.js';

interface WallItem {
  id: number;
  caption: string | null;
  likes_count: number;
  is_liked_by_caller: boolean;
  user_name: string;
  org_name: string | null;
  device_name: string | null;
}

async function wall(app: FastifyInstance, token?: string, query = '') {
  const response = await regular(app, 'GET', `media/public${query}`, token);
  return { status: response.statusCode, body: response.json<{ items: WallItem[] }>() };
}

/** Likes the item through `app`'s API as the token's visitor. */
async function like(app: FastifyInstance, id: number, token: string): Promise<void> {
  expect((await regular(app, 'POST', `media/${id}/likes`, token)).statusCode).toBe(200);
}

async function itemOn(app: FastifyInstance, id: number, token?: string) {
  const { body } = await wall(app, token);
  return body.items.find((item) => item.id === id);
}

/** Waits until `check` holds: a change made elsewhere reaches an instance with its NOTIFY. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not seen within 5 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * The wall's page cache (`WallCache`) on two server instances sharing one database: pages are
 * read once and served to every caller with their own likes, and every kind of change reaches
 * both instances' pages (at once on the instance that made it).
 */
describe.each(sharedDatabaseTargets)('the wall page cache on $name', ({ open }) => {
  let database: DatabaseHandle;
  let world: WallWorld;
  let second: TestApp;
  let asha: Awaited<ReturnType<typeof visitor>>;
  let ben: Awaited<ReturnType<typeof visitor>>;
  const reads = vi.spyOn(WallRepository.prototype, 'listPublic');

  beforeAll(async () => {
    database = await open();
    world = await startWallWorld(database);
    second = await startApp(database, { SUPER_USER_PHONES: world.superPhone });
    asha = await visitor(world.app, 'Asha Owner');
    ben = await visitor(world.app, 'Ben Other');
  });
  afterEach(() => {
    reads.mockClear();
  });
  afterAll(async () => {
    reads.mockRestore();
    await second.app.close();
    await world.app.close();
    await database.close();
  });

  it('reads a page once and answers every caller from it, each with their own likes', async () => {
    const liked = await photo(world, asha.userId, { caption: 'Liked by Ben' });
    const other = await photo(world, asha.userId);
    await like(world.app, liked, ben.token);
    reads.mockClear();
    const asAsha = await itemOn(world.app, liked, asha.token);
    const asBen = await wall(world.app, ben.token);
    const signedOut = await itemOn(world.app, liked);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(asAsha).toMatchObject({ likes_count: 1, is_liked_by_caller: false });
    expect(asBen.body.items.find((item) => item.id === liked)).toMatchObject({
      likes_count: 1,
      is_liked_by_caller: true,
    });
    expect(asBen.body.items.find((item) => item.id === other)?.is_liked_by_caller).toBe(false);
    expect(signedOut).toMatchObject({ likes_count: 1, is_liked_by_caller: false });
    // Another page (a search, a cursor, an offset) is a page of its own.
    await wall(world.app, ben.token, '?search=liked%20by');
    await wall(world.app, ben.token, '?search=liked%20by');
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it("shows a like at once on the instance that took it, and soon on the other's", async () => {
    const id = await photo(world, asha.userId);
    await itemOn(world.app, id, ben.token);
    await itemOn(second.app, id, ben.token);
    await like(second.app, id, ben.token);
    expect(await itemOn(second.app, id, ben.token)).toMatchObject({
      likes_count: 1,
      is_liked_by_caller: true,
    });
    await eventually(
      async () => (await itemOn(world.app, id, ben.token))?.is_liked_by_caller === true,
      'the like on the first instance',
    );
    expect(await itemOn(world.app, id, asha.token)).toMatchObject({
      likes_count: 1,
      is_liked_by_caller: false,
    });
  });

  it('shows a change at once on the instance that took it, before its own NOTIFY arrives', async () => {
    // An instance that never hears a notification: only its own answers tell its cache.
    const deaf = await startApp(
      {
        ...database,
        listen: (channel, _onPayload, onState) => database.listen(channel, () => {}, onState),
      },
      { SUPER_USER_PHONES: world.superPhone },
    );
    try {
      const id = await photo(world, asha.userId);
      await eventually(async () => (await itemOn(deaf.app, id)) !== undefined, 'the photo');
      await itemOn(deaf.app, id, ben.token);
      await like(deaf.app, id, ben.token);
      expect(await itemOn(deaf.app, id, ben.token)).toMatchObject({
        likes_count: 1,
        is_liked_by_caller: true,
      });
    } finally {
      await deaf.app.close();
    }
  });

  it('sees what jobs and other writers change: captions, privacy, names, erased accounts', async () => {
    const id = await photo(world, asha.userId, { caption: 'Before' });
    const cara = await visitor(world.app, 'Cara Gone');
    for (const app of [world.app, second.app]) await itemOn(app, id, cara.token);

    const seenEverywhere = async (what: string, check: (item?: WallItem) => boolean) => {
      for (const app of [world.app, second.app]) {
        await eventually(async () => check(await itemOn(app, id)), what);
      }
    };
    await database.db.update(media).set({ caption: 'After' }).where(eq(media.id, id));
    await seenEverywhere('the caption', (item) => item?.caption === 'After');
    await database.db.update(users).set({ name: 'Asha Renamed' }).where(eq(users.id, asha.userId));
    await seenEverywhere('the owner name', (item) => item?.user_name === 'Asha Renamed');
    await database.db
      .update(organizations)
      .set({ name: 'Sunrise Mall East' })
      .where(eq(organizations.id, world.orgId));
    await seenEverywhere('the venue', (item) => item?.org_name === 'Sunrise Mall East');
    await database.db
      .update(devices)
      .set({ name: 'Fountain booth' })
      .where(eq(devices.id, world.boothId));
    await seenEverywhere('the booth', (item) => item?.device_name === 'Fountain booth');
    await database.db.update(media).set({ isPublic: false }).where(eq(media.id, id));
    await seenEverywhere('the item gone private', (item) => item === undefined);

    // An erased account's token is refused on both, as the page query refuses it.
    await database.db.delete(users).where(eq(users.id, cara.userId));
    for (const app of [world.app, second.app]) {
      await eventually(
        async () => (await wall(app, cara.token)).status === 401,
        'the erased account refused',
      );
    }
  });

  it('answers a signed-in caller from the database when an item has too many likes to keep', async () => {
    const id = await photo(world, asha.userId);
    await database.db
      .update(media)
      .set({ likesCount: LIKERS_KEPT + 1 })
      .where(eq(media.id, id));
    await eventually(
      async () => (await itemOn(world.app, id))?.likes_count === LIKERS_KEPT + 1,
      'the count',
    );
    reads.mockClear();
    await itemOn(world.app, id, ben.token);
    await itemOn(world.app, id, ben.token);
    expect(reads).toHaveBeenCalledTimes(2);
    // Signed out, nobody's likes are needed: the kept page serves.
    await itemOn(world.app, id);
    await itemOn(world.app, id);
    expect(reads).toHaveBeenCalledTimes(2);
  });
});
