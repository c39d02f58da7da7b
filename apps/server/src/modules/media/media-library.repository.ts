import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../db/client.js';
import { mediaMatching, wordQuery } from '../../db/media-search.js';
import {
  after,
  allOf,
  cutPage,
  keyText,
  literalLimit,
  type Page,
  type PageQuery,
  pageKeyset,
} from '../../db/paging.js';
import {
  media,
  mediaDailyCounts,
  type MediaRow,
  moderationLog,
  organizations,
  users,
} from '../../db/schema.js';
import { type MediaListRow, selectMediaWithNames, withNames } from './media.repository.js';

/** One item of the staff media views with the names it is shown with. */
export type LibraryRow = MediaListRow;

/** What All Media narrows to besides the search. */
export interface LibraryFilter {
  orgId?: number | undefined;
  deviceId?: number | undefined;
}

/**
 * The staff media views' queries (staff spec sections 2 and 7): an organization's media whose
 * owners allow reposting, and every item (All Media). Only uploaded items are listed: an item
 * whose file never arrived has nothing to show or download. Newest first.
 */
export class MediaLibraryRepository {
  constructor(private readonly db: Database) {}

  /**
   * The moderation log of the organization's items (hides, shows, deleted comments), newest
   * first, with each moderator's name as it is now. Entries of items since deleted drop out.
   */
  async moderationLog(orgId: number, page: { limit: number; offset: number }) {
    const where = eq(media.orgId, orgId);
    const items = await this.db
      .select({
        id: moderationLog.id,
        action: moderationLog.action,
        mediaId: moderationLog.mediaId,
        commentId: moderationLog.commentId,
        actorId: moderationLog.actorId,
        actorName: users.name,
        createdAt: moderationLog.createdAt,
      })
      .from(moderationLog)
      .innerJoin(media, eq(media.id, moderationLog.mediaId))
      .leftJoin(users, eq(users.id, moderationLog.actorId))
      .where(where)
      .orderBy(desc(moderationLog.createdAt), desc(moderationLog.id))
      .limit(page.limit)
      .offset(page.offset);
    const [total] = await this.db
      .select({ n: count() })
      .from(moderationLog)
      .innerJoin(media, eq(media.id, moderationLog.mediaId))
      .where(where);
    return { items, total: Number(total?.n ?? 0) };
  }

  async organizationExists(orgId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, orgId));
    return row !== undefined;
  }

  /** Media made at the organization's booths whose owner allows reposting. */
  repostAllowed(orgId: number, page: PageQuery): Promise<Page<LibraryRow>> {
    return this.list(
      page,
      and(eq(media.orgId, orgId), eq(media.isRepostAllowed, true)),
      sql`select coalesce(sum(${mediaDailyCounts.repostAllowed}), 0)::int as value
        from ${mediaDailyCounts} where ${mediaDailyCounts.orgId} = ${orgId}`,
    );
  }

  /** Every item, narrowed to one organization and/or booth when asked. */
  all(page: PageQuery, filter: LibraryFilter): Promise<Page<LibraryRow>> {
    const counted = allOf(
      filter.orgId === undefined ? undefined : eq(mediaDailyCounts.orgId, filter.orgId),
      filter.deviceId === undefined ? undefined : eq(mediaDailyCounts.deviceId, filter.deviceId),
    );
    return this.list(
      page,
      allOf(
        filter.orgId === undefined ? undefined : eq(media.orgId, filter.orgId),
        filter.deviceId === undefined ? undefined : eq(media.deviceId, filter.deviceId),
      ),
      sql`select coalesce(sum(${mediaDailyCounts.media}), 0)::int as value
        from ${mediaDailyCounts} ${counted ? sql`where ${counted}` : sql``}`,
    );
  }

  /**
   * A page of uploaded media within `scope` (a condition on `media` alone), newest first,
   * searching the owner's name, the organization, the booth and the caption. As on the wall
   * (docs/benchmarks.md): the page's ids come from `media` alone in the order of an index
   * (`media_uploaded_idx`, or the organization's or booth's, migration 0015), the names are
   * joined to those rows only, and the count reads `media` alone (every item has an owner, so
   * the join with users drops nothing); a search is `mediaMatching`'s word lookups, the page
   * and the count as two statements side by side (none for a search without words). Without a
   * search the total is `counted`: a sum of `media_daily_counts` rows (migration 0023, kept
   * exact by trigger), not a count of media.
   * A page by cursor starts after the cursor's item in the same index (a range, not a skip).
   */
  private async list(
    page: PageQuery,
    scope: SQL | undefined,
    counted: SQL,
  ): Promise<Page<LibraryRow>> {
    const key = pageKeyset(page);
    // Written without a parameter so the partial indexes' predicate is seen in any plan.
    const uploaded = allOf(sql`${media.isUploaded}`, scope)!;
    // One more than the page: whether a page follows (its cursor), without counting.
    const limit = literalLimit(page.limit + 1);
    const cut = (rows: (LibraryRow & { cursorAt: string })[], total: number) => ({
      ...cutPage(rows, page.limit, (row) => ({ at: row.cursorAt, id: row.id })),
      total,
    });
    if (!page.search) {
      const from = after(key, media.createdAt, media.id);
      const [rows, total] = await Promise.all([
        this.rowsOf(sql`select ${media.id} from ${media} where ${allOf(uploaded, from)}
          order by ${media.createdAt} desc, ${media.id} desc
          limit ${limit} offset ${page.offset}`),
        this.db.execute(counted),
      ]);
      return cut(rows, Number(rowsOf<{ value: unknown }>(total)[0]?.value ?? 0));
    }
    const words = wordQuery(page.search);
    if (words === undefined) return cut([], 0);
    const matching = this.db
      .$with('matching', { id: media.id, createdAt: media.createdAt })
      .as(mediaMatching(words, 'uploaded', scope));
    const from = after(key, sql`created_at`, sql`id`);
    const [rows, [matches]] = await Promise.all([
      this.rowsOf(
        sql`select id from matching ${from ? sql`where ${from}` : sql``}
          order by created_at desc, id desc
          limit ${limit} offset ${page.offset}`,
        matching,
      ),
      this.db.with(matching).select({ value: count() }).from(matching),
    ]);
    return cut(rows, matches?.value ?? 0);
  }

  /** The items whose ids `ids` selects, with their names and cursor positions, newest first. */
  private async rowsOf(
    ids: SQL,
    withCte?: ReturnType<Database['$with']>,
  ): Promise<(LibraryRow & { cursorAt: string })[]> {
    const rows = await selectMediaWithNames(withCte ? this.db.with(withCte) : this.db, {
      cursorAt: keyText(media.createdAt),
    })
      .where(sql`${media.id} = any(array(${ids}))`)
      .orderBy(desc(media.createdAt), desc(media.id));
    return withNames(rows);
  }
}

/** Whether the venue's moderators hid the item from the wall (migration 0013). */
export const isHiddenFromWall = (row: Pick<MediaRow, 'hiddenFromWallAt'>): boolean =>
  row.hiddenFromWallAt !== null;
