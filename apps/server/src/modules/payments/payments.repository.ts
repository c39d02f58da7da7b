import { and, asc, desc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import { type Database, type Executor, rowsOf, type Transaction } from '../../db/client.js';
import {
  containing,
  cutPage,
  keyText,
  type Page,
  type PageQuery,
  pageKeyset,
} from '../../db/paging.js';
import {
  creditLedger,
  devices,
  organizations,
  paymentEvents,
  paymentRefunds,
  paymentTransactions,
  type PaymentTransactionRow,
  templates,
} from '../../db/schema.js';
import { creditBalance, creditToHold, debitBalance, lockedCredit } from './credit-ledger.js';
import { ownerOf, recordPaymentEvent, releaseHold } from './payment-rows.js';
import type { ProviderName } from './payment-provider.js';
import { linkVisitPayment } from '../visits/visit-links.js';

export type TransactionState = PaymentTransactionRow['state'];
export type FailureReason = NonNullable<PaymentTransactionRow['failureReason']>;

/** A transaction with the names the visitor sees (organization and booth, as they are now). */
export type TransactionView = PaymentTransactionRow & {
  orgName: string | null;
  deviceName: string | null;
};

export interface NewTransaction {
  userId: number;
  deviceId: number;
  orgId: number;
  templateId: number;
  provider: ProviderName;
  orderId: string;
  /** The booth's price now: paid to the provider, less the credit held. */
  pricePaise: number;
  /** The least a provider order may be for (the hold is capped so the amount stays above). */
  minAmountPaise: number;
  expiresAt: Date;
  nextCheckAt: Date;
  createdAt: Date;
}

export type CreateOutcome =
  | { outcome: 'created'; row: PaymentTransactionRow }
  /** The visitor's open payment at this booth (pending, its checkout not expired), reused. */
  | { outcome: 'reused'; row: PaymentTransactionRow }
  /** The visitor holds a paid, unused payment at this booth: nothing was written. */
  | { outcome: 'paid'; row: PaymentTransactionRow }
  /** The visitor's credit covers the price: nothing was written. */
  | { outcome: 'covered' };

export interface Transition {
  /** Whether the row (locked) may make this change; otherwise nothing is written. */
  allowed: (row: PaymentTransactionRow) => boolean;
  to: TransactionState;
  changes?: Partial<
    Pick<PaymentTransactionRow, 'failureReason' | 'completedAt' | 'providerOrderId'>
  >;
  /** Who caused it: webhook, status, reconcile, refund, ... (kept in payment_events). */
  source: string;
  detail?: string;
  at: Date;
}

/**
 * The account a transaction's credit goes back to. An erased account's payments are kept without
 * a person (user_id null), and an account with a payment or refund still in progress cannot be
 * erased (modules/privacy), so a transaction that moves credit always has one.
 */
/** Whether the credit this transaction held has been given back already. */
async function holdReleased(tx: Transaction, row: PaymentTransactionRow) {
  if (row.creditPaise <= 0) return false;
  const [found] = await tx
    .select({ id: creditLedger.id })
    .from(creditLedger)
    .where(
      and(
        eq(creditLedger.paymentTransactionId, row.id),
        eq(creditLedger.reason, 'payment_release'),
      ),
    );
  return found !== undefined;
}

/** A line of My Transactions: a payment, or a capture paid with credit (issue 37). */
export interface TransactionLine {
  kind: 'payment' | 'credit';
  id: number;
  createdAt: Date;
  orderId: string | null;
  amountPaise: number;
  creditPaise: number;
  /** A payment's state; a credit line's CREDIT_USED or CREDIT_RETURNED (its capture failed). */
  state: string;
  failureReason: string | null;
  refundTo: 'payment' | 'credit' | null;
  orgName: string | null;
  deviceName: string | null;
  templateName: string | null;
}

interface LineSqlRow {
  kind: 'payment' | 'credit';
  id: number;
  key_id: number | string;
  created_at: Date | string;
  order_id: string | null;
  amount_paise: number;
  credit_paise: number;
  state: string;
  failure_reason: string | null;
  refund_destination: 'source' | 'credit' | null;
  org_name: string | null;
  device_name: string | null;
  template_name: string | null;
  cursor_at: string;
}

function toLine(row: LineSqlRow): TransactionLine {
  return {
    kind: row.kind,
    id: Number(row.id),
    createdAt: row.created_at instanceof Date ? row.created_at : new Date(row.created_at),
    orderId: row.order_id,
    amountPaise: Number(row.amount_paise),
    creditPaise: Number(row.credit_paise),
    state: row.state,
    failureReason: row.failure_reason,
    refundTo:
      row.refund_destination === null
        ? null
        : row.refund_destination === 'source'
          ? 'payment'
          : 'credit',
    orgName: row.org_name,
    deviceName: row.device_name,
    templateName: row.template_name,
  };
}

const view = {
  transaction: paymentTransactions,
  orgName: organizations.name,
  deviceName: devices.name,
};

export class PaymentsRepository {
  constructor(private readonly db: Database) {}

  /** The booth with its organization's name, or undefined. */
  async device(id: number) {
    const [row] = await this.db
      .select({
        id: devices.id,
        name: devices.name,
        orgId: devices.orgId,
        orgName: organizations.name,
        pricePaise: devices.pricePaise,
        status: devices.status,
      })
      .from(devices)
      .leftJoin(organizations, eq(organizations.id, devices.orgId))
      .where(eq(devices.id, id));
    return row;
  }

  /** Whether the template exists, is offered by the organization, and how many slots it has. */
  async template(templateId: number, orgId: number) {
    const [row] = await this.db
      .select({
        id: templates.id,
        // Spelled out: drizzle leaves column names unqualified inside a selected expression.
        offered: sql<boolean>`exists (select 1 from template_organizations o
          where o.template_id = templates.id and o.org_id = ${orgId})`,
        slots: sql<number>`(select count(*)::int from template_images i
          where i.template_id = templates.id)`,
      })
      .from(templates)
      .where(eq(templates.id, templateId));
    return row;
  }

  /**
   * One database transaction: locks the visitor's credit, holds the part of it the payment uses
   * (above 0 and below the price: all of it, see `creditToHold`) with a conditional update and a
   * 'payment_hold' ledger row linked to the new transaction, and records the transaction for the
   * rest of the price. Concurrent creates wait for the lock, so together they never hold more
   * credit than there is. `covered` (nothing written) when the credit covers the price.
   */
  async create(values: NewTransaction): Promise<CreateOutcome> {
    const { pricePaise, minAmountPaise, ...rest } = values;
    return this.db.transaction(async (tx) => {
      // The visitor's row lock also makes their creates at one booth wait for each other.
      const credit = await lockedCredit(tx, values.userId);
      if (credit === null) throw new Error(`no user ${values.userId}`);
      const atBooth = and(
        eq(paymentTransactions.userId, values.userId),
        eq(paymentTransactions.deviceId, values.deviceId),
      );
      // Nothing asks for a payment the visitor already made (issue 37).
      const [paid] = await tx
        .select()
        .from(paymentTransactions)
        .where(
          and(
            atBooth,
            eq(paymentTransactions.state, 'COMPLETED'),
            sql`${paymentTransactions.consumedCaptureId} is null`,
          ),
        )
        .orderBy(asc(paymentTransactions.completedAt), asc(paymentTransactions.id))
        .limit(1);
      if (paid) return { outcome: 'paid' as const, row: paid };
      // A reload, a second tab or a second phone reuses the open checkout: one per visitor and
      // booth, for the template picked last.
      const [open] = await tx
        .select()
        .from(paymentTransactions)
        .where(
          and(
            atBooth,
            eq(paymentTransactions.state, 'PENDING'),
            sql`${paymentTransactions.expiresAt} > ${values.createdAt}`,
          ),
        )
        .orderBy(desc(paymentTransactions.createdAt), desc(paymentTransactions.id))
        .limit(1)
        .for('update');
      if (open) {
        const [row] =
          open.templateId === values.templateId
            ? [open]
            : await tx
                .update(paymentTransactions)
                .set({ templateId: values.templateId, updatedAt: values.createdAt })
                .where(eq(paymentTransactions.id, open.id))
                .returning();
        await linkVisitPayment(tx, {
          userId: values.userId,
          deviceId: values.deviceId,
          templateId: values.templateId,
          paymentTransactionId: open.id,
          at: values.createdAt,
        });
        return { outcome: 'reused' as const, row: row! };
      }
      const hold = creditToHold(pricePaise, credit, minAmountPaise);
      if (hold === null) return { outcome: 'covered' as const };
      const [row] = await tx
        .insert(paymentTransactions)
        .values({
          ...rest,
          amountPaise: pricePaise - hold,
          creditPaise: hold,
          updatedAt: values.createdAt,
        })
        .returning();
      if (hold > 0) {
        const held = await debitBalance(tx, {
          userId: values.userId,
          amountPaise: hold,
          reason: 'payment_hold',
          paymentTransactionId: row!.id,
          at: values.createdAt,
        });
        // Cannot happen under the row lock; never record a hold that was not taken.
        if (!held) throw new Error(`credit of user ${values.userId} changed under its lock`);
      }
      await linkVisitPayment(tx, {
        userId: values.userId,
        deviceId: values.deviceId,
        templateId: values.templateId,
        paymentTransactionId: row!.id,
        at: values.createdAt,
      });
      return { outcome: 'created' as const, row: row! };
    });
  }

  async findById(id: number, executor: Executor = this.db) {
    const [row] = await executor
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.id, id));
    return row;
  }

  async findByOrderId(orderId: string) {
    const [row] = await this.db
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.orderId, orderId));
    return row;
  }

  /** The caller's own transaction; another visitor's is simply absent. */
  async findOwned(userId: number, id: number) {
    const [row] = await this.db
      .select()
      .from(paymentTransactions)
      .where(and(eq(paymentTransactions.id, id), eq(paymentTransactions.userId, userId)));
    return row;
  }

  async findView(id: number): Promise<TransactionView | undefined> {
    const [row] = await this.db
      .select(view)
      .from(paymentTransactions)
      .leftJoin(organizations, eq(organizations.id, paymentTransactions.orgId))
      .leftJoin(devices, eq(devices.id, paymentTransactions.deviceId))
      .where(eq(paymentTransactions.id, id));
    return row && { ...row.transaction, orgName: row.orgName, deviceName: row.deviceName };
  }

  /**
   * A page of the caller's My Transactions, newest first: their payments, and (issue 37) every
   * capture they paid with credit, each a line of its own (`kind` credit; its key is the ledger
   * row). Search on order id, venue, booth and template; by offset or after a cursor's line (the
   * cursor's id is 2 × the payment id, or 2 × the ledger id + 1, so the two kinds never meet).
   */
  async listOwn(userId: number, page: PageQuery): Promise<Page<TransactionLine>> {
    const key = pageKeyset(page);
    const pattern = page.search ? containing(page.search) : null;
    const lines = sql`
      select 'payment' as kind, p.id, p.id::bigint * 2 as key_id, p.created_at, p.order_id,
             p.amount_paise, p.credit_paise, p.state, p.failure_reason,
             (select r.destination from payment_refunds r
               where r.transaction_id = p.id and r.state <> 'FAILED'
               order by r.id desc limit 1) as refund_destination,
             o.name as org_name, d.name as device_name, t.name as template_name,
             p.user_id, p.device_id, p.org_id, p.template_id
        from payment_transactions p
        left join organizations o on o.id = p.org_id
        left join devices d on d.id = p.device_id
        left join templates t on t.id = p.template_id
       where p.user_id = ${userId}
      union all
      select 'credit', l.id::int, l.id * 2 + 1, l.created_at, null,
             -l.delta_paise, 0,
             case when exists (select 1 from credit_ledger r
                                where r.media_capture_id = l.media_capture_id
                                  and r.reason = 'refund')
                  then 'CREDIT_RETURNED' else 'CREDIT_USED' end,
             null, null, o.name, d.name, t.name,
             l.user_id, c.device_id, d.org_id, c.template_id
        from credit_ledger l
        left join captures c on c.capture_id = l.media_capture_id
        left join devices d on d.id = c.device_id
        left join organizations o on o.id = d.org_id
        left join templates t on t.id = c.template_id
       where l.user_id = ${userId} and l.reason = 'capture'`;
    const searched = pattern
      ? sql`where (order_id ilike ${pattern} or org_name ilike ${pattern}
                   or device_name ilike ${pattern} or template_name ilike ${pattern})`
      : sql``;
    const afterKey = key
      ? sql`${pattern ? sql`and` : sql`where`} (created_at, key_id) < (${key.at}::timestamptz, ${key.id}::bigint)`
      : sql``;
    const [rowsResult, countResult] = await Promise.all([
      this.db.execute(sql`
        select *, ${keyText(sql`created_at`)} as cursor_at
          from (${lines}) lines ${searched} ${afterKey}
         order by created_at desc, key_id desc
         limit ${page.limit + 1} offset ${page.offset}`),
      this.db.execute(sql`select count(*)::int as value from (${lines}) lines ${searched}`),
    ]);
    const rows = rowsOf<LineSqlRow>(rowsResult);
    const found = cutPage(rows, page.limit, (row) => ({
      at: row.cursor_at,
      id: Number(row.key_id),
    }));
    return {
      rows: found.rows.map(toLine),
      total: Number(rowsOf<{ value: number }>(countResult)[0]?.value ?? 0),
      nextCursor: found.nextCursor,
    };
  }

  /**
   * Takes the right to create the provider's checkout for a pending transaction that has none:
   * one request at a time (a claim older than `staleBefore` is abandoned and may be taken again).
   */
  async claimCheckout(id: number, at: Date, staleBefore: Date): Promise<boolean> {
    const rows = await this.db
      .update(paymentTransactions)
      .set({ checkoutClaimedAt: at })
      .where(
        and(
          eq(paymentTransactions.id, id),
          eq(paymentTransactions.state, 'PENDING'),
          sql`${paymentTransactions.paymentUrl} is null`,
          or(
            sql`${paymentTransactions.checkoutClaimedAt} is null`,
            lte(paymentTransactions.checkoutClaimedAt, staleBefore),
          ),
        ),
      )
      .returning({ id: paymentTransactions.id });
    return rows.length > 0;
  }

  async releaseCheckoutClaim(id: number): Promise<void> {
    await this.db
      .update(paymentTransactions)
      .set({ checkoutClaimedAt: null })
      .where(eq(paymentTransactions.id, id));
  }

  async saveCheckout(
    id: number,
    values: {
      paymentUrl: string;
      providerOrderId: string;
      redirectUrl: string;
      expiresAt: Date;
      nextCheckAt: Date;
      at: Date;
    },
  ): Promise<void> {
    const { at, ...rest } = values;
    await this.db
      .update(paymentTransactions)
      .set({ ...rest, updatedAt: at })
      .where(eq(paymentTransactions.id, id));
  }

  /**
   * Changes a transaction's state under a row lock when `allowed` says so, and records the change
   * in payment_events in the same database transaction. Returns the changed row, or undefined
   * when the change was not allowed (someone else changed it first, or it never applied).
   *
   * Held credit follows the state in the same database transaction: a move to FAILED gives it
   * back ('payment_release', once per transaction by the ledger's unique guard). A FAILED
   * payment the provider confirms as COMPLETED after its credit was given back would entitle a
   * capture worth more than was paid, so it is refunded as credit at once: COMPLETED, then
   * REFUNDED with a 'refund' ledger row of the amount paid (the returned row is REFUNDED).
   */
  async transition(id: number, change: Transition): Promise<PaymentTransactionRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(paymentTransactions)
        .where(eq(paymentTransactions.id, id))
        .for('update');
      if (!row || !change.allowed(row)) return undefined;
      const [updated] = await tx
        .update(paymentTransactions)
        .set({ ...change.changes, state: change.to, updatedAt: change.at })
        .where(eq(paymentTransactions.id, id))
        .returning();
      await recordPaymentEvent(
        tx,
        id,
        row.state,
        change.to,
        change.source,
        change.detail,
        change.at,
      );
      if (change.to === 'FAILED') await releaseHold(tx, updated!, change.at);
      if (
        row.state === 'FAILED' &&
        change.to === 'COMPLETED' &&
        (await holdReleased(tx, updated!))
      ) {
        return this.refundLatePayment(tx, updated!, change);
      }
      return updated;
    });
  }

  /** A late payment whose held credit was already given back: the amount paid becomes credit. */
  private async refundLatePayment(
    tx: Transaction,
    row: PaymentTransactionRow,
    change: Transition,
  ): Promise<PaymentTransactionRow> {
    const [refunded] = await tx
      .update(paymentTransactions)
      .set({ state: 'REFUNDED', updatedAt: change.at })
      .where(eq(paymentTransactions.id, row.id))
      .returning();
    const ledger = await creditBalance(tx, {
      userId: ownerOf(row),
      amountPaise: row.amountPaise,
      reason: 'refund',
      paymentTransactionId: row.id,
      at: change.at,
    });
    if (!ledger) throw new Error(`transaction ${row.id} was already refunded as credit`);
    await tx.insert(paymentRefunds).values({
      transactionId: row.id,
      destination: 'credit',
      merchantRefundId: `${row.orderId.slice(0, 40)}RLATE`,
      amountPaise: row.amountPaise,
      state: 'COMPLETED',
      requestedBy: null,
      creditLedgerId: ledger.ledgerId,
      nextCheckAt: change.at,
      createdAt: change.at,
      updatedAt: change.at,
    });
    await recordPaymentEvent(
      tx,
      row.id,
      'COMPLETED',
      'REFUNDED',
      change.source,
      'late payment after its held credit was given back: refunded as credit',
      change.at,
    );
    return refunded!;
  }

  /**
   * Claims up to `limit` PENDING transactions of `provider` that are due for a check, pushing
   * their next check to `leaseUntil`. Rows another instance is claiming are skipped, so several
   * server instances share the work without checking one order twice at once.
   */
  async claimDue(provider: ProviderName, at: Date, leaseUntil: Date, limit: number) {
    // The ids are picked first and then leased, in one transaction: an update whose
    // `id IN (SELECT … LIMIT n FOR UPDATE SKIP LOCKED)` PostgreSQL may re-run per scanned row,
    // claiming more than `limit` (see MediaRepository.claimPreview).
    return this.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: paymentTransactions.id })
        .from(paymentTransactions)
        .where(
          and(
            eq(paymentTransactions.state, 'PENDING'),
            eq(paymentTransactions.provider, provider),
            lte(paymentTransactions.nextCheckAt, at),
          ),
        )
        .orderBy(asc(paymentTransactions.nextCheckAt))
        .limit(limit)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(paymentTransactions)
        .set({ nextCheckAt: leaseUntil })
        .where(
          inArray(
            paymentTransactions.id,
            due.map((row) => row.id),
          ),
        )
        .returning();
    });
  }

  // Refunds

  async eventsOf(transactionId: number) {
    return this.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.transactionId, transactionId))
      .orderBy(asc(paymentEvents.id));
  }
}
