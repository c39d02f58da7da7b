import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client.js';
import {
  type PeriodCount,
  type RevenueRecord,
  type StatsReads,
  StatsRepository,
  type StatsTotals,
  type TemplateUsage,
  totalsOf,
} from './stats.repository.js';

const int = (value: unknown) => Number(value ?? 0);

/**
 * The statistics as full passes over the rows (the rest, such as late deliveries, read as the
 * counters' repository reads them) (before migration 0023's counters; kept as the
 * reference the counters are checked against: test/stats/stats-counters.int.test.ts, and
 * `npm run jobs -- counters-rebuild --dry-run`). Definitions in docs/reference/server.md,
 * "Organization statistics". An
 * organization's media are the uploaded media rows whose `org_id` is the organization (the
 * organization of the booth when the photo was taken; it stays with it when a booth moves); its
 * captures are their distinct `capture_id`s. The totals read the organization's range of
 * `media_org_captures_idx` in order; the periods are one pass over its media, `date_trunc` in
 * UTC. The service runs them side by side (docs/benchmarks.md,
 * "Staff media views and statistics").
 */
export class FullPassStatsRepository extends StatsRepository implements StatsReads {
  /**
   * The totals in one pass over `media_org_captures_idx` (the organization's uploaded media by
   * visitor and capture): per visitor their distinct captures and their media, then the sums. A
   * capture belongs to one visitor, so the visitors' distinct captures add up to the
   * organization's.
   */
  override async totals(orgId: number): Promise<StatsTotals> {
    const result = await this.db.execute(sql`
      with per_user as (
        select user_id,
               count(distinct capture_id) as captures,
               count(*) as media,
               count(*) filter (where media_type = 'image') as photos,
               count(*) filter (where media_type = 'video') as videos,
               count(*) filter (where is_shared) as shared,
               count(*) filter (where is_downloaded) as downloaded
          from media
         where org_id = ${orgId} and is_uploaded
         group by user_id
      )
      select coalesce(sum(captures), 0) as total_captures,
             coalesce(sum(media), 0) as total_media,
             coalesce(sum(photos), 0) as photos,
             coalesce(sum(videos), 0) as videos,
             coalesce(sum(shared), 0) as shared_media,
             coalesce(sum(downloaded), 0) as downloaded_media,
             count(*) as users_who_captured,
             count(*) filter (where captures >= 2) as repeated_users
        from per_user`);
    return totalsOf(result);
  }

  /** The template most captures used (ties: the lowest id); null when none names one. */
  override async mostUsedTemplate(orgId: number): Promise<TemplateUsage | null> {
    const result = await this.db.execute(sql`
      select t.name, u.usage_count
        from (
          select template_id, count(distinct capture_id) as usage_count
            from media
           where org_id = ${orgId} and is_uploaded and template_id is not null
           group by template_id
        ) u
        join templates t on t.id = u.template_id
       order by u.usage_count desc, t.id
       limit 1`);
    const [row] = rowsOf<{ name: string; usage_count: unknown }>(result);
    return row ? { name: row.name, usageCount: int(row.usage_count) } : null;
  }

  /**
   * Media per week (Monday, UTC) and per month, only the periods that have media, oldest first.
   * One pass over the organization's media counts them per day; weeks and months are sums of
   * those days (a day lies in one week and one month).
   */
  override async mediaPerPeriod(
    orgId: number,
  ): Promise<{ week: PeriodCount[]; month: PeriodCount[] }> {
    const result = await this.db.execute(sql`
      with days as (
        select date_trunc('day', created_at at time zone 'UTC') as day, count(*) as n
          from media
         where org_id = ${orgId} and is_uploaded
         group by 1
      )
      select 'week' as unit, to_char(date_trunc('week', day), 'YYYY-MM-DD') as start, sum(n) as count
        from days group by 2
      union all
      select 'month', to_char(date_trunc('month', day), 'YYYY-MM-DD'), sum(n)
        from days group by 2
      order by 1, 2`);
    const periods = { week: [] as PeriodCount[], month: [] as PeriodCount[] };
    for (const row of rowsOf<{ unit: 'week' | 'month'; start: unknown; count: unknown }>(result)) {
      periods[row.unit].push({ start: String(row.start), count: int(row.count) });
    }
    return periods;
  }

  /**
   * Payments per booth and month (UTC, by completion): every payment for the organization that
   * the provider completed (still COMPLETED, or refunded since / being refunded), its amount
   * charged at the provider (`amount_paise`: the credit a payment held is not money received),
   * and its refunds that did not fail (to the payment method or as credit, pending or done).
   */
  override async revenue(orgId: number): Promise<RevenueRecord[]> {
    const result = await this.db.execute(sql`
      select p.device_id, d.name as device_name,
             to_char(date_trunc('month', p.completed_at at time zone 'UTC'), 'YYYY-MM-DD') as month_start,
             count(*) as payments,
             sum(p.amount_paise) as gross_paise,
             coalesce(sum(r.refunded_paise), 0) as refunded_paise
        from payment_transactions p
        left join devices d on d.id = p.device_id
        left join lateral (
          select sum(amount_paise) as refunded_paise
            from payment_refunds
           where transaction_id = p.id and state <> 'FAILED'
        ) r on true
       where p.org_id = ${orgId}
         and p.completed_at is not null
         and p.state in ('COMPLETED', 'REFUND_PENDING', 'REFUNDED')
       group by p.device_id, d.name, 3
       order by 3, p.device_id`);
    return rowsOf<Record<string, unknown>>(result).map((row) => ({
      deviceId: row.device_id === null ? null : int(row.device_id),
      deviceName: (row.device_name as string | null) ?? null,
      monthStart: String(row.month_start),
      payments: int(row.payments),
      grossPaise: int(row.gross_paise),
      refundedPaise: int(row.refunded_paise),
    }));
  }
}
