import { and, asc, eq, inArray, isNull, lte } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import {
  paymentEvents,
  paymentRefunds,
  type PaymentRefundRow,
  paymentTransactions,
  type PaymentTransactionRow,
} from '../../db/schema.js';
import { creditBalance } from './credit-ledger.js';
import { ownerOf, recordPaymentEvent, releaseHold } from './payment-rows.js';

/**
 * Refunds of payments: to credit (at once, in the ledger's transaction) or to the payment method
 * through the provider (started, checked until the provider settles it, finished once), and the
 * sweep of completed payments never used for a capture.
 */
export class RefundsRepository {
  constructor(private readonly db: Database) {}

  async findRefund(merchantRefundId: string): Promise<PaymentRefundRow | undefined> {
    const [row] = await this.db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.merchantRefundId, merchantRefundId));
    return row;
  }

  /**
   * Refund as credit, all or nothing: COMPLETED -> REFUNDED, the amount paid as credit (a
   * 'refund' ledger row linked to the transaction, once by the ledger's unique guard), the credit
   * the payment held given back ('payment_release'), and a completed refund record of the amount
   * paid. Undefined when the transaction was not COMPLETED (anymore).
   */
  /**
   * COMPLETED payments no capture has used, completed at or before `completedBy`: the ones that
   * become credit (`refundToCredit` with `onlyUnused`). Oldest first.
   */
  async unusedCompleted(completedBy: Date, limit: number): Promise<number[]> {
    const rows = await this.db
      .select({ id: paymentTransactions.id })
      .from(paymentTransactions)
      .where(
        and(
          eq(paymentTransactions.state, 'COMPLETED'),
          isNull(paymentTransactions.consumedCaptureId),
          lte(paymentTransactions.completedAt, completedBy),
        ),
      )
      .orderBy(asc(paymentTransactions.completedAt), asc(paymentTransactions.id))
      .limit(limit);
    return rows.map((row) => row.id);
  }

  /**
   * COMPLETED -> REFUNDED with the amount paid credited (and the credit the payment held given
   * back). `staffId` null: the server did it (an unused payment). `onlyUnused`: only while no
   * capture uses the payment; the conditional update makes it lose cleanly against a capture
   * taking the payment at the same moment, whichever instance runs it.
   */
  async refundToCredit(
    id: number,
    input: { refundId: string; staffId: number | null; at: Date; onlyUnused?: boolean },
  ): Promise<PaymentTransactionRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(paymentTransactions)
        .set({ state: 'REFUNDED', updatedAt: input.at })
        .where(
          and(
            eq(paymentTransactions.id, id),
            eq(paymentTransactions.state, 'COMPLETED'),
            input.onlyUnused ? isNull(paymentTransactions.consumedCaptureId) : undefined,
          ),
        )
        .returning();
      if (!row) return undefined;
      const ledger = await creditBalance(tx, {
        userId: ownerOf(row),
        amountPaise: row.amountPaise,
        reason: 'refund',
        paymentTransactionId: id,
        at: input.at,
      });
      if (!ledger) throw new Error(`transaction ${id} was already refunded as credit`);
      await releaseHold(tx, row, input.at);
      await tx.insert(paymentRefunds).values({
        transactionId: id,
        destination: 'credit',
        merchantRefundId: input.refundId,
        amountPaise: row.amountPaise,
        state: 'COMPLETED',
        requestedBy: input.staffId,
        creditLedgerId: ledger.ledgerId,
        nextCheckAt: input.at,
        createdAt: input.at,
        updatedAt: input.at,
      });
      await tx.insert(paymentEvents).values({
        transactionId: id,
        fromState: 'COMPLETED',
        toState: 'REFUNDED',
        source: input.staffId === null ? 'unused' : 'refund',
        detail: `credit ${input.refundId}`,
        createdAt: input.at,
      });
      return row;
    });
  }

  /**
   * Starts a refund to the original payment method: COMPLETED -> REFUND_PENDING and a pending
   * refund record, before the provider is asked. Undefined when the transaction was not
   * COMPLETED (anymore).
   */
  async startSourceRefund(
    id: number,
    input: { refundId: string; staffId: number; at: Date; nextCheckAt: Date },
  ): Promise<PaymentTransactionRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(paymentTransactions)
        .set({ state: 'REFUND_PENDING', updatedAt: input.at })
        .where(and(eq(paymentTransactions.id, id), eq(paymentTransactions.state, 'COMPLETED')))
        .returning();
      if (!row) return undefined;
      await tx.insert(paymentRefunds).values({
        transactionId: id,
        destination: 'source',
        merchantRefundId: input.refundId,
        amountPaise: row.amountPaise,
        state: 'PENDING',
        requestedBy: input.staffId,
        nextCheckAt: input.nextCheckAt,
        createdAt: input.at,
        updatedAt: input.at,
      });
      await tx.insert(paymentEvents).values({
        transactionId: id,
        fromState: 'COMPLETED',
        toState: 'REFUND_PENDING',
        source: 'refund',
        detail: `source ${input.refundId}`,
        createdAt: input.at,
      });
      return row;
    });
  }

  /**
   * Records the provider's final word on a pending refund, once: COMPLETED makes the transaction
   * REFUNDED and gives the credit it held back as credit (the provider refunds only the amount
   * paid); FAILED gives it back its COMPLETED state (credit still held) so staff may try again.
   * False when the refund was no longer pending.
   */
  async finishRefund(
    merchantRefundId: string,
    outcome: { state: 'COMPLETED' | 'FAILED'; providerRefundId: string | null; at: Date },
    source: string,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [refund] = await tx
        .update(paymentRefunds)
        .set({
          state: outcome.state,
          updatedAt: outcome.at,
          ...(outcome.providerRefundId ? { providerRefundId: outcome.providerRefundId } : {}),
        })
        .where(
          and(
            eq(paymentRefunds.merchantRefundId, merchantRefundId),
            eq(paymentRefunds.state, 'PENDING'),
          ),
        )
        .returning();
      if (!refund) return false;
      const to = outcome.state === 'COMPLETED' ? 'REFUNDED' : 'COMPLETED';
      const [row] = await tx
        .update(paymentTransactions)
        .set({ state: to, updatedAt: outcome.at })
        .where(
          and(
            eq(paymentTransactions.id, refund.transactionId),
            eq(paymentTransactions.state, 'REFUND_PENDING'),
          ),
        )
        .returning();
      if (row) {
        await recordPaymentEvent(
          tx,
          refund.transactionId,
          'REFUND_PENDING',
          to,
          source,
          `refund ${merchantRefundId} ${outcome.state.toLowerCase()}`,
          outcome.at,
        );
        if (to === 'REFUNDED') await releaseHold(tx, row, outcome.at);
      }
      return true;
    });
  }

  async noteProviderRefundId(merchantRefundId: string, providerRefundId: string): Promise<void> {
    await this.db
      .update(paymentRefunds)
      .set({ providerRefundId })
      .where(eq(paymentRefunds.merchantRefundId, merchantRefundId));
  }

  /** Pending refunds due for a check, leased like `claimDue`. */
  async claimDueRefunds(at: Date, leaseUntil: Date, limit: number) {
    return this.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: paymentRefunds.id })
        .from(paymentRefunds)
        .where(and(eq(paymentRefunds.state, 'PENDING'), lte(paymentRefunds.nextCheckAt, at)))
        .orderBy(asc(paymentRefunds.nextCheckAt))
        .limit(limit)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(paymentRefunds)
        .set({ nextCheckAt: leaseUntil })
        .where(
          inArray(
            paymentRefunds.id,
            due.map((row) => row.id),
          ),
        )
        .returning();
    });
  }
}
