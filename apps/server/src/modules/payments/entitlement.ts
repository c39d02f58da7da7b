import { sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.js';

export interface PaidEntitlementClaim {
  userId: number;
  deviceId: number;
  templateId: number;
  /** The capture that uses the payment (its uuid); a capture can use at most one payment. */
  captureId: string;
  /** When the capture used it; defaults to the database's clock. */
  at?: Date;
}

export interface ConsumedPayment {
  transactionId: number;
  /** Paid to the provider. */
  amountPaise: number;
  /** Credit the payment held; the entitlement is worth amount + credit (the price). */
  creditPaise: number;
}

/**
 * Uses one unused COMPLETED payment of this visitor for this booth and template, the oldest
 * first, for `captureId`. Atomic: one conditional UPDATE. A payment row another transaction holds
 * is waited for, not skipped: that may be a concurrent capture taking it (then the row no longer
 * qualifies once it commits, and the next payment is taken: PostgreSQL re-checks a locked row and
 * moves on below the LIMIT), but also a settle that found the payment already COMPLETED and
 * changes nothing (the webhook and the visitor's status check racing), and skipping the row then
 * asked a visitor who had paid to pay again (found by npm run bench:cluster under load). So
 * concurrent captures never share a payment, and a second payment is still found. Returns the
 * payment used, or null when there is none (the caller falls back to credit or refuses). Call it
 * inside the capture's database transaction so a rollback gives the payment back.
 */
export async function consumePaidEntitlement(
  executor: Executor,
  claim: PaidEntitlementClaim,
): Promise<ConsumedPayment | null> {
  const at = claim.at ?? null;
  const result = await executor.execute(sql`
    update payment_transactions
       set consumed_capture_id = ${claim.captureId},
           consumed_at = coalesce(${at}::timestamptz, now()),
           updated_at = coalesce(${at}::timestamptz, now())
     where id = (
             select id from payment_transactions
              where user_id = ${claim.userId}
                and device_id = ${claim.deviceId}
                and template_id = ${claim.templateId}
                and state = 'COMPLETED'
                and consumed_capture_id is null
              order by completed_at, id
              limit 1
                for update
           )
       and state = 'COMPLETED'
       and consumed_capture_id is null
    returning id, amount_paise, credit_paise`);
  const [row] = rowsOf<{ id: number; amount_paise: number; credit_paise: number }>(result);
  return row
    ? {
        transactionId: Number(row.id),
        amountPaise: Number(row.amount_paise),
        creditPaise: Number(row.credit_paise),
      }
    : null;
}

/**
 * Gives the payment used by `captureId` back (the capture delivered nothing), so the visitor may
 * capture again with it. Idempotent: a second call, or a capture that used no payment, changes
 * nothing. Returns the transaction id given back, or null. A payment refunded in the meantime
 * stays refunded: only COMPLETED payments entitle a capture. Credit the payment held stays held
 * by it (it is part of the entitlement given back).
 */
export async function releasePaidEntitlement(
  executor: Executor,
  captureId: string,
  at?: Date,
): Promise<number | null> {
  const result = await executor.execute(sql`
    update payment_transactions
       set consumed_capture_id = null,
           consumed_at = null,
           updated_at = coalesce(${at ?? null}::timestamptz, now())
     where consumed_capture_id = ${captureId}
    returning id`);
  const [row] = rowsOf<{ id: number }>(result);
  return row ? Number(row.id) : null;
}

/**
 * Whether the visitor holds an unused COMPLETED payment for this booth and template (what
 * `consumePaidEntitlement` would take), read without taking it: the capture screen's question
 * "may I press Capture?" before the press.
 */
export async function hasPaidEntitlement(
  executor: Executor,
  claim: Pick<PaidEntitlementClaim, 'userId' | 'deviceId' | 'templateId'>,
): Promise<boolean> {
  const result = await executor.execute(sql`
    select 1 as found from payment_transactions
     where user_id = ${claim.userId}
       and device_id = ${claim.deviceId}
       and template_id = ${claim.templateId}
       and state = 'COMPLETED'
       and consumed_capture_id is null
     limit 1`);
  return rowsOf(result).length > 0;
}
