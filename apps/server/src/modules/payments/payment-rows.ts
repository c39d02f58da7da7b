import type { Transaction } from '../../db/client.js';
import { paymentEvents, type PaymentTransactionRow } from '../../db/schema.js';
import { creditBalance } from './credit-ledger.js';

/** What the transactions and the refunds repositories both do to a payment row. */

export function ownerOf(row: PaymentTransactionRow): number {
  if (row.userId === null) {
    throw new Error(`transaction ${row.id} belongs to an erased account; no credit can move`);
  }
  return row.userId;
}

/**
 * Gives the credit a transaction held back to its visitor, inside the database transaction that
 * ends the payment. At most once per transaction: the ledger's unique (payment_transaction_id,
 * reason) index turns a repeat into a no-op. True when it was given back now.
 */
export async function releaseHold(tx: Transaction, row: PaymentTransactionRow, at: Date) {
  if (row.creditPaise <= 0) return false;
  const released = await creditBalance(tx, {
    userId: ownerOf(row),
    amountPaise: row.creditPaise,
    reason: 'payment_release',
    paymentTransactionId: row.id,
    at,
  });
  return released !== null;
}

/** One line of a transaction's history (payment_events): who moved it from what to what. */
export async function recordPaymentEvent(
  tx: Transaction,
  transactionId: number,
  fromState: string,
  toState: string,
  source: string,
  detail: string | undefined,
  at: Date,
) {
  await tx.insert(paymentEvents).values({
    transactionId,
    fromState,
    toState,
    source,
    detail: detail ?? null,
    createdAt: at,
  });
}
