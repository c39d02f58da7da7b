/**
 * Organization statistics (staff spec sections 2, 3, 8 and 9): texts, the gap-fill of the weekly
 * and monthly series and the chart date formats. Zod-free, so the web app imports it through
 * `@flashbooth/contracts/rules`.
 */

export const STATS_MESSAGES = {
  loadFailed: 'Failed to load statistics. Please try again.',
  empty: 'No statistics available for this organization.',
  noWeekly: 'No weekly data available to display chart.',
  noMonthly: 'No monthly data available to display chart.',
  noTemplate: 'No data',
  orgNotFound: 'Organization not found.',
  forbidden: 'You are not allowed to view the statistics of this organization.',
} as const;

/** A gap-filled series never has more points than this (spec: "capped at 1000 steps"). */
export const GAP_FILL_MAX_STEPS = 1000;

export type SeriesUnit = 'week' | 'month';

/** One point of a weekly or monthly series: `date` is the period's first day, YYYY-MM-DD. */
export interface SeriesPoint {
  date: string;
  count: number;
}

const DAY_MS = 86_400_000;

function parseUtcDate(iso: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!match) return null;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return Number.isNaN(date.getTime()) ? null : date;
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The Monday (UTC) of the ISO week holding `date` (PostgreSQL's date_trunc('week')). */
export function utcWeekStart(date: Date): Date {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * DAY_MS);
}

/** The first day (UTC) of the month holding `date`. */
export function utcMonthStart(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
}

function periodStart(date: Date, unit: SeriesUnit): Date {
  return unit === 'week' ? utcWeekStart(date) : utcMonthStart(date);
}

function step(date: Date, unit: SeriesUnit, by: number): Date {
  return unit === 'week'
    ? new Date(date.getTime() + by * 7 * DAY_MS)
    : new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + by, 1));
}

/**
 * The series as the charts draw it (spec section 9): every point moved to the start of its week
 * (Monday, UTC) or month, counts of one period added up, and every missing period between the
 * first and the last given count 0. At most GAP_FILL_MAX_STEPS points, from the first one. A
 * single period gets a zero point one period before and one after. Unreadable dates are skipped.
 */
export function gapFill(points: readonly SeriesPoint[], unit: SeriesUnit): SeriesPoint[] {
  const counts = new Map<string, number>();
  for (const point of points) {
    const parsed = parseUtcDate(point.date);
    if (!parsed) continue;
    const key = isoDay(periodStart(parsed, unit));
    counts.set(key, (counts.get(key) ?? 0) + point.count);
  }
  const keys = [...counts.keys()].sort();
  if (keys.length === 0) return [];
  const first = parseUtcDate(keys[0]!)!;
  if (keys.length === 1) {
    return [
      { date: isoDay(step(first, unit, -1)), count: 0 },
      { date: keys[0]!, count: counts.get(keys[0]!)! },
      { date: isoDay(step(first, unit, 1)), count: 0 },
    ];
  }
  const last = keys[keys.length - 1]!;
  const filled: SeriesPoint[] = [];
  for (let i = 0; i < GAP_FILL_MAX_STEPS; i += 1) {
    const date = isoDay(step(first, unit, i));
    if (date > last) break;
    filled.push({ date, count: counts.get(date) ?? 0 });
  }
  return filled;
}

/** Whether a chart has anything to draw (spec: at least one count above 0). */
export function hasPositiveCount(points: readonly SeriesPoint[]): boolean {
  return points.some((point) => point.count > 0);
}

/** A weekly chart label: en-US short month and day in UTC ("Jan 6"). */
export function formatWeekLabel(isoDate: string): string {
  const date = parseUtcDate(isoDate);
  return date
    ? date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })
    : isoDate;
}

/** A monthly chart label: en-US long month and year in UTC ("January 2025"). */
export function formatMonthLabel(isoDate: string): string {
  const date = parseUtcDate(isoDate);
  return date
    ? date.toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' })
    : isoDate;
}

/** A rate (a fraction) as the cards show it: a percentage with one decimal ("42.9%"). */
export function formatRate(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`;
}
