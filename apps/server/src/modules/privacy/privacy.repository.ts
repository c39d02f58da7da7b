import { and, asc, count, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database, Executor } from '../../db/client.js';
import {
  accountErasureCodes,
  creditLedger,
  dataExports,
  type DataExportRow,
  devices,
  media,
  mediaComments,
  mediaLikes,
  organizations,
  paymentRefunds,
  paymentTransactions,
  privacyActions,
  templates,
  users,
} from '../../db/schema.js';

/** Everything one person's export holds, read in one go (files are streamed separately). */
export interface PersonalData {
  profile: typeof users.$inferSelect;
  media: {
    row: typeof media.$inferSelect;
    orgName: string | null;
    deviceName: string | null;
    templateName: string | null;
  }[];
  /** Comments on the person's items (with the commenter's name as the wall shows it). */
  commentsReceived: {
    mediaId: number;
    userName: string;
    commentText: string;
    createdAt: Date;
  }[];
  likesReceived: { mediaId: number; createdAt: Date }[];
  likesGiven: { mediaId: number; createdAt: Date }[];
  commentsWritten: { id: number; mediaId: number; commentText: string; createdAt: Date }[];
  transactions: {
    row: typeof paymentTransactions.$inferSelect;
    orgName: string | null;
    deviceName: string | null;
  }[];
  refunds: (typeof paymentRefunds.$inferSelect)[];
  credit: (typeof creditLedger.$inferSelect)[];
}

/** Queries of the privacy module: exports, erasure codes, the action log, a person's data. */
export class PrivacyRepository {
  constructor(private readonly db: Database) {}

  async findUser(id: number) {
    const [row] = await this.db.select().from(users).where(eq(users.id, id));
    return row;
  }

  // ---- Exports ----

  /** A new pending export, or the one already pending for the person (at most one at a time). */
  async requestExport(userId: number, requestedBy: number | null, at: Date) {
    return this.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(dataExports)
        .values({ userId, requestedBy, createdAt: at })
        .onConflictDoNothing()
        .returning();
      if (created) return { row: created, created: true };
      const [pending] = await tx
        .select()
        .from(dataExports)
        .where(and(eq(dataExports.userId, userId), eq(dataExports.state, 'pending')));
      if (!pending) throw new Error(`export of user ${userId} neither created nor pending`);
      return { row: pending, created: false };
    });
  }

  async latestExport(userId: number): Promise<DataExportRow | undefined> {
    const [row] = await this.db
      .select()
      .from(dataExports)
      .where(eq(dataExports.userId, userId))
      .orderBy(desc(dataExports.createdAt), desc(dataExports.id))
      .limit(1);
    return row;
  }

  /** Pending exports nobody holds now, oldest first (the dry run's plan; `claimExport`'s pool). */
  async exportsDue(now: Date, limit = 100) {
    return this.db
      .select({ id: dataExports.id, userId: dataExports.userId, attempts: dataExports.attempts })
      .from(dataExports)
      .where(this.exportDue(now))
      .orderBy(asc(dataExports.createdAt))
      .limit(limit);
  }

  private exportDue(now: Date) {
    return and(
      eq(dataExports.state, 'pending'),
      or(isNull(dataExports.claimedUntil), lte(dataExports.claimedUntil, now)),
    );
  }

  /** Claims the oldest due export for `leaseMs` (one instance builds it), counting the attempt. */
  async claimExport(now: Date, leaseMs: number): Promise<DataExportRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [due] = await tx
        .select({ id: dataExports.id })
        .from(dataExports)
        .where(this.exportDue(now))
        .orderBy(asc(dataExports.createdAt))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!due) return undefined;
      const [claimed] = await tx
        .update(dataExports)
        .set({
          claimedUntil: new Date(now.getTime() + leaseMs),
          attempts: sql`${dataExports.attempts} + 1`,
        })
        .where(eq(dataExports.id, due.id))
        .returning();
      return claimed;
    });
  }

  /** The built ZIP is in the store: the export is ready until `expiresAt`. False if it is gone. */
  async markExportReady(
    executor: Executor,
    id: number,
    values: { objectKey: string; sizeBytes: number; itemCount: number; at: Date; expiresAt: Date },
  ): Promise<boolean> {
    const updated = await executor
      .update(dataExports)
      .set({
        state: 'ready',
        objectKey: values.objectKey,
        sizeBytes: values.sizeBytes,
        itemCount: values.itemCount,
        readyAt: values.at,
        expiresAt: values.expiresAt,
        claimedUntil: null,
        error: null,
      })
      .where(and(eq(dataExports.id, id), eq(dataExports.state, 'pending')))
      .returning({ id: dataExports.id });
    return updated.length > 0;
  }

  /** A failed attempt: tried again after `retryAt`, or failed for good. */
  async markExportAttemptFailed(id: number, error: string, retryAt: Date | null) {
    await this.db
      .update(dataExports)
      .set(
        retryAt ? { claimedUntil: retryAt, error } : { state: 'failed', claimedUntil: null, error },
      )
      .where(and(eq(dataExports.id, id), eq(dataExports.state, 'pending')));
  }

  /** Ready exports past their expiry (the dry run's plan). */
  async exportsExpired(now: Date, limit = 1000) {
    return this.db
      .select({ id: dataExports.id, key: dataExports.objectKey })
      .from(dataExports)
      .where(and(eq(dataExports.state, 'ready'), lte(dataExports.expiresAt, now)))
      .orderBy(asc(dataExports.expiresAt))
      .limit(limit);
  }

  /**
   * Marks up to `limit` expired exports 'expired' in `tx` (rows locked, skipping those another
   * instance holds) and returns their object keys, for the caller to queue in the same `tx`.
   */
  async expireExports(tx: Executor, now: Date, limit = 200): Promise<string[]> {
    const due = await tx
      .select({ id: dataExports.id, key: dataExports.objectKey })
      .from(dataExports)
      .where(and(eq(dataExports.state, 'ready'), lte(dataExports.expiresAt, now)))
      .orderBy(asc(dataExports.expiresAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    await tx
      .update(dataExports)
      .set({ state: 'expired', objectKey: null })
      .where(
        inArray(
          dataExports.id,
          due.map((row) => row.id),
        ),
      );
    return due.flatMap((row) => (row.key ? [row.key] : []));
  }

  // ---- Erasure codes ----

  async findErasureCode(executor: Executor, userId: number, forUpdate = false) {
    const query = executor
      .select()
      .from(accountErasureCodes)
      .where(eq(accountErasureCodes.userId, userId));
    const [row] = forUpdate ? await query.for('update') : await query;
    return row;
  }

  async saveErasureCode(
    executor: Executor,
    values: {
      userId: number;
      codeHash: string;
      expiresAt: Date;
      sends: number;
      windowStartedAt: Date;
    },
  ) {
    await executor
      .insert(accountErasureCodes)
      .values({ ...values, attempts: 0 })
      .onConflictDoUpdate({
        target: accountErasureCodes.userId,
        set: { ...values, attempts: 0 },
      });
  }

  async setErasureAttempts(executor: Executor, userId: number, attempts: number) {
    await executor
      .update(accountErasureCodes)
      .set({ attempts })
      .where(eq(accountErasureCodes.userId, userId));
  }

  /** Spends the code: it works once. The send count stays for the hourly limit. */
  async spendErasureCode(executor: Executor, userId: number, at: Date) {
    await executor
      .update(accountErasureCodes)
      .set({ expiresAt: at, attempts: 0 })
      .where(eq(accountErasureCodes.userId, userId));
  }

  // ---- The action log ----

  async recordAction(
    executor: Executor,
    action: { actorId: number; subjectId: number; action: 'export' | 'erase'; at: Date },
  ) {
    await executor.insert(privacyActions).values({
      actorId: action.actorId,
      subjectId: action.subjectId,
      action: action.action,
      createdAt: action.at,
    });
  }

  async actions(page: { limit: number; offset: number }) {
    const items = await this.db
      .select()
      .from(privacyActions)
      .orderBy(desc(privacyActions.createdAt), desc(privacyActions.id))
      .limit(page.limit)
      .offset(page.offset);
    const [total] = await this.db.select({ n: count() }).from(privacyActions);
    return { items, total: Number(total?.n ?? 0) };
  }

  // ---- A person's data ----

  async personalData(userId: number): Promise<PersonalData | undefined> {
    const profile = await this.findUser(userId);
    if (!profile) return undefined;
    const own = this.db.select({ id: media.id }).from(media).where(eq(media.userId, userId));
    const commenter = alias(users, 'commenter');
    const [items, commentsReceived, likesReceived, likesGiven, commentsWritten] = await Promise.all(
      [
        this.db
          .select({
            row: media,
            orgName: organizations.name,
            deviceName: devices.name,
            templateName: templates.name,
          })
          .from(media)
          .leftJoin(organizations, eq(organizations.id, media.orgId))
          .leftJoin(devices, eq(devices.id, media.deviceId))
          .leftJoin(templates, eq(templates.id, media.templateId))
          .where(eq(media.userId, userId))
          .orderBy(asc(media.createdAt), asc(media.id)),
        this.db
          .select({
            mediaId: mediaComments.mediaId,
            userName: commenter.name,
            commentText: mediaComments.commentText,
            createdAt: mediaComments.createdAt,
          })
          .from(mediaComments)
          .innerJoin(commenter, eq(commenter.id, mediaComments.userId))
          .where(inArray(mediaComments.mediaId, own))
          .orderBy(asc(mediaComments.createdAt), asc(mediaComments.id)),
        this.db
          .select({ mediaId: mediaLikes.mediaId, createdAt: mediaLikes.createdAt })
          .from(mediaLikes)
          .where(inArray(mediaLikes.mediaId, own))
          .orderBy(asc(mediaLikes.createdAt)),
        this.db
          .select({ mediaId: mediaLikes.mediaId, createdAt: mediaLikes.createdAt })
          .from(mediaLikes)
          .where(eq(mediaLikes.userId, userId))
          .orderBy(asc(mediaLikes.createdAt)),
        this.db
          .select({
            id: mediaComments.id,
            mediaId: mediaComments.mediaId,
            commentText: mediaComments.commentText,
            createdAt: mediaComments.createdAt,
          })
          .from(mediaComments)
          .where(eq(mediaComments.userId, userId))
          .orderBy(asc(mediaComments.createdAt), asc(mediaComments.id)),
      ],
    );
    const transactions = await this.db
      .select({ row: paymentTransactions, orgName: organizations.name, deviceName: devices.name })
      .from(paymentTransactions)
      .leftJoin(organizations, eq(organizations.id, paymentTransactions.orgId))
      .leftJoin(devices, eq(devices.id, paymentTransactions.deviceId))
      .where(eq(paymentTransactions.userId, userId))
      .orderBy(asc(paymentTransactions.createdAt), asc(paymentTransactions.id));
    const refunds =
      transactions.length === 0
        ? []
        : await this.db
            .select()
            .from(paymentRefunds)
            .where(
              inArray(
                paymentRefunds.transactionId,
                transactions.map((t) => t.row.id),
              ),
            )
            .orderBy(asc(paymentRefunds.createdAt));
    const credit = await this.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.userId, userId))
      .orderBy(asc(creditLedger.createdAt), asc(creditLedger.id));
    return {
      profile,
      media: items,
      commentsReceived,
      likesReceived,
      likesGiven,
      commentsWritten,
      transactions,
      refunds,
      credit,
    };
  }
}
