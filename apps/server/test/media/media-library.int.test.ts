import { randomUUID } from 'node:crypto';
import {
  MEDIA_LIBRARY_MESSAGES,
  ORGANIZATION_MESSAGES,
  type StaffMediaPage,
} from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { media, users } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { apiCall, newPhone, signedIn } from '../harness.js';
import { newObjectKey } from '../../src/modules/storage/storage.js';
import { createBooth } from '../media-fixtures.js';
import {
  expectError,
  type Person,
  useOrganizationsSuite,
} from '../organizations/organizations-suite.js';

/*
 * The staff media views (issue 13, staff spec sections 2, 3 and 7): GET
 * organizations/{id}/media/repost_allowed and GET media/all — what each lists, search, filters,
 * paging, the item's fields, and who may call them.
 */
describe.each(databaseTargets)('staff media views on $name', ({ open }) => {
  const s = useOrganizationsSuite(open);
  let asha: Person;
  let ravi: Person;
  let boothA: number;
  let boothA2: number;
  let boothB: number;
  const ids: Record<string, number> = {};

  /** One item straight in the database, `minutesAgo` before the test clock's now. */
  async function item(
    name: string,
    values: {
      owner: Person;
      orgId: number | null;
      deviceId: number | null;
      minutesAgo: number;
      repost?: boolean;
      uploaded?: boolean;
      caption?: string | null;
      lowres?: boolean;
      orientation?: 'portrait' | 'landscape';
      hidden?: boolean;
    },
  ) {
    const createdAt = new Date(s.clock.now().getTime() - values.minutesAgo * 60_000);
    const [row] = await s.database.db
      .insert(media)
      .values({
        userId: values.owner.userId,
        orgId: values.orgId,
        deviceId: values.deviceId,
        captureId: randomUUID(),
        s3Key: newObjectKey(`media/${values.owner.userId}`, 'jpg'),
        lowresKey: values.lowres === false ? null : newObjectKey('media/lowres', 'jpg'),
        orientation: values.orientation ?? 'portrait',
        caption: values.caption ?? null,
        isRepostAllowed: values.repost ?? true,
        isUploaded: values.uploaded ?? true,
        isPublic: true,
        hiddenFromWallAt: values.hidden ? createdAt : null,
        createdAt,
        updatedAt: createdAt,
      })
      .returning({ id: media.id });
    ids[name] = row!.id;
  }

  beforeAll(async () => {
    const db = s.database.db;
    boothA = (await createBooth(db, s.link, { orgId: s.orgA, name: 'Atrium Booth' })).id;
    boothA2 = (await createBooth(db, s.link, { orgId: s.orgA, name: 'Food Court Booth' })).id;
    boothB = (await createBooth(db, s.link, { orgId: s.orgB, name: 'Pier Booth' })).id;
    asha = await signedIn(s.app, 'regular', newPhone(), 'Asha Rao');
    ravi = await signedIn(s.app, 'regular', newPhone(), 'Ravi Kumar');
    const a = { orgId: s.orgA, deviceId: boothA };
    await item('ashaA', { ...a, owner: asha, minutesAgo: 50, caption: 'Birthday at the mall' });
    await item('raviA', {
      ...a,
      owner: ravi,
      minutesAgo: 40,
      orientation: 'landscape',
      lowres: false,
      hidden: true,
    });
    await item('raviA2', { orgId: s.orgA, deviceId: boothA2, owner: ravi, minutesAgo: 30 });
    await item('noRepost', { ...a, owner: asha, minutesAgo: 20, repost: false });
    await item('notUploaded', { ...a, owner: asha, minutesAgo: 10, uploaded: false });
    await item('ashaB', { orgId: s.orgB, deviceId: boothB, owner: asha, minutesAgo: 5 });
  }, 60_000);

  const list = async (url: string, token: string, query = '') => {
    const response = await s.call('GET', `${url}${query}`, token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<StaffMediaPage>();
  };
  const orgMedia = (orgId: number, token: string, query = '') =>
    list(`organizations/${orgId}/media/repost_allowed`, token, query);
  const allMedia = (token: string, query = '') => list('media/all', token, query);
  const idsOf = (page: StaffMediaPage) => page.items.map((entry) => entry.id);

  it("lists the organization's uploaded media whose owners allow reposting, newest first", async () => {
    const page = await orgMedia(s.orgA, s.member.token);
    expect(idsOf(page)).toEqual([ids.raviA2, ids.raviA, ids.ashaA]);
    expect(page.total_count).toBe(3);
    expect(idsOf(await orgMedia(s.orgB, s.outsider.token))).toEqual([ids.ashaB]);
  });

  it("answers the staff spec's media item with its organization, booth and wall state", async () => {
    const [ravi2, raviA, ashaA] = (await orgMedia(s.orgA, s.orgAdmin.token)).items;
    const [row] = await s.database.db.select().from(media).where(eq(media.id, ids.ashaA!));
    expect(ashaA).toEqual({
      id: ids.ashaA,
      media_type: 'image',
      orientation: 'portrait',
      lowres_s3_url: expect.stringContaining('lowres'),
      s3_url: expect.stringContaining(row!.s3Key.split('/').at(-1)!),
      preview_s3_url: null,
      gif_s3_url: null,
      s3_key: row!.s3Key,
      user_name: 'Asha Rao',
      org_id: s.orgA,
      org_name: 'Sunrise Mall',
      device_id: boothA,
      device_name: 'Atrium Booth',
      created_at: row!.createdAt.toISOString().slice(0, 19),
      caption: 'Birthday at the mall',
      is_public: true,
      is_repost_allowed: true,
      hidden_from_wall: false,
    });
    // Without a preview the card shows the HD file; a moderator's hide is marked.
    expect(raviA).toMatchObject({ orientation: 'landscape', hidden_from_wall: true });
    expect(raviA!.lowres_s3_url).toBe(raviA!.s3_url);
    expect(ravi2).toMatchObject({ device_name: 'Food Court Booth', hidden_from_wall: false });
  });

  it('searches the owner, the booth, the organization and the caption, and pages', async () => {
    const token = s.orgAdmin.token;
    expect(idsOf(await orgMedia(s.orgA, token, '?search=ravi'))).toEqual([ids.raviA2, ids.raviA]);
    expect(idsOf(await orgMedia(s.orgA, token, '?search=FOOD%20COURT'))).toEqual([ids.raviA2]);
    expect(idsOf(await orgMedia(s.orgA, token, '?search=birthday'))).toEqual([ids.ashaA]);
    expect(idsOf(await orgMedia(s.orgA, token, '?search=sunrise'))).toHaveLength(3);
    // Pattern characters are taken literally.
    expect(await orgMedia(s.orgA, token, '?search=%25')).toEqual({
      items: [],
      total_count: 0,
      next_cursor: null,
    });
    expect(await orgMedia(s.orgA, token, '?limit=1&offset=1')).toEqual({
      items: [expect.objectContaining({ id: ids.raviA })],
      total_count: 3,
      next_cursor: expect.any(String),
    });
  });

  it('shows All Media to privileged staff regardless of the repost flag, filtered by org and device', async () => {
    const all = await allMedia(s.superUser.token);
    expect(idsOf(all)).toEqual([ids.ashaB, ids.noRepost, ids.raviA2, ids.raviA, ids.ashaA]);
    expect(all.items.find((entry) => entry.id === ids.noRepost)?.is_repost_allowed).toBe(false);
    const admin = s.productAdmin.token;
    expect(idsOf(await allMedia(admin, `?org_id=${s.orgB}`))).toEqual([ids.ashaB]);
    expect(idsOf(await allMedia(admin, `?device_id=${boothA2}`))).toEqual([ids.raviA2]);
    expect(idsOf(await allMedia(admin, `?org_id=${s.orgA}&device_id=${boothA}`))).toEqual([
      ids.noRepost,
      ids.raviA,
      ids.ashaA,
    ]);
    expect(idsOf(await allMedia(admin, `?org_id=${s.orgB}&device_id=${boothA}`))).toEqual([]);
    expect(idsOf(await allMedia(admin, `?org_id=${s.orgA}&search=asha`))).toEqual([
      ids.noRepost,
      ids.ashaA,
    ]);
    expect((await allMedia(admin, '?limit=2&offset=4')).total_count).toBe(5);
  });

  it('refuses filters below 1 or not whole numbers', async () => {
    for (const query of ['?org_id=0', '?device_id=-3', '?org_id=abc', '?device_id=1.5']) {
      const response = await s.call('GET', `media/all${query}`, s.superUser.token);
      expect(response.statusCode, query).toBe(400);
    }
  });

  it('refuses All Media to everyone but super users and product admins', async () => {
    for (const person of [s.orgAdmin, s.member, s.outsider, s.loner]) {
      const response = await s.call('GET', 'media/all', person.token);
      expectError(response, 403, MEDIA_LIBRARY_MESSAGES.onlyPrivileged);
    }
    expect((await s.call('GET', 'media/all', s.visitor.token)).statusCode).toBe(401);
    expect((await s.call('GET', 'media/all', undefined)).statusCode).toBe(401);
  });

  it("answers another organization's media, or an unknown one, as not found", async () => {
    for (const [orgId, person] of [
      [s.orgA, s.outsider],
      [s.orgA, s.loner],
      [999_999, s.superUser],
    ] as const) {
      const response = await s.call(
        'GET',
        `organizations/${orgId}/media/repost_allowed`,
        person.token,
      );
      expectError(response, 404, ORGANIZATION_MESSAGES.notFound);
    }
    expect(idsOf(await orgMedia(s.orgB, s.productAdmin.token))).toEqual([ids.ashaB]);
  });

  it("drops an item when its owner stops allowing reposts, and follows the owner's name", async () => {
    const patch = await apiCall(
      s.app,
      'PATCH',
      'media/repost_allowed',
      ravi.token,
      {
        media_ids: [ids.raviA2],
        is_repost_allowed: false,
      },
      'regular',
    );
    expect(patch.statusCode, patch.body).toBe(200);
    await s.database.db.update(users).set({ name: 'Ravi K' }).where(eq(users.id, ravi.userId));
    const page = await orgMedia(s.orgA, s.member.token);
    expect(idsOf(page)).toEqual([ids.raviA, ids.ashaA]);
    expect(page.items[0]!.user_name).toBe('Ravi K');
    expect((await allMedia(s.superUser.token, `?device_id=${boothA2}`)).items[0]).toMatchObject({
      is_repost_allowed: false,
    });
  });
});
