import { sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../db/client.js';

export interface StatsTotals {
  totalCaptures: number;
  totalMedia: number;
  /** Media by kind: photos (prints) and videos (motion captures). */
  photos: number;
  videos: number;
  sharedMedia: number;
  downloadedMedia: number;
  usersWhoCaptured: number;
  repeatedUsers: number;
}

export interface TemplateUsage {
  name: string;
  usageCount: number;
}

export interface PeriodCount {
  /** The period's first day, YYYY-MM-DD (UTC). */
  start: string;
  count: number;
}

export interface RevenueRecord {
  deviceId: number | null;
  deviceName: string | null;
  monthStart: string;
  payments: number;
  grossPaise: number;
  refundedPaise: number;
}

const int = (value: unknown) => Number(value ?? 0);

/** The totals query's one row (its columns named as in both queries) as `StatsTotals`. */
export function totalsOf(result: unknown): StatsTotals {
  const [row] = rowsOf<Record<string, unknown>>(result);
  return {
    totalCaptures: int(row?.total_captures),
    totalMedia: int(row?.total_media),
    photos: int(row?.photos),
    videos: int(row?.videos),
    sharedMedia: int(row?.shared_media),
    downloadedMedia: int(row?.downloaded_media),
    usersWhoCaptured: int(row?.users_who_captured),
    repeatedUsers: int(row?.repeated_users),
  };
}

/** What the statistics read (from the counters, or in full passes: stats.full-pass.ts). */
export type StatsReads = Omit<StatsRepository, 'rebuildCounters' | 'rowsToRecount'>;

/**
 * The statistics queries (definitions in docs/reference/server.md, "Organization statistics"),
 * read from the counters of migration 0023, which triggers keep exact in the transaction of every
 * change to media, payments and refunds: an organization's media are its uploaded media rows (the
 * organization of the booth when the photo was taken; it stays with it when a booth moves), per
 * booth and day in `media_daily_counts`; its captures, visitors and repeated visitors in
 * `org_stat_totals`; captures per template in `org_template_counts`; revenue per booth and month
 * in `org_revenue_monthly`. Each answer reads one organization's few rows, not its media
 * (docs/benchmarks.md, "The public wall"). `FullPassStatsRepository` (stats.full-pass.ts) is the
 * same answer from the rows.
 */
export class StatsRepository {
  constructor(protected readonly db: Database) {}

  async organizationExists(orgId: number): Promise<boolean> {
    const result = await this.db.execute(sql`select 1 from organizations where id = ${orgId}`);
    return rowsOf(result).length > 0;
  }

  /** The media sums of the organization's days, with its capture and visitor totals. */
  async totals(orgId: number): Promise<StatsTotals> {
    const result = await this.db.execute(sql`
      select coalesce(sum(d.media), 0) as total_media,
             coalesce(sum(d.photos), 0) as photos,
             coalesce(sum(d.videos), 0) as videos,
             coalesce(sum(d.shared), 0) as shared_media,
             coalesce(sum(d.downloaded), 0) as downloaded_media,
             (select captures from org_stat_totals where org_id = ${orgId}) as total_captures,
             (select users from org_stat_totals where org_id = ${orgId}) as users_who_captured,
             (select repeated_users from org_stat_totals where org_id = ${orgId}) as repeated_users
        from media_daily_counts d
       where d.org_id = ${orgId}`);
    return totalsOf(result);
  }

  /** The organization's items marked late (not delivered an hour after their capture). */
  async lateDeliveries(orgId: number): Promise<number> {
    const result = await this.db.execute(
      sql`select count(*) as late from media where org_id = ${orgId} and late_at is not null`,
    );
    return int(rowsOf<{ late: unknown }>(result)[0]?.late);
  }

  /** The organization's captures closed as delivery failures (refunded by the server). */
  async deliveryFailures(orgId: number): Promise<number> {
    const result = await this.db.execute(
      sql`select count(*) as failures from delivery_failures where org_id = ${orgId}`,
    );
    return int(rowsOf<{ failures: unknown }>(result)[0]?.failures);
  }

  /** The template most captures used (ties: the lowest id); null when none names one. */
  async mostUsedTemplate(orgId: number): Promise<TemplateUsage | null> {
    const result = await this.db.execute(sql`
      select t.name, c.captures as usage_count
        from org_template_counts c
        join templates t on t.id = c.template_id
       where c.org_id = ${orgId}
       order by c.captures desc, t.id
       limit 1`);
    const [row] = rowsOf<{ name: string; usage_count: unknown }>(result);
    return row ? { name: row.name, usageCount: int(row.usage_count) } : null;
  }

  /**
   * Media per week (Monday, UTC) and per month, only the periods that have media, oldest first:
   * sums of the organization's days (a day lies in one week and one month).
   */
  async mediaPerPeriod(orgId: number): Promise<{ week: PeriodCount[]; month: PeriodCount[] }> {
    const result = await this.db.execute(sql`
      with days as (
        select day::timestamp as day, sum(media) as n
          from media_daily_counts
         where org_id = ${orgId}
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
   * Payments per booth and month (UTC, by completion), from `org_revenue_monthly`: every payment
   * for the organization that the provider completed (still COMPLETED, or refunded since / being
   * refunded), its amount charged at the provider (`amount_paise`: the credit a payment held is
   * not money received), and its refunds that did not fail. Booth 0 is a deleted booth.
   */
  async revenue(orgId: number): Promise<RevenueRecord[]> {
    const result = await this.db.execute(sql`
      select nullif(r.device_id, 0) as device_id, d.name as device_name,
             to_char(r.month, 'YYYY-MM-DD') as month_start,
             r.payments, r.gross_paise, r.refunded_paise
        from org_revenue_monthly r
        left join devices d on d.id = nullif(r.device_id, 0)
       where r.org_id = ${orgId}
       order by r.month, nullif(r.device_id, 0)`);
    return rowsOf<Record<string, unknown>>(result).map((row) => ({
      deviceId: row.device_id === null ? null : int(row.device_id),
      deviceName: (row.device_name as string | null) ?? null,
      monthStart: String(row.month_start),
      payments: int(row.payments),
      grossPaise: int(row.gross_paise),
      refundedPaise: int(row.refunded_paise),
    }));
  }

  /**
   * Every counter recounted from the rows (migration 0023's `media_counters_rebuild`, which holds
   * off writes to media, payments and refunds meanwhile); how many rows it read.
   */
  async rebuildCounters(): Promise<{ media: number; payments: number }> {
    const read = await this.rowsToRecount();
    await this.db.execute(sql`select media_counters_rebuild()`);
    return read;
  }

  /** How many uploaded media and completed payments a recount reads. */
  async rowsToRecount(): Promise<{ media: number; payments: number }> {
    const result = await this.db.execute(sql`
      select (select count(*) from media where is_uploaded) as media,
             (select count(*) from payment_transactions where completed_at is not null) as payments`);
    const [row] = rowsOf<{ media: unknown; payments: unknown }>(result);
    return { media: int(row?.media), payments: int(row?.payments) };
  }
}
