import { paymentCreditHold } from '@flashbooth/contracts';
import { and, eq, gte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { creditLedger, type CreditLedgerRow, users } from '../../db/schema.js';

/**
 * The only code that changes users.credits_paise. Every change is one ledger row and one
 * relative update of the balance in the same database transaction (call these inside one), so
 * a visitor's balance is always the sum of their ledger and can be explained entry by entry.
 */
export type CreditReason = CreditLedgerRow['reason'];

export interface CreditEntry {
  userId: number;
  /** Positive: how much is added (creditBalance) or taken (debitBalance). */
  amountPaise: number;
  reason: CreditReason;
  mediaCaptureId?: string | null;
  paymentTransactionId?: number | null;
  note?: string | null;
  grantedBy?: number | null;
  at?: Date;
}

function ledgerValues(entry: CreditEntry, deltaPaise: number) {
  return {
    userId: entry.userId,
    deltaPaise,
    reason: entry.reason,
    mediaCaptureId: entry.mediaCaptureId ?? null,
    paymentTransactionId: entry.paymentTransactionId ?? null,
    note: entry.note ?? null,
    grantedBy: entry.grantedBy ?? null,
    ...(entry.at ? { createdAt: entry.at } : {}),
  };
}

function checkAmount(entry: CreditEntry) {
  if (!Number.isSafeInteger(entry.amountPaise) || entry.amountPaise <= 0) {
    throw new Error(`a credit change needs a positive whole number of paise: ${entry.amountPaise}`);
  }
}

/**
 * Adds `amountPaise` to the visitor's credit with its ledger row. The row is written first and
 * skipped when a unique guard already holds one (a capture refunded once, a payment's hold
 * released once, a payment refunded as credit once): then nothing changes and the result is
 * null. Otherwise the ledger row's id. Throws (rolling the transaction back) when the user does
 * not exist.
 */
export async function creditBalance(executor: Executor, entry: CreditEntry) {
  checkAmount(entry);
  // The user row first, as every other balance change does (the ledger row's foreign key would
  // otherwise take a share lock to upgrade later, which can deadlock with a concurrent debit).
  if ((await lockedCredit(executor, entry.userId)) === null) {
    throw new Error(`no user ${entry.userId} to credit`);
  }
  const [row] = await executor
    .insert(creditLedger)
    .values(ledgerValues(entry, entry.amountPaise))
    .onConflictDoNothing()
    .returning({ id: creditLedger.id });
  if (!row) return null;
  await executor
    .update(users)
    .set({ creditsPaise: sql`${users.creditsPaise} + ${entry.amountPaise}` })
    .where(eq(users.id, entry.userId));
  return { ledgerId: row.id };
}

/**
 * Takes `amountPaise` from the visitor's credit when it covers it, with one conditional update
 * (so concurrent debits can never drive it below zero), and writes the ledger row. Null, with
 * nothing written, when the credit does not cover it. A second debit for the same guarded key
 * (a capture charged twice, a payment holding twice) violates a unique index and throws.
 */
export async function debitBalance(executor: Executor, entry: CreditEntry) {
  checkAmount(entry);
  const charged = await executor
    .update(users)
    .set({ creditsPaise: sql`${users.creditsPaise} - ${entry.amountPaise}` })
    .where(and(eq(users.id, entry.userId), gte(users.creditsPaise, entry.amountPaise)))
    .returning({ id: users.id });
  if (charged.length === 0) return null;
  const [row] = await executor
    .insert(creditLedger)
    .values(ledgerValues(entry, -entry.amountPaise))
    .returning({ id: creditLedger.id });
  return { ledgerId: row!.id };
}

/**
 * The visitor's credit, locked against other balance changes until the end of the transaction
 * (FOR NO KEY UPDATE: the lock an UPDATE of the balance takes, so foreign-key checks of other
 * tables' inserts are not blocked). Null when there is no such user.
 */
export async function lockedCredit(executor: Executor, userId: number): Promise<number | null> {
  const [row] = await executor
    .select({ creditsPaise: users.creditsPaise })
    .from(users)
    .where(eq(users.id, userId))
    .for('no key update');
  return row ? row.creditsPaise : null;
}

/** How much credit a payment holds (the shared rule the booth screen's badge uses too). */
export const creditToHold = paymentCreditHold;
