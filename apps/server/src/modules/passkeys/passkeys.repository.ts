import type { Pool } from '@flashbooth/contracts';
import { and, asc, count, eq, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { passkeys, passkeySpentChallenges, type PasskeyRow } from '../../db/schema.js';

export interface NewPasskey {
  userId: number;
  pool: Pool;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  at: Date;
}

/** The passkeys table and the spent challenges. */
export class PasskeysRepository {
  constructor(private readonly db: Executor) {}

  with(executor: Executor): PasskeysRepository {
    return new PasskeysRepository(executor);
  }

  /** One account's passkeys, oldest first. */
  listOf(userId: number): Promise<PasskeyRow[]> {
    return this.db
      .select()
      .from(passkeys)
      .where(eq(passkeys.userId, userId))
      .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
  }

  async countOf(userId: number): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(passkeys)
      .where(eq(passkeys.userId, userId));
    return row?.n ?? 0;
  }

  async exists(userId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ id: passkeys.id })
      .from(passkeys)
      .where(eq(passkeys.userId, userId))
      .limit(1);
    return row !== undefined;
  }

  async findByCredentialId(credentialId: string): Promise<PasskeyRow | undefined> {
    const [row] = await this.db
      .select()
      .from(passkeys)
      .where(eq(passkeys.credentialId, credentialId));
    return row;
  }

  /** The row, locked against a concurrent sign-in with the same passkey. */
  async lockById(id: number): Promise<PasskeyRow | undefined> {
    const [row] = await this.db.select().from(passkeys).where(eq(passkeys.id, id)).for('update');
    return row;
  }

  async insert(passkey: NewPasskey): Promise<PasskeyRow> {
    const [row] = await this.db
      .insert(passkeys)
      .values({
        userId: passkey.userId,
        pool: passkey.pool,
        credentialId: passkey.credentialId,
        publicKey: passkey.publicKey,
        counter: passkey.counter,
        transports: passkey.transports,
        name: passkey.name,
        createdAt: passkey.at,
      })
      .returning();
    return row!;
  }

  async recordUse(id: number, counter: number, at: Date): Promise<void> {
    await this.db.update(passkeys).set({ counter, lastUsedAt: at }).where(eq(passkeys.id, id));
  }

  /** Renames one of the account's passkeys; undefined when it has no such passkey. */
  async rename(userId: number, id: number, name: string): Promise<PasskeyRow | undefined> {
    const [row] = await this.db
      .update(passkeys)
      .set({ name })
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
      .returning();
    return row;
  }

  /** Deletes one of the account's passkeys; false when it has no such passkey. */
  async delete(userId: number, id: number): Promise<boolean> {
    const rows = await this.db
      .delete(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
      .returning({ id: passkeys.id });
    return rows.length > 0;
  }

  /** Spends a challenge; false when it was spent before. */
  async spendChallenge(challenge: string, expiresAt: Date): Promise<boolean> {
    const rows = await this.db
      .insert(passkeySpentChallenges)
      .values({ challenge, expiresAt })
      .onConflictDoNothing()
      .returning({ challenge: passkeySpentChallenges.challenge });
    return rows.length > 0;
  }

  /**
   * Spent challenges that have expired anyway (an expired challenge is refused unread): deleted,
   * or only counted when `dryRun`.
   */
  async purgeSpentChallenges(before: Date, dryRun: boolean): Promise<number> {
    const expired = lt(passkeySpentChallenges.expiresAt, before);
    if (dryRun) {
      const [row] = await this.db
        .select({ n: count() })
        .from(passkeySpentChallenges)
        .where(expired);
      return Number(row?.n ?? 0);
    }
    const deleted = await this.db
      .delete(passkeySpentChallenges)
      .where(expired)
      .returning({ challenge: passkeySpentChallenges.challenge });
    return deleted.length;
  }
}
