import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../../db/client.js';
import { objectCleanup, type ObjectCleanupReason } from '../../db/schema.js';
import type { ObjectStorage } from '../storage/storage.js';

/** What one cleanup run did (or, dry, would do): counts, and for a dry run the keys by reason. */
export interface CleanupReport {
  counts: { deleted: number; failed: number };
  plan?: string[];
}

/** How long one instance's claim on a queued object holds before another may take it over. */
const LEASE_MS = 5 * 60_000;
/** Objects deleted per claim. */
const BATCH = 200;
/** A failed delete is tried again after attempts² minutes, at most an hour apart. */
const retryDelayMs = (attempts: number) => Math.min(3_600_000, attempts * attempts * 60_000);

/**
 * The store's cleanup queue (object_cleanup): keys of objects the store should no longer hold.
 *
 * - A record whose row is deleted (an erased account's media, a deleted template) queues its keys
 *   in the same transaction that deletes the row, due at once; after the commit `deleteNow`
 *   deletes them. No row ever points at a deleted object, and a store that fails or an instance
 *   that stops in between leaves the key queued for the next run instead of an orphan.
 * - A presigned upload queues its key due a day later (`UNCONFIRMED_UPLOAD_MS`); confirming the
 *   upload takes the key off the queue (`keep`), so only uploads never confirmed are deleted.
 * - An expired export queues its ZIP.
 *
 * Every instance runs `runOnce`; each claims its batch (`FOR UPDATE SKIP LOCKED` and a lease), so
 * no two delete the same object at once, and deleting an object twice is harmless anyway.
 */
export class ObjectCleanup {
  constructor(
    private readonly deps: {
      db: Database;
      storage: ObjectStorage;
      now: () => Date;
      log: FastifyBaseLogger;
    },
  ) {}

  /**
   * Queues `keys` for deletion after `deleteAfter`, in `executor` (the transaction that deletes
   * or creates what they belong to). A key already queued keeps the earlier of the two times.
   */
  async queue(
    executor: Executor,
    keys: (string | null | undefined)[],
    reason: ObjectCleanupReason,
    deleteAfter: Date,
  ): Promise<string[]> {
    const unique = [...new Set(keys.filter((key): key is string => Boolean(key)))];
    if (unique.length === 0) return [];
    await executor
      .insert(objectCleanup)
      .values(unique.map((objectKey) => ({ objectKey, reason, deleteAfter })))
      .onConflictDoUpdate({
        target: objectCleanup.objectKey,
        set: {
          deleteAfter: sql`least(${objectCleanup.deleteAfter}, excluded.delete_after)`,
          reason: sql`excluded.reason`,
        },
      });
    return unique;
  }

  /**
   * Takes `key` off the queue: a record now points at it (an upload was confirmed). In the
   * confirming transaction, so a key is either queued or referenced.
   */
  async keep(executor: Executor, key: string): Promise<void> {
    await executor.delete(objectCleanup).where(eq(objectCleanup.objectKey, key));
  }

  /**
   * Deletes queued `keys` now (after the transaction that queued them committed). Those another
   * instance holds, or that fail, stay queued for `runOnce`. Returns how many were deleted.
   */
  async deleteNow(keys: string[]): Promise<number> {
    let deleted = 0;
    for (let start = 0; start < keys.length; start += BATCH) {
      const claimed = await this.claim(keys.slice(start, start + BATCH));
      deleted += (await this.deleteClaimed(claimed)).deleted;
    }
    return deleted;
  }

  /** One sweep of the due objects (every instance, on an interval; by hand with a dry run). */
  async runOnce(options: { dryRun?: boolean } = {}): Promise<CleanupReport> {
    if (options.dryRun) {
      const due = await this.deps.db
        .select({ key: objectCleanup.objectKey, reason: objectCleanup.reason })
        .from(objectCleanup)
        .where(this.dueCondition())
        .orderBy(asc(objectCleanup.deleteAfter))
        .limit(1000);
      return {
        counts: { deleted: due.length, failed: 0 },
        plan: due.map((row) => `delete object ${row.key} (${row.reason})`),
      };
    }
    const total = { deleted: 0, failed: 0 };
    // Batches until nothing due is left unclaimed (bounded, so one run never runs forever).
    for (let round = 0; round < 50; round += 1) {
      const claimed = await this.claim();
      if (claimed.length === 0) break;
      const { deleted, failed } = await this.deleteClaimed(claimed);
      total.deleted += deleted;
      total.failed += failed;
    }
    return { counts: total };
  }

  /** Queued keys not yet due or claimed elsewhere (tests, health). */
  async pending(): Promise<{ key: string; reason: ObjectCleanupReason; deleteAfter: Date }[]> {
    return this.deps.db
      .select({
        key: objectCleanup.objectKey,
        reason: objectCleanup.reason,
        deleteAfter: objectCleanup.deleteAfter,
      })
      .from(objectCleanup)
      .orderBy(asc(objectCleanup.deleteAfter));
  }

  private dueCondition() {
    const now = this.deps.now();
    return and(
      lte(objectCleanup.deleteAfter, now),
      or(isNull(objectCleanup.claimedUntil), lte(objectCleanup.claimedUntil, now)),
    );
  }

  /** Claims up to BATCH due keys (only among `keys` when given) for LEASE_MS. */
  private async claim(keys?: string[]): Promise<{ key: string; attempts: number }[]> {
    const now = this.deps.now();
    return this.deps.db.transaction(async (tx) => {
      const due = await tx
        .select({ key: objectCleanup.objectKey })
        .from(objectCleanup)
        .where(and(this.dueCondition(), keys ? inArray(objectCleanup.objectKey, keys) : undefined))
        .orderBy(asc(objectCleanup.deleteAfter))
        .limit(BATCH)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(objectCleanup)
        .set({
          claimedUntil: new Date(now.getTime() + LEASE_MS),
          attempts: sql`${objectCleanup.attempts} + 1`,
        })
        .where(
          inArray(
            objectCleanup.objectKey,
            due.map((row) => row.key),
          ),
        )
        .returning({ key: objectCleanup.objectKey, attempts: objectCleanup.attempts });
    });
  }

  private async deleteClaimed(claimed: { key: string; attempts: number }[]) {
    let deleted = 0;
    let failed = 0;
    for (const { key, attempts } of claimed) {
      try {
        await this.deps.storage.delete(key);
        await this.deps.db.delete(objectCleanup).where(eq(objectCleanup.objectKey, key));
        deleted += 1;
      } catch (error) {
        failed += 1;
        const message = error instanceof Error ? error.message : String(error);
        this.deps.log.warn(
          { err: error, key, attempts },
          'could not delete an object from the store; it stays queued and is tried again',
        );
        await this.deps.db
          .update(objectCleanup)
          .set({
            claimedUntil: new Date(this.deps.now().getTime() + retryDelayMs(attempts)),
            lastError: message.slice(0, 500),
          })
          .where(eq(objectCleanup.objectKey, key));
      }
    }
    return { deleted, failed };
  }
}

/** How long a presigned upload may stay unconfirmed before its object is deleted: a day. */
export const UNCONFIRMED_UPLOAD_MS = 24 * 3_600_000;
