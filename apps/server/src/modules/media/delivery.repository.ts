import { sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../db/client.js';
import { deviceErrors } from '../../db/schema.js';
import { NEVER_DELIVERED_REASON } from './captures.repository.js';

/** A booth's delivery figures from the media rows (DeviceDeliverySchema without `days`). */
export interface DeliveryFigures {
  deliveredCount: number;
  medianSeconds: number | null;
  p95Seconds: number | null;
  waitingCount: number;
  lateCount: number;
  oldestWaitingAt: Date | null;
}

/** One item the late sweep marked. */
export interface LateItem {
  id: number;
  deviceId: number | null;
  captureId: string;
  createdAt: Date;
}

/**
 * Items of a capture that may still arrive: the booth accepted the capture (it took the photos)
 * and did not report the session failed. A capture the sweep gave back because nothing arrived
 * in time still counts: its photos may be waiting in the booth's delivery queue.
 */
const MAY_ARRIVE = sql`c.accepted_at is not null and (c.state <> 'failed' or c.failure_reason = ${NEVER_DELIVERED_REASON})`;

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

  /** What `markLate` would mark, read without marking (its count and the first 50 ids). */
  async lateDue(dueBefore: Date, notBefore: Date): Promise<{ count: number; ids: number[] }> {
    const rows = rowsOf<{ id: number; total: number }>(
      await this.db.execute(sql`
        select m.id, count(*) over () as total from media m join captures c on c.capture_id = m.capture_id
        where not m.is_uploaded and m.late_at is null
          and m.created_at < ${dueBefore.toISOString()}::timestamptz
          and m.created_at >= ${notBefore.toISOString()}::timestamptz
          and ${MAY_ARRIVE}
        order by m.created_at, m.id limit 50`),
    );
    return { count: Number(rows[0]?.total ?? 0), ids: rows.map((row) => Number(row.id)) };
  }

  /**
   * Marks items created before `dueBefore` that may still arrive and are not uploaded as late,
   * at most `limit`, and writes one entry per capture to its booth's error log, in one
   * transaction. Rows another instance is marking are skipped, and a marked row is never marked
   * again, so each item is marked and logged once whatever runs the sweep. `notBefore` bounds
   * the scan (items older than that were marked by earlier runs or never could be).
   */
  async markLate(options: {
    dueBefore: Date;
    notBefore: Date;
    at: Date;
    limit: number;
    logMessage: (captureId: string, items: LateItem[]) => string;
  }): Promise<LateItem[]> {
    const { dueBefore, notBefore, at, limit, logMessage } = options;
    return this.db.transaction(async (tx) => {
      const rows = rowsOf<{
        id: number;
        device_id: number | null;
        capture_id: string;
        created_at: string;
      }>(
        await tx.execute(sql`
          with due as (
            select m.id from media m join captures c on c.capture_id = m.capture_id
            where not m.is_uploaded and m.late_at is null
              and m.created_at < ${dueBefore.toISOString()}::timestamptz
              and m.created_at >= ${notBefore.toISOString()}::timestamptz
              and ${MAY_ARRIVE}
            order by m.created_at, m.id
            limit ${limit}
            for update of m skip locked
          )
          update media set late_at = ${at.toISOString()}::timestamptz
          from due where media.id = due.id and media.late_at is null
          returning media.id, media.device_id, media.capture_id,
            to_char(media.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at`),
      );
      const items: LateItem[] = rows.map((row) => ({
        id: row.id,
        deviceId: row.device_id,
        captureId: row.capture_id,
        createdAt: new Date(row.created_at),
      }));
      const byCapture = new Map<string, LateItem[]>();
      for (const item of items) {
        if (item.deviceId === null) continue;
        byCapture.set(item.captureId, [...(byCapture.get(item.captureId) ?? []), item]);
      }
      const entries = [...byCapture].map(([captureId, captured]) => ({
        deviceId: captured[0]!.deviceId!,
        errorMessage: logMessage(captureId, captured),
        createdAt: at,
      }));
      if (entries.length > 0) await tx.insert(deviceErrors).values(entries);
      return items;
    });
  }
}
