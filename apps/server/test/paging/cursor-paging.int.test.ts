import { randomUUID } from 'node:crypto';
import { CURSOR_MESSAGE } from '@flashbooth/contracts';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { decodeCursor, encodeCursor } from '../../src/db/paging.js';
import { devices, media, paymentTransactions, users } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import {
  apiCall,
  createOrg,
  signedIn,
  signedInOrgStaff,
  signedInSuperUser,
  startApp,
  type TestApp,
} from '../harness.js';

/*
 * Cursor paging (issue 26): every list that pages by cursor gives the same items, in the same
 * order, walked by `next_cursor` as walked by offset, with no item twice and none left out, even
 * when many items share one created_at (to the microsecond, or only to the millisecond).
 */

interface ListBody {
  items: { id: number }[];
  total_count: number;
  next_cursor?: string | null;
}

/** The created_at values: runs of equal ones, some apart only in their microseconds. */
const STAMPS = [
  '2025-09-01 10:00:00+00',
  '2025-09-01 10:00:00+00',
  '2025-09-01 10:00:00+00',
  '2025-09-01 10:00:00.123456+00',
  '2025-09-01 10:00:00.123456+00',
  '2025-09-01 10:00:00.123457+00',
  '2025-09-01 10:00:00.123+00',
  '2025-09-02 08:30:00+00',
  '2025-09-02 08:30:00+00',
  '2025-09-02 08:30:00+00',
  '2025-09-02 08:30:00+00',
  '2025-09-02 08:30:00+00',
  '2025-09-03 00:00:00.000001+00',
  '2025-09-03 00:00:00+00',
  '2025-08-31 23:59:59.999999+00',
  '2025-09-04 12:00:00+00',
  '2025-09-04 12:00:00+00',
  '2025-09-05 12:00:00+00',
  '2025-09-05 12:00:00+00',
  '2025-09-05 12:00:00+00',
  '2025-09-05 12:00:00+00',
  '2025-09-05 12:00:00+00',
  '2025-09-06 12:00:00+00',
];

describe.each(databaseTargets)('cursor paging on $name', ({ open }) => {
  let database: DatabaseHandle;
  let testApp: TestApp;
  let orgId: number;
  let owner: Awaited<ReturnType<typeof signedIn>>;
  let superToken: string;
  let adminToken: string;

  beforeAll(async () => {
    database = await open();
    testApp = await startApp(database);
    orgId = await createOrg(database, 'Cursor Court');
    const [booth] = await database.db
      .insert(devices)
      .values({ name: 'Cursor booth', thingName: `cursor-${randomUUID()}`, orgId, secretHash: 'x' })
      .returning({ id: devices.id });
    owner = await signedIn(testApp.app, 'regular', undefined, 'Cursor Owner');
    superToken = (await signedInSuperUser(testApp)).token;
    adminToken = (await signedInOrgStaff(testApp.app, database, orgId, 'admin')).token;

    // Guests: visitors (rows only) whose latest visits share created_at values.
    const guests = await database.db
      .insert(users)
      .values(
        STAMPS.slice(0, 12).map((_, i) => ({
          pool: 'regular' as const,
          phone: `+9170000${String(i).padStart(5, '0')}`,
          name: `Guest ${i}`,
        })),
      )
      .returning({ id: users.id });
    const owners = [...STAMPS.map(() => owner.userId), ...guests.map((guest) => guest.id)];
    const stamps = [...STAMPS, ...STAMPS.slice(0, 12)];
    const rows = await database.db
      .insert(media)
      .values(
        owners.map((userId, i) => ({
          userId,
          deviceId: booth!.id,
          orgId,
          captureId: randomUUID(),
          s3Key: `media/cursor/${randomUUID()}.jpg`,
          caption: i % 2 === 0 ? 'cursor walk' : null,
          isPublic: true,
          isUploaded: true,
          isRepostAllowed: true,
        })),
      )
      .returning({ id: media.id });
    // The exact timestamps (to the microsecond) set in SQL: a JS Date holds milliseconds only.
    for (const [i, row] of rows.entries()) {
      await database.db.execute(
        sql`update media set created_at = ${stamps[i]}::timestamptz where id = ${row.id}`,
      );
    }
    const txns = await database.db
      .insert(paymentTransactions)
      .values(
        STAMPS.map((_, i) => ({
          userId: owner.userId,
          orgId,
          deviceId: booth!.id,
          provider: 'sandbox' as const,
          orderId: `cursor-${randomUUID()}`,
          amountPaise: 100 * (i + 1),
          state: 'COMPLETED' as const,
          expiresAt: new Date('2025-09-10T00:00:00Z'),
          nextCheckAt: new Date('2025-09-10T00:00:00Z'),
        })),
      )
      .returning({ id: paymentTransactions.id });
    for (const [i, row] of txns.entries()) {
      await database.db.execute(
        sql`update payment_transactions set created_at = ${STAMPS[i]}::timestamptz where id = ${row.id}`,
      );
    }
    expect(
      await database.db
        .select()
        .from(users)
        .where(
          inArray(
            users.id,
            guests.map((g) => g.id),
          ),
        ),
    ).toHaveLength(12);
  }, 120_000);

  afterAll(async () => {
    await testApp.app.close();
    await database.close();
  });

  const lists = () => [
    { name: 'the wall', pool: 'regular' as const, url: 'media/public', token: undefined },
    {
      name: 'the wall searched',
      pool: 'regular' as const,
      url: 'media/public?search=cursor+walk',
      token: undefined,
    },
    { name: 'My Media', pool: 'regular' as const, url: 'media', token: owner.token },
    { name: 'My Transactions', pool: 'regular' as const, url: 'transactions', token: owner.token },
    { name: 'All Media', pool: 'enterprise' as const, url: 'media/all', token: superToken },
    {
      name: 'All Media of one organization',
      pool: 'enterprise' as const,
      url: `media/all?org_id=${orgId}`,
      token: superToken,
    },
    {
      name: 'All Media searched',
      pool: 'enterprise' as const,
      url: 'media/all?search=cursor+walk',
      token: superToken,
    },
    {
      name: "an organization's media",
      pool: 'enterprise' as const,
      url: `organizations/${orgId}/media/repost_allowed`,
      token: adminToken,
    },
    {
      name: "an organization's guests",
      pool: 'enterprise' as const,
      url: `organizations/${orgId}/guests`,
      token: adminToken,
    },
  ];

  const get = async (pool: 'regular' | 'enterprise', url: string, token: string | undefined) => {
    const response = await apiCall(testApp.app, 'GET', url, token, undefined, pool);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ListBody>();
  };
  const withQuery = (url: string, query: string) =>
    `${url}${url.includes('?') ? '&' : '?'}${query}`;

  it('walks every list by cursor to the same items as by offset, none twice, none left out', async () => {
    for (const list of lists()) {
      const byOffset: number[] = [];
      let total = -1;
      for (let offset = 0; ; offset += 4) {
        const page = await get(
          list.pool,
          withQuery(list.url, `limit=4&offset=${offset}`),
          list.token,
        );
        total = page.total_count;
        byOffset.push(...page.items.map((item) => item.id));
        if (page.items.length < 4) break;
      }
      expect(byOffset.length, list.name).toBe(total);
      expect(total, list.name).toBeGreaterThan(8);

      const byCursor: number[] = [];
      let cursor: string | null | undefined;
      let pages = 0;
      do {
        const page = await get(
          list.pool,
          withQuery(list.url, `limit=4${cursor ? `&cursor=${cursor}` : ''}`),
          list.token,
        );
        expect(page.total_count, list.name).toBe(total);
        expect(page.next_cursor === null || page.items.length === 4, list.name).toBe(true);
        byCursor.push(...page.items.map((item) => item.id));
        cursor = page.next_cursor;
        pages += 1;
        expect(pages, list.name).toBeLessThan(50);
      } while (cursor);
      expect(byCursor, list.name).toEqual(byOffset);
      expect(new Set(byCursor).size, list.name).toBe(byCursor.length);
    }
  });

  it('gives the next cursor on an offset page too, and null on the last page', async () => {
    const first = await get('regular', 'media?limit=4&offset=4', owner.token);
    expect(first.next_cursor).toEqual(expect.any(String));
    const next = await get('regular', `media?limit=4&cursor=${first.next_cursor}`, owner.token);
    const byOffset = await get('regular', 'media?limit=4&offset=8', owner.token);
    expect(next.items.map((i) => i.id)).toEqual(byOffset.items.map((i) => i.id));
    const last = await get('regular', `media?limit=200`, owner.token);
    expect(last.next_cursor).toBeNull();
    expect(last.items).toHaveLength(STAMPS.length);
  });

  it('refuses a cursor it did not give out, and a cursor with an offset, with a 400', async () => {
    const bad = [
      'not-a-cursor',
      '!!!',
      encodeCursor({ at: '2025-09-01T10:00:00.000000Z', id: 1 }).slice(0, -2),
      Buffer.from('2025-02-30T10:00:00.000000Z~5').toString('base64url'),
      Buffer.from('2025-09-01T10:00:00.000000Z~0').toString('base64url'),
      Buffer.from('2025-09-01T10:00:00Z~5').toString('base64url'),
    ];
    for (const cursor of bad) {
      for (const list of lists()) {
        const response = await apiCall(
          testApp.app,
          'GET',
          withQuery(list.url, `cursor=${encodeURIComponent(cursor)}`),
          list.token,
          undefined,
          list.pool,
        );
        expect(response.statusCode, `${list.name} ${cursor}`).toBe(400);
        expect(response.json<{ message: string }>().message).toContain(CURSOR_MESSAGE);
      }
    }
    const good = encodeCursor({ at: '2025-09-05T12:00:00.000000Z', id: 1 });
    for (const list of lists()) {
      const response = await apiCall(
        testApp.app,
        'GET',
        withQuery(list.url, `cursor=${good}&offset=10`),
        list.token,
        undefined,
        list.pool,
      );
      expect(response.statusCode, list.name).toBe(400);
      expect(response.json<{ message: string }>().message).toBe(
        'Send either cursor or offset, not both.',
      );
    }
  });

  it('reads back the position it wrote', () => {
    const key = { at: '2025-09-01T10:00:00.123456Z', id: 42 };
    expect(decodeCursor(encodeCursor(key))).toEqual(key);
  });
});
