import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, rowsOf } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import {
  devices,
  media,
  organizations,
  paymentRefunds,
  paymentTransactions,
  templates,
  users,
} from '../../src/db/schema.js';
import { FullPassStatsRepository } from '../../src/modules/stats/stats.full-pass.js';
import { StatsRepository } from '../../src/modules/stats/stats.repository.js';
import { revenueFrom } from '../../src/modules/stats/stats.service.js';
import { databaseTargets } from '../databases.js';
import { newPhone, startApp } from '../harness.js';

/*
 * Issue 26: the statistics read from migration 0023's counters (kept by triggers) are the same
 * answer as the full passes over the rows they replaced (FullPassStatsRepository), on a seeded
 * data set after inserts, edits of every counted column, moves between organizations, booths and
 * templates, deletions (of media, booths, visitors, payments with their refunds) and refunds, and
 * after a rebuild.
 */

/** A small deterministic random source (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe.each(databaseTargets)('statistics counters on $name', ({ open }) => {
  let database: DatabaseHandle;
  const rand = random(26);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  let orgIds: number[] = [];
  let deviceIds: number[] = [];
  let templateIds: number[] = [];
  let userIds: number[] = [];

  /** Around week and month ends in UTC (Sunday 23:xx, the 1st at 00:xx) and in between. */
  const someInstant = () => {
    const base = Date.UTC(2024, 11, 28) + Math.floor(rand() * 120) * 86_400_000;
    const minutes = pick([0, 1, 30, 59, 60 * 12, 60 * 23 + 59, 60 * 23 + 30]);
    return new Date(base + minutes * 60_000 + Math.floor(rand() * 1000));
  };

  async function insertMedia(count: number) {
    const rows = [];
    for (let i = 0; i < count; i += 1) {
      const captureId = randomUUID();
      const userId = pick(userIds);
      const orgId = pick([...orgIds, null]);
      const deviceId = pick([...deviceIds, null]);
      const templateId = pick([...templateIds, null]);
      const at = someInstant();
      // A capture of 1 to 3 items, mostly uploaded, some never.
      for (let n = 1 + Math.floor(rand() * 3); n > 0; n -= 1) {
        rows.push({
          userId,
          orgId,
          deviceId,
          templateId,
          captureId,
          mediaType: rand() < 0.3 ? ('video' as const) : ('image' as const),
          s3Key: `media/${randomUUID()}.jpg`,
          isUploaded: rand() < 0.85,
          isShared: rand() < 0.4,
          isDownloaded: rand() < 0.4,
          isRepostAllowed: rand() < 0.5,
          createdAt: new Date(at.getTime() + n * 1000),
        });
      }
    }
    await database.db.insert(media).values(rows);
  }

  async function insertPayments(count: number) {
    for (let i = 0; i < count; i += 1) {
      const state = pick(['COMPLETED', 'PENDING', 'FAILED', 'REFUND_PENDING', 'REFUNDED'] as const);
      const completed = state !== 'PENDING' && state !== 'FAILED' ? someInstant() : null;
      const [row] = await database.db
        .insert(paymentTransactions)
        .values({
          userId: pick(userIds),
          orgId: pick([...orgIds, null]),
          deviceId: pick([...deviceIds, null]),
          provider: 'sandbox',
          orderId: `S${randomUUID().replaceAll('-', '')}`,
          amountPaise: 100 * (1 + Math.floor(rand() * 50)),
          state,
          completedAt: completed,
          expiresAt: new Date('2026-01-01T00:00:00Z'),
          nextCheckAt: new Date('2026-01-01T00:00:00Z'),
        })
        .returning({ id: paymentTransactions.id });
      if (state === 'REFUNDED' || state === 'REFUND_PENDING' || rand() < 0.2) {
        await refund(row!.id, pick(['COMPLETED', 'PENDING', 'FAILED'] as const));
      }
    }
  }

  const refund = (transactionId: number, state: 'COMPLETED' | 'PENDING' | 'FAILED') =>
    database.db.insert(paymentRefunds).values({
      transactionId,
      destination: 'source',
      merchantRefundId: `R${randomUUID().replaceAll('-', '')}`,
      amountPaise: 100 * (1 + Math.floor(rand() * 10)),
      state,
      nextCheckAt: new Date('2026-01-01T00:00:00Z'),
    });

  /** Every statistics read of every organization, from the counters and in full passes. */
  async function expectSameAnswers(step: string) {
    const counters = new StatsRepository(database.db);
    const fullPass = new FullPassStatsRepository(database.db);
    const orgs = await database.db.select({ id: organizations.id }).from(organizations);
    expect(orgs.length).toBeGreaterThan(0);
    for (const { id } of orgs) {
      const read = async (repo: StatsRepository | FullPassStatsRepository) => ({
        totals: await repo.totals(id),
        template: await repo.mostUsedTemplate(id),
        periods: await repo.mediaPerPeriod(id),
        revenue: revenueFrom(await repo.revenue(id)),
        revenueRows: await repo.revenue(id),
      });
      const expected = await read(fullPass);
      expect(await read(counters), `${step}, organization ${id}`).toEqual(expected);
    }
    // All Media's and an organization's media totals (the staff lists' total_count).
    const totals = await database.db.execute(sql`
      select (select count(*) from media where is_uploaded)::int as media,
             (select coalesce(sum(media), 0) from media_daily_counts)::int as counted,
             (select count(*) from media where is_uploaded and is_repost_allowed
                and org_id is not null)::int as repost,
             (select coalesce(sum(repost_allowed), 0) from media_daily_counts
               where org_id <> 0)::int as counted_repost,
             (select count(*) from media where is_uploaded and device_id is not null)::int
               as on_booths,
             (select coalesce(sum(media), 0) from media_daily_counts where device_id <> 0)::int
               as counted_on_booths`);
    const [row] = rowsOf<Record<string, number>>(totals);
    expect(row!.counted, step).toBe(row!.media);
    expect(row!.counted_repost, step).toBe(row!.repost);
    expect(row!.counted_on_booths, step).toBe(row!.on_booths);
  }

  beforeAll(async () => {
    database = await open();
    await migrate(database.db);
    const db = database.db;
    orgIds = (
      await db
        .insert(organizations)
        .values(
          ['North', 'South', 'East', 'West'].map((name) => ({ name: `${name} ${randomUUID()}` })),
        )
        .returning({ id: organizations.id })
    ).map((row) => row.id);
    deviceIds = (
      await db
        .insert(devices)
        .values(
          Array.from({ length: 6 }, (_, i) => ({
            name: `Booth ${i}`,
            orgId: orgIds[i % orgIds.length]!,
            thingName: `counters-${randomUUID()}`,
            secretHash: 'x',
          })),
        )
        .returning({ id: devices.id })
    ).map((row) => row.id);
    templateIds = (
      await db
        .insert(templates)
        .values(['A', 'B', 'C'].map((name) => ({ name: `Template ${name}` })))
        .returning({ id: templates.id })
    ).map((row) => row.id);
    userIds = (
      await db
        .insert(users)
        .values(
          Array.from({ length: 12 }, (_, i) => ({
            pool: 'regular' as const,
            phone: newPhone(),
            name: `Visitor ${i}`,
          })),
        )
        .returning({ id: users.id })
    ).map((row) => row.id);
    await insertMedia(120);
    await insertPayments(40);
  }, 120_000);

  afterAll(async () => {
    await database.close();
  });

  it('answers as the full passes after inserts', async () => {
    await expectSameAnswers('inserted');
  });

  it('answers as the full passes after edits of every counted column', async () => {
    const db = database.db;
    const ids = (await db.select({ id: media.id }).from(media)).map((row) => row.id);
    for (let i = 0; i < 60; i += 1) {
      const id = pick(ids);
      const change = pick([
        { isShared: rand() < 0.5 },
        { isDownloaded: rand() < 0.5 },
        { isUploaded: rand() < 0.6 },
        { isRepostAllowed: rand() < 0.5 },
        { mediaType: pick(['image', 'video'] as const) },
        { orgId: pick([...orgIds, null]) },
        { deviceId: pick([...deviceIds, null]) },
        { templateId: pick([...templateIds, null]) },
        { userId: pick(userIds) },
        { createdAt: someInstant() },
      ]);
      await db.update(media).set(change).where(eq(media.id, id));
    }
    // One statement changing many rows of the same captures at once.
    await db
      .update(media)
      .set({ isUploaded: true })
      .where(inArray(media.id, ids.slice(0, 40)));
    await db
      .update(media)
      .set({ templateId: templateIds[0]! })
      .where(inArray(media.id, ids.slice(20, 70)));
    await expectSameAnswers('edited');
  });

  it('answers as the full passes after deletions of media, booths, visitors and payments', async () => {
    const db = database.db;
    const ids = (await db.select({ id: media.id }).from(media)).map((row) => row.id);
    await db.delete(media).where(
      inArray(
        media.id,
        ids.filter(() => rand() < 0.2),
      ),
    );
    await db.delete(devices).where(eq(devices.id, deviceIds[0]!));
    await db.delete(templates).where(eq(templates.id, templateIds[1]!));
    deviceIds = deviceIds.slice(1);
    templateIds = templateIds.filter((_, i) => i !== 1);
    await db.delete(users).where(eq(users.id, userIds[0]!));
    userIds = userIds.slice(1);
    const payments = (
      await db.select({ id: paymentTransactions.id }).from(paymentTransactions)
    ).map((row) => row.id);
    await db.delete(paymentTransactions).where(
      inArray(
        paymentTransactions.id,
        payments.filter(() => rand() < 0.2),
      ),
    );
    await expectSameAnswers('deleted');
  });

  it('answers as the full passes after payment and refund changes', async () => {
    const db = database.db;
    const payments = (
      await db.select({ id: paymentTransactions.id }).from(paymentTransactions)
    ).map((row) => row.id);
    for (let i = 0; i < 30; i += 1) {
      const id = pick(payments);
      const change = pick([
        { state: pick(['COMPLETED', 'REFUND_PENDING', 'REFUNDED', 'FAILED'] as const) },
        { completedAt: pick([someInstant(), null]) },
        { amountPaise: 100 * (1 + Math.floor(rand() * 50)) },
        { orgId: pick([...orgIds, null]) },
        { deviceId: pick([...deviceIds, null]) },
      ]);
      await db.update(paymentTransactions).set(change).where(eq(paymentTransactions.id, id));
    }
    const refunds = (await db.select({ id: paymentRefunds.id }).from(paymentRefunds)).map(
      (row) => row.id,
    );
    for (const id of refunds.slice(0, 6)) {
      await db
        .update(paymentRefunds)
        .set({ state: pick(['COMPLETED', 'FAILED', 'PENDING'] as const) })
        .where(eq(paymentRefunds.id, id));
    }
    await db.delete(paymentRefunds).where(inArray(paymentRefunds.id, refunds.slice(6, 9)));
    // A new live refund for payments without one (a failed one may be retried).
    for (const id of payments.slice(0, 5)) {
      const live = await db
        .select({ id: paymentRefunds.id })
        .from(paymentRefunds)
        .where(and(eq(paymentRefunds.transactionId, id), sql`state <> 'FAILED'`));
      if (live.length === 0) await refund(id, 'COMPLETED');
    }
    await expectSameAnswers('payments changed');
  });

  it('answers the same after a rebuild, and a rebuild repairs counters gone wrong', async () => {
    await database.db.execute(sql`update media_daily_counts set media = media + 5`);
    await database.db.execute(sql`delete from org_stat_totals`);
    await database.db.execute(sql`update org_revenue_monthly set payments = payments + 1`);
    const counted = await new StatsRepository(database.db).rebuildCounters();
    expect(counted.media).toBeGreaterThan(0);
    await expectSameAnswers('rebuilt');
    await insertMedia(10);
    await insertPayments(5);
    await expectSameAnswers('inserted after the rebuild');
  });

  it('runs the rebuild as the counters-rebuild job, and plans it in a dry run', async () => {
    const testApp = await startApp(database);
    try {
      await database.db.execute(sql`update media_daily_counts set media = media + 1`);
      const dry = await testApp.app.jobs.runNow('counters-rebuild', { dryRun: true });
      expect(dry.counts.media).toBeGreaterThan(0);
      expect(dry.plan?.[0]).toMatch(/^every counter would be recounted from \d+ uploaded media/);
      await testApp.app.jobs.runNow('counters-rebuild');
      await expectSameAnswers('rebuilt by the job');
    } finally {
      await testApp.app.close();
    }
  });
});
