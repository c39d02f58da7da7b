import { sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.js';
import { rowsOf } from '../../db/client.js';
import { captureRunningAt, ensureVisit } from './visit-links.js';

/** One read of a visit: the visit row, its template, payment and capture (issue 37). */
export interface VisitRecord {
  templateId: number | null;
  templateName: string | null;
  templateKind: string | null;
  locationConfirmedAt: Date | null;
  updatedAt: Date | null;
  payment: {
    id: number;
    state: string;
    failureReason: string | null;
    amountPaise: number;
    creditPaise: number;
    paymentUrl: string | null;
    expiresAt: Date;
    updatedAt: Date;
    consumed: boolean;
    refundedToCredit: boolean;
  } | null;
  capture: {
    captureId: string;
    state: string;
    templateId: number | null;
    captureKind: string | null;
    totalCaptures: number | null;
    recordSeconds: number | null;
    chargedPaise: number;
    createdAt: Date;
    acceptedAt: Date | null;
    finishedAt: Date | null;
    mediaIds: number[];
    uploaded: number;
  } | null;
}

interface VisitSqlRow {
  template_id: number | null;
  template_name: string | null;
  template_kind: string | null;
  location_confirmed_at: Date | string | null;
  updated_at: Date | string | null;
  p_id: number | null;
  p_state: string | null;
  p_failure_reason: string | null;
  p_amount_paise: number | null;
  p_credit_paise: number | null;
  p_payment_url: string | null;
  p_expires_at: Date | string | null;
  p_updated_at: Date | string | null;
  p_consumed: boolean | null;
  p_refunded_to_credit: boolean | null;
  c_id: string | null;
  c_state: string | null;
  c_template_id: number | null;
  c_capture_kind: string | null;
  c_total_captures: number | null;
  c_record_seconds: number | null;
  c_charged_paise: number | null;
  c_created_at: Date | string | null;
  c_accepted_at: Date | string | null;
  c_finished_at: Date | string | null;
  c_media_ids: (number | string)[] | null;
  c_uploaded: number | string | null;
}

const date = (value: Date | string | null): Date | null =>
  value === null ? null : value instanceof Date ? value : new Date(value);

/**
 * The payment a visit shows: an unused paid payment of this visitor at this booth first (a
 * paid payment is never hidden from its payer, even one made before visits existed or a second
 * one two tabs started at once), otherwise the visit's own.
 */
const PAYMENT_OF_VISIT = sql`
  coalesce(
    (select o.id from payment_transactions o
      where o.user_id = v.user_id and o.device_id = v.device_id
        and o.state = 'COMPLETED' and o.consumed_capture_id is null
      order by o.completed_at, o.id limit 1),
    v.payment_transaction_id)`;

export class VisitsRepository {
  constructor(private readonly db: Database) {}

  /** The visit of this visitor at this booth with everything its screens show, in one read. */
  async current(
    userId: number,
    deviceId: number,
    executor: Executor = this.db,
  ): Promise<VisitRecord | null> {
    const result = await executor.execute(sql`
      with v as (
        select * from visits where user_id = ${userId} and device_id = ${deviceId}
        union all
        -- No visit row yet: an unused paid payment at this booth still shows.
        select ${userId}::int, ${deviceId}::int, null::int, null::int, null::uuid,
               null::timestamptz, null::timestamptz, null::timestamptz
         where not exists (select 1 from visits where user_id = ${userId} and device_id = ${deviceId})
      ), vp as (
        select v.*, ${PAYMENT_OF_VISIT} as shown_payment_id from v
      )
      select vp.template_id, t.name as template_name, t.capture_kind as template_kind,
             vp.location_confirmed_at, vp.updated_at,
             p.id as p_id, p.state as p_state, p.failure_reason as p_failure_reason,
             p.amount_paise as p_amount_paise, p.credit_paise as p_credit_paise,
             p.payment_url as p_payment_url, p.expires_at as p_expires_at,
             p.updated_at as p_updated_at, (p.consumed_capture_id is not null) as p_consumed,
             exists (select 1 from payment_refunds r
                      where r.transaction_id = p.id and r.destination = 'credit'
                        and r.state = 'COMPLETED') as p_refunded_to_credit,
             c.capture_id as c_id, c.state as c_state, c.template_id as c_template_id,
             c.capture_kind as c_capture_kind, c.total_captures as c_total_captures,
             c.record_seconds as c_record_seconds, c.charged_paise as c_charged_paise,
             c.created_at as c_created_at, c.accepted_at as c_accepted_at,
             c.finished_at as c_finished_at,
             (select coalesce(array_agg(m.id order by m.id), '{}') from media m
               where m.capture_id = c.capture_id) as c_media_ids,
             (select count(*) from media m
               where m.capture_id = c.capture_id and m.is_uploaded) as c_uploaded
        from vp
        left join templates t on t.id = vp.template_id
        left join payment_transactions p on p.id = vp.shown_payment_id
        left join captures c on c.capture_id = vp.capture_id`);
    const [row] = rowsOf<VisitSqlRow>(result);
    if (!row) return null;
    if (row.updated_at === null && row.p_id === null) return null;
    return {
      templateId: row.template_id,
      templateName: row.template_name,
      templateKind: row.template_kind,
      locationConfirmedAt: date(row.location_confirmed_at),
      updatedAt: date(row.updated_at),
      payment:
        row.p_id === null
          ? null
          : {
              id: Number(row.p_id),
              state: row.p_state!,
              failureReason: row.p_failure_reason,
              amountPaise: Number(row.p_amount_paise),
              creditPaise: Number(row.p_credit_paise),
              paymentUrl: row.p_payment_url,
              expiresAt: date(row.p_expires_at)!,
              updatedAt: date(row.p_updated_at)!,
              consumed: Boolean(row.p_consumed),
              refundedToCredit: Boolean(row.p_refunded_to_credit),
            },
      capture:
        row.c_id === null
          ? null
          : {
              captureId: row.c_id,
              state: row.c_state!,
              templateId: row.c_template_id,
              captureKind: row.c_capture_kind,
              totalCaptures: row.c_total_captures === null ? null : Number(row.c_total_captures),
              recordSeconds: row.c_record_seconds === null ? null : Number(row.c_record_seconds),
              chargedPaise: Number(row.c_charged_paise ?? 0),
              createdAt: date(row.c_created_at)!,
              acceptedAt: date(row.c_accepted_at),
              finishedAt: date(row.c_finished_at),
              mediaIds: (row.c_media_ids ?? []).map(Number),
              uploaded: Number(row.c_uploaded ?? 0),
            },
    };
  }

  /**
   * Yes, I'm Here and a template pick (POST devices/{id}/visit), in one transaction with the
   * visit row locked:
   * - a capture still running keeps its template (`capture_in_progress` for another one);
   * - a finished capture starts a new round: the visit lets it go;
   * - an open payment (pending with its checkout open, or paid and unused) stays with the visit
   *   and moves to the picked template (the price is the booth's); a payment that is over
   *   (used, failed, cancelled, expired, credited) is let go.
   * Returns 'capture_in_progress' when the pick was refused, otherwise 'ok'.
   */
  async pick(input: {
    userId: number;
    deviceId: number;
    templateId: number | undefined;
    at: Date;
  }): Promise<'ok' | 'capture_in_progress'> {
    const { userId, deviceId, templateId, at } = input;
    return this.db.transaction(async (tx) => {
      await ensureVisit(tx, userId, deviceId, at);
      const [visit] = rowsOf<{
        template_id: number | null;
        capture_id: string | null;
        capture_open: boolean | null;
        payment_id: number | null;
      }>(
        await tx.execute(sql`
          select v.template_id, v.capture_id,
                 ${captureRunningAt(at)} as capture_open,
                 ${PAYMENT_OF_VISIT} as payment_id
            from visits v
            left join captures c on c.capture_id = v.capture_id
           where v.user_id = ${userId} and v.device_id = ${deviceId}
             for update of v`),
      );
      if (!visit) throw new Error(`visit of user ${userId} at device ${deviceId} vanished`);
      const picked = templateId ?? null;
      if (visit.capture_open && picked !== null && picked !== visit.template_id) {
        return 'capture_in_progress' as const;
      }
      // Yes, I'm Here alone, or the running capture's own template again: nothing else moves.
      if (visit.capture_open || picked === null) {
        await tx.execute(sql`
          update visits set location_confirmed_at = ${at}, updated_at = ${at}
           where user_id = ${userId} and device_id = ${deviceId}`);
        return 'ok' as const;
      }
      // The payment stays when it is still open, and follows the pick.
      let paymentId: number | null = null;
      if (visit.payment_id !== null) {
        const moved = rowsOf<{ id: number }>(
          await tx.execute(sql`
            update payment_transactions
               set template_id = ${picked}, updated_at = ${at}
             where id = ${visit.payment_id}
               and ((state = 'COMPLETED' and consumed_capture_id is null)
                    or (state = 'PENDING' and expires_at > ${at}))
            returning id`),
        );
        if (moved.length > 0) paymentId = Number(moved[0]!.id);
      }
      await tx.execute(sql`
        update visits
           set template_id = ${picked},
               payment_transaction_id = ${paymentId},
               capture_id = null,
               location_confirmed_at = ${at},
               updated_at = ${at}
         where user_id = ${userId} and device_id = ${deviceId}`);
      return 'ok' as const;
    });
  }
}
