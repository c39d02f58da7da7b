import { and, count, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Pool } from '@flashbooth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Transaction } from '../../db/client.js';
import {
  creditLedger,
  dataExports,
  media,
  mediaComments,
  mediaLikes,
  moderationLog,
  organizationInvitations,
  otpCodes,
  otpEvents,
  passkeys,
  paymentRefunds,
  paymentTransactions,
  privacyActions,
  refreshTokens,
  signInLinks,
  smsOutbox,
  users,
} from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { MediaEraser } from './media-eraser.js';
import type { ObjectCleanup } from '../storage/object-cleanup.js';

/** Why an account is erased: asked by its owner, by staff on the owner's request, or inactivity. */
export type ErasureReason = 'self' | 'staff' | 'inactive';

/** What erasing one account removed: counts only, never anything about the person. */
export interface AccountErasureCounts {
  media: number;
  /** Likes on the account's own items and likes it gave. */
  likes: number;
  /** Comments on the account's own items and comments it wrote. */
  comments: number;
  /** Objects deleted from the store now (media files, exports); the rest are queued. */
  objects: number;
  /** Refresh tokens: every session, signed out. */
  sessions: number;
  passkeys: number;
  /** Sign-in codes, one-tap sign-in links, their throttling events and the dev SMS outbox. */
  signInRecords: number;
  /** Invitations sent to the account's phone. */
  invitations: number;
  exports: number;
  creditEntries: number;
  /** Payment records kept, now without a link to the person (the law on accounts keeps them). */
  paymentsAnonymised: number;
}

/** The message when a payment of the account is still being settled with the provider. */
export const PAYMENT_IN_PROGRESS =
  'A payment or refund on this account is still being processed. Try again in a few minutes, once it has completed or failed (see Transactions).';

/**
 * Erases one account and everything it holds, in one transaction: its media (with their likes,
 * comments and objects in the store, through the media eraser), the likes and comments it gave,
 * its sessions (refresh tokens, so every device is signed out; access tokens of a deleted
 * account are refused on their next use), passkeys, sign-in codes and links, data exports,
 * credit history, captures and memberships, and the account row itself. Payment records are kept
 * for PAYMENT_RECORD_RETENTION_YEARS without a person: their `user_id` becomes null, and the name
 * and phone are gone with the account row.
 *
 * Used by "Delete my account", by staff erasing a person on request, and by the retention job
 * (accounts without a sign-in for MEDIA_RETENTION_DAYS).
 */
export class AccountErasure {
  constructor(
    private readonly deps: {
      db: Database;
      mediaEraser: MediaEraser;
      cleanup: ObjectCleanup;
      now: () => Date;
      log: FastifyBaseLogger;
    },
  ) {}

  /**
   * Erases account `userId`; null when there is no such account (erased already). Refused with
   * a 409 while a payment or refund of the account is pending with the provider (its outcome
   * must still reach a person). `actorId`: who asked (the person, or the staff member), recorded
   * in privacy_actions; absent for the retention job, which reports its own counts.
   */
  async erase(
    userId: number,
    options: {
      reason: ErasureReason;
      actorId?: number;
      /**
       * Checked with the account's row locked, before anything is erased: false leaves the
       * account as it is and answers null (the retention job: a sign-in since its notice, which
       * updates the row, keeps the account even when it lands a moment before the erasure).
       */
      onlyIf?: (tx: Transaction) => Promise<boolean>;
    },
  ): Promise<AccountErasureCounts | null> {
    const outcome = await this.deps.db.transaction(async (tx) => {
      const [user] = await tx
        .select({ id: users.id, pool: users.pool, phone: users.phone })
        .from(users)
        .where(eq(users.id, userId))
        .for('update');
      if (!user) return null;
      if (options.onlyIf && !(await options.onlyIf(tx))) return null;
      await this.assertNoPaymentInFlight(tx, userId);

      const { counts: own, keys: mediaKeys } = await this.deps.mediaEraser.eraseWhere(
        tx,
        eq(media.userId, userId),
      );
      const givenLikes = await tx
        .delete(mediaLikes)
        .where(eq(mediaLikes.userId, userId))
        .returning({ mediaId: mediaLikes.mediaId });
      const writtenComments = await tx
        .delete(mediaComments)
        .where(eq(mediaComments.userId, userId))
        .returning({ id: mediaComments.id });
      // Comments of theirs a moderator deleted: the text goes, the log's entries stay.
      await tx
        .update(moderationLog)
        .set({ commentText: null })
        .where(
          and(eq(moderationLog.commentAuthorId, userId), isNotNull(moderationLog.commentText)),
        );

      const exports = await tx
        .delete(dataExports)
        .where(eq(dataExports.userId, userId))
        .returning({ key: dataExports.objectKey });
      const exportKeys = await this.deps.cleanup.queue(
        tx,
        exports.map((row) => row.key),
        'erased',
        this.deps.now(),
      );

      const sessions = await tx
        .delete(refreshTokens)
        .where(eq(refreshTokens.userId, userId))
        .returning({ id: refreshTokens.id });
      const keys = await tx
        .delete(passkeys)
        .where(eq(passkeys.userId, userId))
        .returning({ id: passkeys.id });
      const signIn = await this.deleteSignInRecords(tx, user.pool, user.phone);
      const invitations = await tx
        .delete(organizationInvitations)
        .where(eq(organizationInvitations.inviteePhone, user.phone))
        .returning({ id: organizationInvitations.id });
      const [credit] = await tx
        .select({ n: count() })
        .from(creditLedger)
        .where(eq(creditLedger.userId, userId));
      const [payments] = await tx
        .select({ n: count() })
        .from(paymentTransactions)
        .where(eq(paymentTransactions.userId, userId));

      // The rest goes with the row (ON DELETE CASCADE: captures, credit ledger, memberships,
      // erasure codes; SET NULL: payments, and what the account did as staff).
      await tx.delete(users).where(eq(users.id, userId));
      if (options.actorId !== undefined) {
        await tx.insert(privacyActions).values({
          actorId: options.actorId,
          subjectId: userId,
          action: 'erase',
          createdAt: this.deps.now(),
        });
      }
      const counts: Omit<AccountErasureCounts, 'objects'> = {
        media: own.media,
        likes: own.likes + givenLikes.length,
        comments: own.comments + writtenComments.length,
        sessions: sessions.length,
        passkeys: keys.length,
        signInRecords: signIn,
        invitations: invitations.length,
        exports: exports.length,
        creditEntries: Number(credit?.n ?? 0),
        paymentsAnonymised: Number(payments?.n ?? 0),
      };
      return { counts, keys: [...mediaKeys, ...exportKeys] };
    });
    if (!outcome) return null;

    const objects = await this.deps.cleanup.deleteNow(outcome.keys);
    const counts: AccountErasureCounts = { ...outcome.counts, objects };
    // Ids and counts only: the person's name and phone are never logged.
    this.deps.log.info(
      { userId, reason: options.reason, actorId: options.actorId, counts },
      'account erased',
    );
    return counts;
  }

  private async assertNoPaymentInFlight(tx: Transaction, userId: number): Promise<void> {
    const own = tx
      .select({ id: paymentTransactions.id })
      .from(paymentTransactions)
      .where(eq(paymentTransactions.userId, userId));
    const [pending] = await tx
      .select({ id: paymentTransactions.id })
      .from(paymentTransactions)
      .where(
        and(
          eq(paymentTransactions.userId, userId),
          inArray(paymentTransactions.state, ['PENDING', 'REFUND_PENDING']),
        ),
      )
      .limit(1);
    const [refund] = await tx
      .select({ id: paymentRefunds.id })
      .from(paymentRefunds)
      .where(and(inArray(paymentRefunds.transactionId, own), eq(paymentRefunds.state, 'PENDING')))
      .limit(1);
    if (pending || refund) throw new AppError('conflict', PAYMENT_IN_PROGRESS);
  }

  /** Sign-in codes, links, throttling events and dev outbox messages of the account's phone. */
  private async deleteSignInRecords(tx: Transaction, pool: string, phone: string) {
    const codes = await tx
      .delete(otpCodes)
      .where(and(eq(otpCodes.pool, pool), eq(otpCodes.phone, phone)))
      .returning({ phone: otpCodes.phone });
    const links = await tx
      .delete(signInLinks)
      .where(and(eq(signInLinks.pool, pool as Pool), eq(signInLinks.phone, phone)))
      .returning({ id: signInLinks.id });
    const events = await tx
      .delete(otpEvents)
      .where(and(eq(otpEvents.pool, pool), eq(otpEvents.phone, phone)))
      .returning({ id: otpEvents.id });
    // The outbox stands in for SMS outside production; what it holds for the phone goes too,
    // unless the same number still has an account in the other pool.
    const outbox = (await this.onlyAccountOf(tx, phone))
      ? await tx.delete(smsOutbox).where(eq(smsOutbox.phone, phone)).returning({ id: smsOutbox.id })
      : [];
    return codes.length + links.length + events.length + outbox.length;
  }

  /** Whether the phone belongs to one account only (the one being erased). */
  private async onlyAccountOf(tx: Transaction, phone: string): Promise<boolean> {
    const [row] = await tx.select({ n: count() }).from(users).where(eq(users.phone, phone));
    return Number(row?.n ?? 0) <= 1;
  }
}
