import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../db/client.js';
import { deliveryFailures, type DeliveryFailureRow, paymentRefunds } from '../../db/schema.js';
import type { DeliveryNoticeRow, DeliveryNotices } from '../payments/payments.service.js';

/** A delivery failure whose SMS is due, with what the message says. */
export interface DueNotice {
  failure: DeliveryFailureRow;
  phone: string;
  boothName: string | null;
  /** Credit the payment held (given back as credit with a refund to the payment method). */
  heldCreditPaise: number;
}

/** Rows leased per batch. */
const BATCH = 50;

/**
 * delivery_failures: the refunds still to send to the provider and the SMS still to send, each
 * leased by one instance at a time (`FOR UPDATE SKIP LOCKED` and a next-attempt time), and
 * marked done once, so neither happens twice whatever runs the delivery job.
 */
export class DeliveryFailuresRepository implements DeliveryNotices {
  constructor(private readonly db: Database) {}

  /** Refunds to the payment method not yet taken by the provider, leased until `leaseUntil`. */
  async claimUnsentRefunds(at: Date, leaseUntil: Date): Promise<DeliveryFailureRow[]> {
    return this.claim(
      and(
        eq(deliveryFailures.refund, 'payment'),
        isNull(deliveryFailures.refundSentAt),
        sql`(${deliveryFailures.refundNextAttemptAt} is null or ${deliveryFailures.refundNextAttemptAt} <= ${at.toISOString()}::timestamptz)`,
      )!,
      { refundNextAttemptAt: leaseUntil },
    );
  }

  /**
   * The provider has the refund (or it became credit): never sent again, and the reconciler
   * checks on a pending one from now on.
   */
  async refundSent(captureId: string, outcome: 'sent' | 'credit', at: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(deliveryFailures)
        .set({
          refundSentAt: at,
          ...(outcome === 'credit' ? { refund: 'credit' as const } : {}),
        })
        .where(
          and(eq(deliveryFailures.captureId, captureId), isNull(deliveryFailures.refundSentAt)),
        )
        .returning();
      if (row?.merchantRefundId && outcome === 'sent') {
        await tx
          .update(paymentRefunds)
          .set({ nextCheckAt: at })
          .where(
            and(
              eq(paymentRefunds.merchantRefundId, row.merchantRefundId),
              eq(paymentRefunds.state, 'PENDING'),
            ),
          );
      }
    });
  }

  /**
   * SMS due: not sent, not leased, and (a refund to the payment method) only once the provider
   * has the refund, so the message says what really happened. Leased until `leaseUntil`.
   */
  async claimDueNotices(at: Date, leaseUntil: Date): Promise<DueNotice[]> {
    const claimed = await this.claim(
      and(
        isNull(deliveryFailures.smsSentAt),
        sql`(${deliveryFailures.smsNextAttemptAt} is null or ${deliveryFailures.smsNextAttemptAt} <= ${at.toISOString()}::timestamptz)`,
        sql`(${deliveryFailures.refund} <> 'payment' or ${deliveryFailures.refundSentAt} is not null)`,
      )!,
      { smsNextAttemptAt: leaseUntil },
    );
    if (claimed.length === 0) return [];
    const details = rowsOf<{
      capture_id: string;
      phone: string;
      booth: string | null;
      held: number | null;
    }>(
      await this.db.execute(sql`
        select f.capture_id, u.phone, d.name as booth, t.credit_paise as held
          from delivery_failures f
          join users u on u.id = f.user_id
          left join devices d on d.id = f.device_id
          left join payment_transactions t on t.id = f.transaction_id
         where f.capture_id in (${sql.join(
           claimed.map((row) => sql`${row.captureId}::uuid`),
           sql`, `,
         )})`),
    );
    const byCapture = new Map(details.map((row) => [row.capture_id, row]));
    return claimed.flatMap((failure) => {
      const detail = byCapture.get(failure.captureId);
      if (!detail) return [];
      return [
        {
          failure,
          phone: detail.phone,
          boothName: detail.booth,
          heldCreditPaise: failure.refund === 'payment' ? Number(detail.held ?? 0) : 0,
        },
      ];
    });
  }

  async noticeSent(captureId: string, at: Date): Promise<void> {
    await this.db
      .update(deliveryFailures)
      .set({ smsSentAt: at })
      .where(eq(deliveryFailures.captureId, captureId));
  }

  /** Refunds and SMS that a delivery job would send now (read only: its dry run). */
  async pending(at: Date): Promise<{ refunds: string[]; notices: string[] }> {
    const rows = rowsOf<{ capture_id: string; refund_due: boolean; sms_due: boolean }>(
      await this.db.execute(sql`
        select capture_id,
          (refund = 'payment' and refund_sent_at is null
            and (refund_next_attempt_at is null or refund_next_attempt_at <= ${at.toISOString()}::timestamptz)) as refund_due,
          (sms_sent_at is null and (refund <> 'payment' or refund_sent_at is not null)
            and (sms_next_attempt_at is null or sms_next_attempt_at <= ${at.toISOString()}::timestamptz)) as sms_due
          from delivery_failures
         where refund_sent_at is null and refund = 'payment' or sms_sent_at is null
         order by detected_at limit 200`),
    );
    return {
      refunds: rows.filter((row) => row.refund_due).map((row) => row.capture_id),
      notices: rows.filter((row) => row.sms_due).map((row) => row.capture_id),
    };
  }

  /** The delivery-failure notices of these transactions (My Transactions). */
  async noticesFor(transactionIds: number[]): Promise<Map<number, DeliveryNoticeRow>> {
    if (transactionIds.length === 0) return new Map();
    const rows = rowsOf<{
      transaction_id: number;
      detected_at: string | Date;
      refund: DeliveryFailureRow['refund'];
      refund_paise: number;
      items_promised: number;
      items_delivered: number;
      arrived: number;
    }>(
      await this.db.execute(sql`
        select f.transaction_id, f.detected_at, f.refund, f.refund_paise, f.items_promised,
          f.items_delivered,
          (select count(*) from media m where m.capture_id = f.capture_id and m.is_uploaded)::int as arrived
          from delivery_failures f
         where f.transaction_id in (${sql.join(
           transactionIds.map((id) => sql`${id}`),
           sql`, `,
         )})`),
    );
    return new Map(
      rows.map((row) => [
        Number(row.transaction_id),
        {
          transactionId: Number(row.transaction_id),
          detectedAt: new Date(row.detected_at),
          refund: row.refund,
          refundPaise: Number(row.refund_paise),
          itemsPromised: Number(row.items_promised),
          itemsDelivered: Number(row.items_delivered),
          itemsArrived: Number(row.arrived),
        },
      ]),
    );
  }

  /** Leases up to BATCH rows matching `where` (ids first, then the update: see claimDue). */
  private async claim(
    where: ReturnType<typeof and> & object,
    lease: Partial<Pick<DeliveryFailureRow, 'refundNextAttemptAt' | 'smsNextAttemptAt'>>,
  ): Promise<DeliveryFailureRow[]> {
    return this.db.transaction(async (tx) => {
      const due = await tx
        .select({ captureId: deliveryFailures.captureId })
        .from(deliveryFailures)
        .where(where)
        .orderBy(deliveryFailures.detectedAt)
        .limit(BATCH)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(deliveryFailures)
        .set(lease)
        .where(
          inArray(
            deliveryFailures.captureId,
            due.map((row) => row.captureId),
          ),
        )
        .returning();
    });
  }
}
