import { randomUUID } from 'node:crypto';
import { type OrganizationStats, STATS_MESSAGES } from '@flashbooth/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  captures,
  deliveryFailures,
  devices,
  media,
  paymentRefunds,
  paymentTransactions,
  templates,
  users,
} from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { apiCall, newPhone } from '../harness.js';
import { useOrganizationsSuite } from '../organizations/organizations-suite.js';

/*
 * A known data set at Sunrise Mall (orgA), with rows of Harbour Café (orgB) and media that never
 * uploaded around it that must not count:
 *
 *   capture  visitor  template  booth  at (UTC)                items (shared / downloaded)
 *   c1       u1       Classic   A1     Mon 2025-01-06 10:00     image (S), video (D)
 *   c2       u1       Classic   A2     Sun 2025-01-12 23:30     image (S, D)   same week as c1 in UTC
 *   c3       u2       Wide      A1     Mon 2025-01-27 00:10     image
 *   c4       u3       Classic   A1     Mon 2025-03-03 09:00     image (D)
 *   c5       u2       Wide      A1     Tue 2025-03-04 09:00     image
 *
 * Payments (orgA): p1 A1 ₹50 completed Jan; p2 A1 ₹50 completed Jan, refunded (done); p3 A2 ₹30
 * (+ ₹20 credit held) completed 1 Mar 00:30; p4 A2 pending; p5 A1 failed; p6 A1 ₹40 completed
 * Mar whose refund failed. orgB: ₹99 completed.
 */
describe.each(databaseTargets)('organization statistics on $name', ({ open }) => {
  const s = useOrganizationsSuite(open);
  let boothA1: number;
  let boothA2: number;
  let emptyOrg: number;

  beforeAll(async () => {
    const db = s.database.db;
    const booth = async (name: string, orgId: number) => {
      const [row] = await db
        .insert(devices)
        .values({ name, orgId, thingName: `fb-${randomUUID()}`, secretHash: 'x' })
        .returning({ id: devices.id });
      return row!.id;
    };
    boothA1 = await booth('Atrium Booth', s.orgA);
    boothA2 = await booth('Food Court Booth', s.orgA);
    const boothB = await booth('Harbour Booth', s.orgB);
    emptyOrg = await s.organization('Quiet Corner');
    const [classic, wide] = await db
      .insert(templates)
      .values([{ name: 'Classic Strip' }, { name: 'Wide Frame' }])
      .returning({ id: templates.id });
    const visitor = async (name: string) => {
      const [row] = await db
        .insert(users)
        .values({ pool: 'regular', phone: newPhone(), name })
        .returning({ id: users.id });
      return row!.id;
    };
    const [u1, u2, u3] = [await visitor('U1'), await visitor('U2'), await visitor('U3')];

    type Item = { shared?: boolean; downloaded?: boolean; uploaded?: boolean; video?: boolean };
    const captureOf = async (
      userId: number,
      templateId: number,
      deviceId: number,
      orgId: number,
      at: string,
      items: Item[],
    ) => {
      const captureId = randomUUID();
      await db.insert(media).values(
        items.map((item) => ({
          userId,
          deviceId,
          orgId,
          templateId,
          captureId,
          mediaType: item.video ? ('video' as const) : ('image' as const),
          s3Key: `media/${randomUUID()}.jpg`,
          isUploaded: item.uploaded ?? true,
          isShared: item.shared ?? false,
          isDownloaded: item.downloaded ?? false,
          createdAt: new Date(at),
          updatedAt: new Date(at),
        })),
      );
    };
    await captureOf(u1, classic!.id, boothA1, s.orgA, '2025-01-06T10:00:00Z', [
      { shared: true },
      { downloaded: true, video: true },
    ]);
    await captureOf(u1, classic!.id, boothA2, s.orgA, '2025-01-12T23:30:00Z', [
      { shared: true, downloaded: true },
    ]);
    await captureOf(u2, wide!.id, boothA1, s.orgA, '2025-01-27T00:10:00Z', [{}]);
    await captureOf(u3, classic!.id, boothA1, s.orgA, '2025-03-03T09:00:00Z', [
      { downloaded: true },
    ]);
    await captureOf(u2, wide!.id, boothA1, s.orgA, '2025-03-04T09:00:00Z', [{}]);
    // Not counted: a capture that never uploaded (u3 would become a repeated user), and orgB's.
    await captureOf(u3, wide!.id, boothA1, s.orgA, '2025-03-05T09:00:00Z', [
      { uploaded: false, shared: true },
    ]);
    await captureOf(u3, wide!.id, boothB, s.orgB, '2025-03-05T09:00:00Z', [{ shared: true }]);

    const pay = async (values: {
      deviceId: number;
      orgId: number;
      amountPaise: number;
      creditPaise?: number;
      state: 'COMPLETED' | 'PENDING' | 'FAILED' | 'REFUNDED';
      completedAt: string | null;
    }) => {
      const [row] = await db
        .insert(paymentTransactions)
        .values({
          userId: u1,
          templateId: classic!.id,
          provider: 'sandbox',
          orderId: `T${randomUUID().replaceAll('-', '')}`,
          expiresAt: new Date('2025-12-31T00:00:00Z'),
          nextCheckAt: new Date('2025-12-31T00:00:00Z'),
          ...values,
          completedAt: values.completedAt ? new Date(values.completedAt) : null,
        })
        .returning({ id: paymentTransactions.id });
      return row!.id;
    };
    const refund = (transactionId: number, amountPaise: number, state: 'COMPLETED' | 'FAILED') =>
      db.insert(paymentRefunds).values({
        transactionId,
        destination: 'source',
        merchantRefundId: `R${randomUUID().replaceAll('-', '')}`,
        amountPaise,
        state,
        nextCheckAt: new Date('2025-12-31T00:00:00Z'),
      });
    const a = { orgId: s.orgA };
    await pay({
      ...a,
      deviceId: boothA1,
      amountPaise: 5000,
      state: 'COMPLETED',
      completedAt: '2025-01-06T10:00:00Z',
    });
    const p2 = await pay({
      ...a,
      deviceId: boothA1,
      amountPaise: 5000,
      state: 'REFUNDED',
      completedAt: '2025-01-20T10:00:00Z',
    });
    await refund(p2, 5000, 'COMPLETED');
    await pay({
      ...a,
      deviceId: boothA2,
      amountPaise: 3000,
      creditPaise: 2000,
      state: 'COMPLETED',
      completedAt: '2025-03-01T00:30:00Z',
    });
    await pay({ ...a, deviceId: boothA2, amountPaise: 3000, state: 'PENDING', completedAt: null });
    await pay({ ...a, deviceId: boothA1, amountPaise: 3000, state: 'FAILED', completedAt: null });
    const p6 = await pay({
      ...a,
      deviceId: boothA1,
      amountPaise: 4000,
      state: 'COMPLETED',
      completedAt: '2025-03-05T10:00:00Z',
    });
    await refund(p6, 4000, 'FAILED');
    await pay({
      orgId: s.orgB,
      deviceId: boothB,
      amountPaise: 9900,
      state: 'COMPLETED',
      completedAt: '2025-03-05T10:00:00Z',
    });
  });

  const stats = async (token: string | undefined, orgId = s.orgA) =>
    apiCall(s.app, 'GET', `organizations/${orgId}/stats`, token);

  it('computes every field for an admin of the organization', async () => {
    const response = await stats(s.orgAdmin.token);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<OrganizationStats>();
    expect(body).toMatchObject({
      total_captures: 5,
      total_media: 6,
      // c1's video among them.
      total_photos: 5,
      total_videos: 1,
      total_shared_media: 2,
      total_downloaded_media: 3,
      total_users_who_captured: 3,
      late_deliveries: 0,
      delivery_failures: 0,
      repeated_users: 2,
      most_used_template: { name: 'Classic Strip', usage_count: 3 },
    });
    expect(body.share_rate).toBeCloseTo(2 / 6, 10);
    expect(body.download_rate).toBe(0.5);
  });

  it('buckets media by week (Monday) and month in UTC, only periods with media', async () => {
    const body = (await stats(s.superUser.token)).json<OrganizationStats>();
    expect(body.media_per_week).toEqual([
      { week_start: '2025-01-06', count: 3 },
      { week_start: '2025-01-27', count: 1 },
      { week_start: '2025-03-03', count: 2 },
    ]);
    expect(body.media_per_month).toEqual([
      { month_start: '2025-01-01', count: 4 },
      { month_start: '2025-03-01', count: 2 },
    ]);
  });

  it('reports revenue per booth and per month: completed payments less refunds', async () => {
    const body = (await stats(s.productAdmin.token)).json<OrganizationStats>();
    expect(body.revenue!.total).toEqual({
      payments_count: 4,
      gross_rupees: 170,
      refunded_rupees: 50,
      revenue_rupees: 120,
    });
    expect(body.revenue!.per_booth).toEqual([
      {
        device_id: boothA1,
        device_name: 'Atrium Booth',
        payments_count: 3,
        gross_rupees: 140,
        refunded_rupees: 50,
        revenue_rupees: 90,
      },
      {
        device_id: boothA2,
        device_name: 'Food Court Booth',
        payments_count: 1,
        gross_rupees: 30,
        refunded_rupees: 0,
        revenue_rupees: 30,
      },
    ]);
    expect(body.revenue!.per_month).toEqual([
      {
        month_start: '2025-01-01',
        payments_count: 2,
        gross_rupees: 100,
        refunded_rupees: 50,
        revenue_rupees: 50,
      },
      {
        month_start: '2025-03-01',
        payments_count: 2,
        gross_rupees: 70,
        refunded_rupees: 0,
        revenue_rupees: 70,
      },
    ]);
    expect(
      body.revenue!.per_booth_month.map((r) => [r.device_id, r.month_start, r.revenue_rupees]),
    ).toEqual([
      [boothA1, '2025-01-01', 50],
      [boothA1, '2025-03-01', 40],
      [boothA2, '2025-03-01', 30],
    ]);
  });

  it('leaves share rate, download rate, repeated users and revenue out for a member', async () => {
    const response = await stats(s.member.token);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<Record<string, unknown>>();
    expect(body.total_captures).toBe(5);
    expect(body.most_used_template).toEqual({ name: 'Classic Strip', usage_count: 3 });
    for (const field of ['share_rate', 'download_rate', 'repeated_users', 'revenue']) {
      expect(body).not.toHaveProperty(field);
    }
  });

  it('refuses people outside the organization, visitors and nobody', async () => {
    for (const person of [s.outsider, s.loner]) {
      const response = await stats(person.token);
      expect(response.statusCode).toBe(404);
      expect(response.json<{ message: string }>().message).toBe(STATS_MESSAGES.orgNotFound);
    }
    expect((await stats(s.visitor.token)).statusCode).toBe(401);
    expect((await stats(undefined)).statusCode).toBe(401);
    expect((await stats(s.superUser.token, 999_999)).statusCode).toBe(404);
  });

  it('answers zeros, empty series and no template for an organization without media', async () => {
    const body = (await stats(s.superUser.token, emptyOrg)).json<OrganizationStats>();
    expect(body).toEqual({
      total_captures: 0,
      total_media: 0,
      total_photos: 0,
      total_videos: 0,
      total_shared_media: 0,
      total_downloaded_media: 0,
      total_users_who_captured: 0,
      late_deliveries: 0,
      delivery_failures: 0,
      share_rate: 0,
      download_rate: 0,
      repeated_users: 0,
      media_per_week: [],
      media_per_month: [],
      revenue: {
        total: { payments_count: 0, gross_rupees: 0, refunded_rupees: 0, revenue_rupees: 0 },
        per_booth: [],
        per_month: [],
        per_booth_month: [],
      },
    });
  });

  it('counts the captures closed as delivery failures', async () => {
    const captureId = randomUUID();
    const at = new Date();
    await s.database.db.insert(captures).values({
      captureId,
      userId: s.orgAdmin.userId,
      state: 'failed',
      deadlineAt: at,
    });
    await s.database.db.insert(deliveryFailures).values({
      captureId,
      userId: s.orgAdmin.userId,
      orgId: s.orgA,
      refund: 'credit',
      refundPaise: 4900,
      itemsPromised: 2,
      itemsDelivered: 1,
      detectedAt: at,
    });
    try {
      const response = await stats(s.orgAdmin.token);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<OrganizationStats>().delivery_failures).toBe(1);
    } finally {
      await s.database.db.delete(captures).where(eq(captures.captureId, captureId));
    }
  });
});
