import {
  can,
  type OrganizationStats,
  type Revenue,
  type RevenueTotal,
  STATS_MESSAGES,
} from '@flashbooth/contracts';
import { forbidden, notFound } from '../../errors.js';
import { paiseToRupees } from '../../lib/time.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import type { UsersService } from '../users/users.service.js';
import type { RevenueRecord, StatsReads } from './stats.repository.js';

export interface StatsServiceOptions {
  repository: StatsReads;
  users: Pick<UsersService, 'staffPrincipal'>;
}

/** A share of a total as a fraction; 0 when the total is 0. */
export const fraction = (part: number, total: number) => (total > 0 ? part / total : 0);

interface Sum {
  payments: number;
  grossPaise: number;
  refundedPaise: number;
}

const empty = (): Sum => ({ payments: 0, grossPaise: 0, refundedPaise: 0 });
const add = (sum: Sum, row: Sum) => {
  sum.payments += row.payments;
  sum.grossPaise += row.grossPaise;
  sum.refundedPaise += row.refundedPaise;
};
const money = (sum: Sum): RevenueTotal => ({
  payments_count: sum.payments,
  gross_rupees: paiseToRupees(sum.grossPaise),
  refunded_rupees: paiseToRupees(sum.refundedPaise),
  revenue_rupees: paiseToRupees(sum.grossPaise - sum.refundedPaise),
});
const boothName = (row: Pick<RevenueRecord, 'deviceId' | 'deviceName'>) =>
  row.deviceName ?? (row.deviceId === null ? 'Deleted booth' : `Booth ${row.deviceId}`);

/** Per booth, per month and in all, from the per-booth-and-month rows. */
export function revenueFrom(rows: readonly RevenueRecord[]): Revenue {
  const total = empty();
  const booths = new Map<number | null, Sum & { name: string }>();
  const months = new Map<string, Sum>();
  for (const row of rows) {
    add(total, row);
    const booth = booths.get(row.deviceId) ?? { ...empty(), name: boothName(row) };
    add(booth, row);
    booths.set(row.deviceId, booth);
    const month = months.get(row.monthStart) ?? empty();
    add(month, row);
    months.set(row.monthStart, month);
  }
  return {
    total: money(total),
    per_booth: [...booths.entries()]
      .map(([deviceId, sum]) => ({ device_id: deviceId, device_name: sum.name, ...money(sum) }))
      .sort(
        (a, b) => b.revenue_rupees - a.revenue_rupees || (a.device_id ?? 0) - (b.device_id ?? 0),
      ),
    per_month: [...months.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([monthStart, sum]) => ({ month_start: monthStart, ...money(sum) })),
    per_booth_month: rows.map((row) => ({
      device_id: row.deviceId,
      device_name: boothName(row),
      month_start: row.monthStart,
      ...money(row),
    })),
  };
}

/**
 * GET organizations/{id}/stats (staff spec sections 2, 3 and 6). Members of the organization and
 * privileged staff may read (`organization.viewStats`); share rate, download rate, repeated users
 * and revenue only the organization's admins and privileged staff
 * (`organization.viewRestrictedStats`): for the others those fields are left out. An
 * organization the caller may not see is "not found" (ids do not leak), as in the organizations
 * module.
 */
export class StatsService {
  constructor(private readonly options: StatsServiceOptions) {}

  async organizationStats(claims: AccessClaims, orgId: number): Promise<OrganizationStats> {
    const { repository, users } = this.options;
    const { principal } = await users.staffPrincipal(claims);
    if (
      !can(principal, 'organization.view', orgId) ||
      !(await repository.organizationExists(orgId))
    ) {
      throw notFound(STATS_MESSAGES.orgNotFound);
    }
    if (!can(principal, 'organization.viewStats', orgId)) throw forbidden(STATS_MESSAGES.forbidden);
    const restricted = can(principal, 'organization.viewRestrictedStats', orgId);

    // Independent aggregates, each on its own pooled connection (a PGlite database runs them
    // one after another anyway).
    const [totals, template, periods, revenue, late, failures] = await Promise.all([
      repository.totals(orgId),
      repository.mostUsedTemplate(orgId),
      repository.mediaPerPeriod(orgId),
      restricted ? repository.revenue(orgId) : undefined,
      repository.lateDeliveries(orgId),
      repository.deliveryFailures(orgId),
    ]);
    const stats: OrganizationStats = {
      total_captures: totals.totalCaptures,
      total_media: totals.totalMedia,
      total_photos: totals.photos,
      total_videos: totals.videos,
      total_shared_media: totals.sharedMedia,
      total_downloaded_media: totals.downloadedMedia,
      total_users_who_captured: totals.usersWhoCaptured,
      late_deliveries: late,
      delivery_failures: failures,
      ...(template
        ? { most_used_template: { name: template.name, usage_count: template.usageCount } }
        : {}),
      media_per_week: periods.week.map((w) => ({ week_start: w.start, count: w.count })),
      media_per_month: periods.month.map((m) => ({ month_start: m.start, count: m.count })),
    };
    if (!revenue) return stats;
    return {
      ...stats,
      share_rate: fraction(totals.sharedMedia, totals.totalMedia),
      download_rate: fraction(totals.downloadedMedia, totals.totalMedia),
      repeated_users: totals.repeatedUsers,
      revenue: revenueFrom(revenue),
    };
  }
}
