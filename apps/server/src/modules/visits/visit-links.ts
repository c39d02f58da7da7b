import { CAPTURE_COUNTDOWN_SECONDS } from '@flashbooth/contracts';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';

/**
 * The writes that keep a visit pointing at its current round (issue 37), each run inside the
 * database transaction that creates the payment or starts the capture it points at, so the visit
 * and the money never disagree. Payments and captures import these; the visits module imports
 * neither of them.
 */

export interface VisitPaymentLink {
  userId: number;
  deviceId: number;
  templateId: number;
  paymentTransactionId: number;
  at: Date;
}

/** The visit's round is this payment (new or reused), for this template. */
export async function linkVisitPayment(executor: Executor, link: VisitPaymentLink) {
  await executor.execute(sql`
    insert into visits (user_id, device_id, template_id, payment_transaction_id,
                        location_confirmed_at, created_at, updated_at)
    values (${link.userId}, ${link.deviceId}, ${link.templateId}, ${link.paymentTransactionId},
            ${link.at}, ${link.at}, ${link.at})
    on conflict (user_id, device_id) do update
       set template_id = excluded.template_id,
           payment_transaction_id = excluded.payment_transaction_id,
           -- A payment started without a capture of this round leaves the last capture behind.
           capture_id = case when visits.payment_transaction_id
                                  is distinct from excluded.payment_transaction_id
                             then null else visits.capture_id end,
           location_confirmed_at = coalesce(visits.location_confirmed_at, excluded.location_confirmed_at),
           updated_at = excluded.updated_at`);
}

export interface VisitCaptureLink {
  userId: number;
  deviceId: number;
  templateId: number;
  captureId: string;
  /** The payment the capture used; null for a free booth or credit (the visit keeps none). */
  paymentTransactionId: number | null;
  at: Date;
}

/** The visit's round is this capture (and the payment it used, if any). */
export async function linkVisitCapture(executor: Executor, link: VisitCaptureLink) {
  await executor.execute(sql`
    insert into visits (user_id, device_id, template_id, payment_transaction_id, capture_id,
                        location_confirmed_at, created_at, updated_at)
    values (${link.userId}, ${link.deviceId}, ${link.templateId}, ${link.paymentTransactionId},
            ${link.captureId}, ${link.at}, ${link.at}, ${link.at})
    on conflict (user_id, device_id) do update
       set template_id = excluded.template_id,
           payment_transaction_id = excluded.payment_transaction_id,
           capture_id = excluded.capture_id,
           location_confirmed_at = coalesce(visits.location_confirmed_at, excluded.location_confirmed_at),
           updated_at = excluded.updated_at`);
}

/** How long after its request an unanswered capture still counts as starting (the command's wait). */
export const CAPTURE_STARTING_SECONDS = 60;
/** After the booth's countdowns and recording, how long it composes, prints and hands over. */
export const CAPTURE_SESSION_MARGIN_SECONDS = 60;

/**
 * Whether the capture `c` (joined) is still at the booth at `at`: open, something not yet
 * arrived, and within its session (a request not yet answered for up to a minute; after the booth
 * accepted, its countdowns, recording and a minute to compose, print and hand over). A capture
 * whose photos wait in the booth's delivery queue beyond that (a network outage) is not running:
 * the booth is free again, and the visitor may start another round; the photos still arrive.
 */
export function captureRunningAt(at: Date) {
  return sql`(c.state in ('requested', 'accepted')
    and exists (select 1 from media m where m.capture_id = c.capture_id and not m.is_uploaded)
    and case when c.accepted_at is null
             then c.created_at > ${at}::timestamptz - ${CAPTURE_STARTING_SECONDS} * interval '1 second'
             else c.accepted_at > ${at}::timestamptz - (coalesce(c.total_captures, 1) * ${CAPTURE_COUNTDOWN_SECONDS}
                    + coalesce(c.record_seconds, 0) + ${CAPTURE_SESSION_MARGIN_SECONDS}) * interval '1 second'
        end)`;
}

/**
 * Whether the capture `c` (joined) is still being started at `at`: requested, not yet accepted
 * by the booth, within the command's wait. Two tabs pressing Capture at the same moment meet
 * here (the second waits for the first's transaction, then finds its capture starting); once the
 * booth has accepted, the booth itself is busy and refuses (booth_busy), and a payment is used
 * once whatever the order.
 */
export function captureStartingAt(at: Date) {
  return sql`(c.state = 'requested'
    and c.created_at > ${at}::timestamptz - ${CAPTURE_STARTING_SECONDS} * interval '1 second'
    and exists (select 1 from media m where m.capture_id = c.capture_id and not m.is_uploaded))`;
}

/**
 * Locks the visitor's visit at this booth (made when missing) for the rest of the transaction and
 * says whether its capture is still being started: two tabs pressing Capture at once start one.
 */
export async function lockVisitForCapture(
  executor: Executor,
  userId: number,
  deviceId: number,
  at: Date,
): Promise<{ captureRunning: boolean }> {
  await ensureVisit(executor, userId, deviceId, at);
  const result = await executor.execute(sql`
    select ${captureStartingAt(at)} as running
      from visits v
      left join captures c on c.capture_id = v.capture_id
     where v.user_id = ${userId} and v.device_id = ${deviceId}
       for update of v`);
  const [row] = (result as { rows: { running: boolean | null }[] }).rows;
  return { captureRunning: Boolean(row?.running) };
}

/** The visitor's visit at this booth, made (location confirmed now) when there is none yet. */
export async function ensureVisit(executor: Executor, userId: number, deviceId: number, at: Date) {
  await executor.execute(sql`
    insert into visits (user_id, device_id, location_confirmed_at, created_at, updated_at)
    values (${userId}, ${deviceId}, ${at}, ${at}, ${at})
    on conflict (user_id, device_id) do nothing`);
}
