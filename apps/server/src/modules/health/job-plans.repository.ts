import { sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../db/client.js';

/** A dry run's answer: how many items a job would take now, and the first few ids. */
export interface PlannedWork {
  count: number;
  ids: number[];
}

/** Ids listed in a plan at most (the count is always complete). */
const PLAN_IDS = 50;

/**
 * Read-only questions behind the dry runs of the jobs that drive other modules' work (previews,
 * payments, rollouts): the same conditions those jobs claim their rows with, without claiming.
 */
export class JobPlansRepository {
  constructor(private readonly db: Database) {}

  private async planned(query: ReturnType<typeof sql>): Promise<PlannedWork> {
    const rows = rowsOf<{ id: number; total: number }>(await this.db.execute(query));
    return { count: Number(rows[0]?.total ?? 0), ids: rows.map((row) => Number(row.id)) };
  }

  /** Uploaded items without a preview that a preview sweep would claim now. */
  previewsDue(at: Date, maxAttempts: number): Promise<PlannedWork> {
    return this.planned(sql`
      select id, count(*) over () as total from media
       where is_uploaded and lowres_key is null and preview_error is null
         and preview_attempts < ${maxAttempts}
         and (preview_claimed_until is null or preview_claimed_until <= ${at.toISOString()}::timestamptz)
       order by id limit ${PLAN_IDS}`);
  }

  /** Pending payments due for a check with this provider. */
  paymentsDue(provider: string, at: Date): Promise<PlannedWork> {
    return this.planned(sql`
      select id, count(*) over () as total from payment_transactions
       where state = 'PENDING' and provider = ${provider}
         and next_check_at <= ${at.toISOString()}::timestamptz
       order by next_check_at, id limit ${PLAN_IDS}`);
  }

  /** Pending refunds to the payment method due for a check. */
  refundsDue(at: Date): Promise<PlannedWork> {
    return this.planned(sql`
      select id, count(*) over () as total from payment_refunds
       where state = 'PENDING' and next_check_at <= ${at.toISOString()}::timestamptz
       order by next_check_at, id limit ${PLAN_IDS}`);
  }

  /** COMPLETED payments no capture used, completed at or before `completedBy`. */
  unusedPayments(completedBy: Date): Promise<PlannedWork> {
    return this.planned(sql`
      select id, count(*) over () as total from payment_transactions
       where state = 'COMPLETED' and consumed_capture_id is null
         and completed_at <= ${completedBy.toISOString()}::timestamptz
       order by completed_at, id limit ${PLAN_IDS}`);
  }

  /** Rollouts the driver would drive (running or paused), with their booths still to update. */
  async activeRollouts(): Promise<{ id: number; state: string; waiting: number }[]> {
    const rows = rowsOf<{ id: number; state: string; waiting: number }>(
      await this.db.execute(sql`
        select r.id, r.state,
          (select count(*) from rollout_devices d
            where d.rollout_id = r.id and d.state in ('pending', 'updating'))::int as waiting
          from rollouts r where r.state in ('running', 'paused') order by r.id`),
    );
    return rows.map((row) => ({
      id: Number(row.id),
      state: row.state,
      waiting: Number(row.waiting),
    }));
  }
}
