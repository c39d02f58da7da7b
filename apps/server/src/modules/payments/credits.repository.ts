import { and, count, desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.js';
import { fetchPage, type Page, type PageQuery } from '../../db/paging.js';
import { creditLedger, type CreditLedgerRow, users, type UserRow } from '../../db/schema.js';
import { creditBalance } from './credit-ledger.js';

export interface NewGrant {
  userId: number;
  amountPaise: number;
  note: string | null;
  grantedBy: number;
  at: Date;
}

export type LedgerEntry = CreditLedgerRow & { grantedByName: string | null };

const grantor = alias(users, 'grantor');

/** Staff grants and the ledger that explains a visitor's balance. */
export class CreditsRepository {
  constructor(private readonly db: Database) {}

  /** A visitor (regular pool) account, or undefined. */
  async findVisitor(id: number): Promise<UserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(users)
      .where(and(eq(users.id, id), eq(users.pool, 'regular')));
    return row;
  }

  /**
   * Adds a grant to a visitor's credit: one 'grant' ledger row and the relative update in one
   * database transaction, so concurrent grants add up exactly. The visitor's row afterwards, or
   * undefined (nothing written) when no visitor has that id.
   */
  async grant(input: NewGrant): Promise<UserRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [visitor] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, input.userId), eq(users.pool, 'regular')))
        .for('no key update');
      if (!visitor) return undefined;
      await creditBalance(tx, {
        userId: input.userId,
        amountPaise: input.amountPaise,
        reason: 'grant',
        note: input.note,
        grantedBy: input.grantedBy,
        at: input.at,
      });
      const [row] = await tx.select().from(users).where(eq(users.id, input.userId));
      return row;
    });
  }

  /** A page of the visitor's ledger, newest first, with the granting staff member's name. */
  async ledger(userId: number, page: PageQuery): Promise<Page<LedgerEntry>> {
    const where = eq(creditLedger.userId, userId);
    const found = await fetchPage(
      page,
      this.db
        .select({ entry: creditLedger, grantedByName: grantor.name })
        .from(creditLedger)
        .leftJoin(grantor, eq(grantor.id, creditLedger.grantedBy))
        .where(where)
        .orderBy(desc(creditLedger.id)),
      this.db.select({ value: count() }).from(creditLedger).where(where),
    );
    return {
      rows: found.rows.map((row) => ({ ...row.entry, grantedByName: row.grantedByName })),
      total: found.total,
    };
  }
}
