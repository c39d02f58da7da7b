import { sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../db/client.js';
import { NEVER_DELIVERED_REASON } from './captures.repository.js';
import { DELIVERY_FAILED_REASON } from './delivery-policy.js';

/** A booth's delivery figures from the media rows (DeviceDeliverySchema without `days`). */
export interface DeliveryFigures {
  deliveredCount: number;
  medianSeconds: number | null;
  p95Seconds: number | null;
  waitingCount: number;
  lateCount: number;
  oldestWaitingAt: Date | null;
}

/**
 * Items of a capture that may still arrive: the booth accepted the capture (it took the photos)
 * and did not report the session failed. A capture that failed its delivery promise still
 * counts: its photos may be waiting in the booth's delivery queue.
 */
const MAY_ARRIVE = sql`c.accepted_at is not null and (c.state <> 'failed' or c.failure_reason in (${NEVER_DELIVERED_REASON}, ${DELIVERY_FAILED_REASON}))`;

const toDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : new Date(value as string);

/** Delivery measured per item (issue 22): when each capture ended and when it arrived. */
export class DeliveryRepository {
  constructor(private readonly db: Database) {}

  /**
   * The booth's deliveries confirmed since `since` (from the end of the capture, or the item's
   * creation when the booth did not say, to the confirmation) and its items still waiting.
   */
  async deviceFigures(deviceId: number, since: Date): Promise<DeliveryFigures> {
    const delivered = rowsOf<{ count: number; median: number | null; p95: number | null }>(
      await this.db.execute(sql`
        select count(*)::int as count,
          percentile_cont(0.5) within group (order by seconds) as median,
          percentile_cont(0.95) within group (order by seconds) as p95
        from (
          select greatest(0, extract(epoch from m.uploaded_at - coalesce(m.captured_at, m.created_at)))::float8 as seconds
          from media m
          where m.device_id = ${deviceId} and m.uploaded_at is not null and m.uploaded_at >= ${since.toISOString()}::timestamptz
        ) as d`),
    )[0]!;
    const waiting = rowsOf<{ count: number; late: number; oldest: string | null }>(
      await this.db.execute(sql`
        select count(*)::int as count,
          (count(*) filter (where m.late_at is not null))::int as late,
          to_char(min(m.created_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as oldest
        from media m join captures c on c.capture_id = m.capture_id
        where m.device_id = ${deviceId} and not m.is_uploaded and ${MAY_ARRIVE}`),
    )[0]!;
    const seconds = (value: number | null) =>
      value === null ? null : Math.round(Number(value) * 10) / 10;
    return {
      deliveredCount: Number(delivered.count),
      medianSeconds: seconds(delivered.median),
      p95Seconds: seconds(delivered.p95),
      waitingCount: Number(waiting.count),
      lateCount: Number(waiting.late),
      oldestWaitingAt: toDate(waiting.oldest),
    };
  }
}
