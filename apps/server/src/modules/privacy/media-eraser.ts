import { and, count, inArray, isNotNull, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Transaction } from '../../db/client.js';
import { media, mediaComments, mediaLikes, moderationLog, type MediaRow } from '../../db/schema.js';
import { SHARE_IMAGE_WIDTHS } from '../../lib/share-paths.js';
import { shareImageKey } from '../share/share-images.js';
import type { ObjectCleanup } from '../storage/object-cleanup.js';

/** What erasing media removed: counts only (the log and job reports get nothing else). */
export interface MediaErasure {
  media: number;
  likes: number;
  comments: number;
  /** Objects deleted from the store now; any left are queued and deleted by the cleanup job. */
  objects: number;
}

/**
 * Every store key of a media item: each `…Key` column with a value (today the HD file and the
 * preview; a column added later, a video's poster, is covered without changing this), and the
 * share page's images made from it (`share/{id}/w{width}.jpg`, present only once shared).
 */
export function objectKeysOf(row: MediaRow): string[] {
  const columns = Object.entries(row)
    .filter(([column, value]) => column.endsWith('Key') && typeof value === 'string' && value)
    .map(([, value]) => value as string);
  return [...columns, ...SHARE_IMAGE_WIDTHS.map((width) => shareImageKey(row.id, width))];
}

/**
 * Deletes media items for good: the rows with their likes and comments (by cascade), and every
 * object in the store. The keys are queued in the transaction that deletes the rows
 * (object_cleanup), then deleted from the store after the commit; so no row ever points at a
 * missing object, and an object the store could not delete now is deleted by the cleanup job.
 * Safe to call again for the same items: what is gone is skipped.
 */
export class MediaEraser {
  constructor(
    private readonly deps: {
      db: Database;
      cleanup: ObjectCleanup;
      log: FastifyBaseLogger;
      now: () => Date;
    },
  ) {}

  /** Erases the items with these ids (any that no longer exist are skipped). */
  async erase(ids: number[]): Promise<MediaErasure> {
    const unique = [...new Set(ids)];
    const total: MediaErasure = { media: 0, likes: 0, comments: 0, objects: 0 };
    for (let start = 0; start < unique.length; start += 500) {
      const batch = unique.slice(start, start + 500);
      const { counts, keys } = await this.deps.db.transaction((tx) =>
        this.eraseWhere(tx, inArray(media.id, batch)),
      );
      total.media += counts.media;
      total.likes += counts.likes;
      total.comments += counts.comments;
      total.objects += await this.deps.cleanup.deleteNow(keys);
    }
    return total;
  }

  /**
   * Deletes the media rows matching `where` inside `tx` and queues their objects, due now. The
   * caller deletes the returned keys with `cleanup.deleteNow` once `tx` has committed.
   */
  async eraseWhere(
    tx: Transaction,
    where: SQL | undefined,
  ): Promise<{ counts: Omit<MediaErasure, 'objects'>; keys: string[] }> {
    const ids = tx.select({ id: media.id }).from(media).where(where);
    const [likes] = await tx
      .select({ n: count() })
      .from(mediaLikes)
      .where(inArray(mediaLikes.mediaId, ids));
    const [comments] = await tx
      .select({ n: count() })
      .from(mediaComments)
      .where(inArray(mediaComments.mediaId, ids));
    // Likes and comments go with their item (ON DELETE CASCADE); the like counter's trigger and
    // the wall's count follow in this statement. The text of comments a moderator deleted from
    // the item goes from the moderation log; the log's entries stay.
    await tx
      .update(moderationLog)
      .set({ commentText: null })
      .where(and(inArray(moderationLog.mediaId, ids), isNotNull(moderationLog.commentText)));
    const deleted = await tx.delete(media).where(where).returning();
    const keys = await this.deps.cleanup.queue(
      tx,
      deleted.flatMap(objectKeysOf),
      'erased',
      this.deps.now(),
    );
    return {
      counts: {
        media: deleted.length,
        likes: Number(likes?.n ?? 0),
        comments: Number(comments?.n ?? 0),
      },
      keys,
    };
  }
}
