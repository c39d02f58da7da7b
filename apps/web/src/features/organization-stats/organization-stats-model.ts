import type { OrganizationStats } from '@flashbooth/contracts';
import {
  formatMonthLabel,
  formatRate,
  formatWeekLabel,
  gapFill,
  hasPositiveCount,
  type SeriesPoint,
  STATS_MESSAGES,
} from '@flashbooth/contracts/rules';
import { plural } from '@/lib/plural';

/** Messages on this screen hide after 5 s (staff spec section 4). */
export const STATS_STATUS_MS = 5000;

export interface StatCard {
  label: string;
  value: string;
  /** A second line (the most used template's usage count). */
  detail?: string;
}

const count = (value: number) => value.toLocaleString('en-US');

/** The five headline cards (staff spec section 2), then Late Deliveries and Delivery Failures. */
export function headlineCards(stats: OrganizationStats): StatCard[] {
  return [
    { label: 'Total Captures', value: count(stats.total_captures) },
    {
      label: 'Total Media',
      value: count(stats.total_media),
      // By kind (beyond the spec): prints and motion captures.
      detail: `${plural(stats.total_photos, 'photo')} · ${plural(stats.total_videos, 'video')}`,
    },
    { label: 'Shared Media', value: count(stats.total_shared_media) },
    { label: 'Downloaded Media', value: count(stats.total_downloaded_media) },
    { label: 'Users Who Captured', value: count(stats.total_users_who_captured) },
    { label: 'Late Deliveries', value: count(stats.late_deliveries) },
    { label: 'Delivery Failures', value: count(stats.delivery_failures) },
  ];
}

/**
 * The detail cards: Share Rate, Download Rate and Repeated Users when the server sent them (it
 * sends them only to the organization's admins and privileged staff), then Most Used Template
 * (name and usage count, or "No data").
 */
export function detailCards(stats: OrganizationStats): StatCard[] {
  const cards: StatCard[] = [];
  if (stats.share_rate !== undefined) {
    cards.push({ label: 'Share Rate', value: formatRate(stats.share_rate) });
  }
  if (stats.download_rate !== undefined) {
    cards.push({ label: 'Download Rate', value: formatRate(stats.download_rate) });
  }
  if (stats.repeated_users !== undefined) {
    cards.push({ label: 'Repeated Users', value: count(stats.repeated_users) });
  }
  const template = stats.most_used_template;
  cards.push(
    template
      ? {
          label: 'Most Used Template',
          value: template.name,
          detail: plural(template.usage_count, 'use'),
        }
      : { label: 'Most Used Template', value: STATS_MESSAGES.noTemplate },
  );
  return cards;
}

export interface ChartSeries {
  /** The gap-filled points. */
  points: SeriesPoint[];
  /** en-US labels in UTC, one per point. */
  labels: string[];
  counts: number[];
  /** Whether there is anything to draw (a count above 0). */
  drawable: boolean;
  /** The chart's text alternative (its canvas's aria-label). */
  summary: string;
}

function series(
  points: SeriesPoint[],
  unit: 'week' | 'month',
  format: (iso: string) => string,
): ChartSeries {
  const filled = gapFill(points, unit);
  const labels = filled.map((point) => format(point.date));
  const counts = filled.map((point) => point.count);
  const drawable = hasPositiveCount(filled);
  let summary = unit === 'week' ? STATS_MESSAGES.noWeekly : STATS_MESSAGES.noMonthly;
  if (drawable) {
    const total = counts.reduce((sum, value) => sum + value, 0);
    const peak = counts.indexOf(Math.max(...counts));
    summary =
      `Media per ${unit} from ${labels[0]} to ${labels[labels.length - 1]}: ` +
      `${count(total)} in all, most in ${unit === 'week' ? 'the week of ' : ''}${labels[peak]} ` +
      `(${count(counts[peak]!)}).`;
  }
  return { points: filled, labels, counts, drawable, summary };
}

export function weeklySeries(stats: OrganizationStats): ChartSeries {
  return series(
    stats.media_per_week.map((week) => ({ date: week.week_start, count: week.count })),
    'week',
    formatWeekLabel,
  );
}

export function monthlySeries(stats: OrganizationStats): ChartSeries {
  return series(
    stats.media_per_month.map((month) => ({ date: month.month_start, count: month.count })),
    'month',
    formatMonthLabel,
  );
}

/** Rupees with two decimals and Indian digit grouping ("₹1,20,000.00"). */
export function formatRevenue(rupees: number): string {
  return `₹${rupees.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
