import { and, eq, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import {
  paymentEvents,
  paymentRefunds,
  paymentTransactions,
  type PaymentTransactionRow,
} from '../../db/schema.js';
import { creditBalance } from './credit-ledger.js';
import type { ProviderName } from './payment-provider.js';

/** What became of the payment that paid for a capture that failed its delivery. */
export type PaymentRefundStart =
  /** REFUND_PENDING with a pending refund record: to be sent to the provider after the commit. */
  | { kind: 'payment'; row: PaymentTransactionRow }
  /** Refunded as credit at once (the payment was made with a provider no longer configured). */
  | { kind: 'credit'; row: PaymentTransactionRow }
  /** No payment paid for it, or it was already refunded (by staff) or is being refunded. */
  | { kind: 'none'; row: PaymentTransactionRow | undefined };

/**
 * Inside the transaction that records a delivery failure: the payment the capture used (if any)
 * is moved COMPLETED → REFUND_PENDING with a pending refund record `refundId`, before anything
 * is asked of the provider (the delivery job sends it right after the commit, and again until
 * sent; only then the reconciler checks on it, hence the far `nextCheckAt`). A second call finds
 * the payment no longer COMPLETED and changes nothing.
 */
export async function startDeliveryRefund(
  tx: Transaction,
  input: {
    captureId: string;
    refundId: string;
    creditRefundId: string;
    provider: ProviderName;
    at: Date;
    nextCheckAt: Date;
  },
): Promise<PaymentRefundStart> {
  const [paid] = await tx
    .select()
    .from(paymentTransactions)
    .where(eq(paymentTransactions.consumedCaptureId, input.captureId))
    .for('update');
  if (!paid || paid.state !== 'COMPLETED') return { kind: 'none', row: paid };
  if (paid.provider !== input.provider) {
    return { kind: 'credit', row: await refundAsCredit(tx, paid, input.creditRefundId, input.at) };
  }
  const [row] = await tx
    .update(paymentTransactions)
    .set({ state: 'REFUND_PENDING', updatedAt: input.at })
    .where(and(eq(paymentTransactions.id, paid.id), eq(paymentTransactions.state, 'COMPLETED')))
    .returning();
  await tx.insert(paymentRefunds).values({
    transactionId: paid.id,
    destination: 'source',
    merchantRefundId: input.refundId,
    amountPaise: paid.amountPaise,
    state: 'PENDING',
    requestedBy: null,
    nextCheckAt: input.nextCheckAt,
    createdAt: input.at,
    updatedAt: input.at,
  });
  await tx.insert(paymentEvents).values({
    transactionId: paid.id,
    fromState: 'COMPLETED',
    toState: 'REFUND_PENDING',
    source: 'delivery_failure',
    detail: `source ${input.refundId}`,
    createdAt: input.at,
  });
  return { kind: 'payment', row: row! };
}

/**
 * COMPLETED → REFUNDED with the amount paid credited and the credit the payment held given back,
 * inside the caller's transaction (a delivery failure whose payment cannot go back to its
 * method). The ledger's unique (payment_transaction_id, reason) rows make it once.
 */
export async function refundAsCredit(
  tx: Transaction,
  paid: PaymentTransactionRow,
  refundId: string,
  at: Date,
): Promise<PaymentTransactionRow> {
  const userId = paid.userId;
  const [row] = await tx
    .update(paymentTransactions)
    .set({ state: 'REFUNDED', updatedAt: at })
    .where(eq(paymentTransactions.id, paid.id))
    .returning();
  if (userId === null) return row!;
  const ledger = await creditBalance(tx, {
    userId,
    amountPaise: paid.amountPaise,
    reason: 'refund',
    paymentTransactionId: paid.id,
    at,
  });
  if (paid.creditPaise > 0) {
    await creditBalance(tx, {
      userId,
      amountPaise: paid.creditPaise,
      reason: 'payment_release',
      paymentTransactionId: paid.id,
      at,
    });
  }
  await tx.insert(paymentRefunds).values({
    transactionId: paid.id,
    destination: 'credit',
    merchantRefundId: refundId,
    amountPaise: paid.amountPaise,
    state: 'COMPLETED',
    requestedBy: null,
    creditLedgerId: ledger?.ledgerId ?? null,
    nextCheckAt: at,
    createdAt: at,
    updatedAt: at,
  });
  await tx.insert(paymentEvents).values({
    transactionId: paid.id,
    fromState: paid.state,
    toState: 'REFUNDED',
    source: 'delivery_failure',
    detail: `credit ${refundId}`,
    createdAt: at,
  });
  return row!;
}

/** After the provider took the refund: the reconciler checks on it from `at` on. */
export async function refundCheckFrom(tx: Transaction, refundId: string, at: Date) {
  await tx
    .update(paymentRefunds)
    .set({ nextCheckAt: at })
    .where(and(eq(paymentRefunds.merchantRefundId, refundId), sql`state = 'PENDING'`));
}
