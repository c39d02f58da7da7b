import { and, count, desc, eq, isNull, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../db/client.js';
import { containing, type Page, type PageQuery } from '../../db/paging.js';
import {
  devices,
  media,
  mediaComments,
  mediaLikes,
  type MediaRow,
  moderationLog,
  organizations,
  users,
  wallStats,
} from '../../db/schema.js';

/** One wall item: the media row, the names it shows and whether the caller likes it. */
export type WallRow = MediaRow & {
  orgName: string | null;
  deviceName: string | null;
  userName: string;
  likedByCaller: boolean;
};

/** One comment with its author's name. */
export interface CommentRow {
  id: number;
  mediaId: number;
  userId: number;
  userName: string | null;
  commentText: string;
  createdAt: Date;
}

/** What the moderation checks read of an item. */
export interface ModeratedMedia {
  id: number;
  orgId: number | null;
  hiddenFromWallAt: Date | null;
  hiddenFromWallBy: number | null;
}

/** On the wall: made public by its owner, uploaded, not hidden by a moderator (media_wall_idx). */
export function onWall(): SQL {
  return and(eq(media.isPublic, true), eq(media.isUploaded, true), isNull(media.hiddenFromWallAt))!;
}

/** One row of the page query. */
interface PageRow {
  media: MediaRow;
  orgName: string | null;
  deviceName: string | null;
  userName: string;
  likedByCaller: boolean;
  total: number;
  callerKnown: boolean;
}

/** Who asks for the wall (a verified token's claims): decides `likedByCaller`. */
export interface WallCaller {
  id: number;
  pool: 'regular' | 'enterprise';
}

/**
 * A wall page; `callerKnown` says whether the caller's account exists in its pool (undefined
 * when the page is empty: then nobody asked).
 */
export type WallPageRows = Page<WallRow> & { callerKnown: boolean | undefined };

/** How many media are on the wall: one row kept by trigger (migration 0014). */
const onWallCount = sql<number>`(select ${wallStats.mediaCount} from ${wallStats} where ${wallStats.id} = 1)`;

export class WallRepository {
  /** The page without a search, prepared once (planning cost more than running it). */
  private readonly firstPages;

  constructor(private readonly db: Database) {
    this.firstPages = this.pageQuery(
      onWall(),
      onWallCount,
      sql.placeholder('callerId'),
      sql.placeholder('callerPool'),
      sql.placeholder('limit'),
      sql.placeholder('offset'),
    ).prepare('wall_page');
  }

  /**
   * A page of the wall, newest first, searching caption, user, organization and booth names.
   * `callerId` decides `likedByCaller` (false for nobody). One round trip in the common case
   * (docs/benchmarks.md, "The public wall"):
   * - the page's ids come from media alone (`media_wall_idx` in order, so the first page reads
   *   10 index entries and offset 5,000 skips index entries, not joined rows); the names are
   *   joined to those 10 rows only;
   * - a search unites four index lookups (the caption through `media_wall_caption_trgm_idx`,
   *   the user, organization and booth names through their trigram indexes), the same ILIKE as
   *   a join with an OR would give;
   * - the exact total rides along in the same statement: `wall_stats` (kept by trigger) without
   *   a search, `count(*) over ()` of the matching items with one (the matches are found once);
   *   asked on its own only when the page is empty.
   */
  async listPublic(caller: WallCaller | undefined, page: PageQuery): Promise<WallPageRows> {
    const callerId = caller?.id;
    if (!page.search) {
      const rows = await this.firstPages.execute({
        callerId: callerId ?? null,
        callerPool: caller?.pool ?? null,
        limit: page.limit,
        offset: page.offset,
      });
      return this.toPage(rows, onWallCount);
    }
    const pattern = containing(page.search);
    // Each way of matching on its own index (trigram on the caption and on each name table),
    // the item ids united; the same ILIKE as a join with an OR would give.
    const matching = sql`
      select ${media.id} from ${media} where ${onWall()} and ${media.caption} ilike ${pattern}
      union select ${media.id} from ${media} join ${users} on ${users.id} = ${media.userId}
        where ${onWall()} and ${users.name} ilike ${pattern}
      union select ${media.id} from ${media} join ${organizations} on ${organizations.id} = ${media.orgId}
        where ${onWall()} and ${organizations.name} ilike ${pattern}
      union select ${media.id} from ${media} join ${devices} on ${devices.id} = ${media.deviceId}
        where ${onWall()} and ${devices.name} ilike ${pattern}`;
    const rows = await this.pageQuery(
      and(onWall(), sql`${media.id} in (${matching})`)!,
      sql<number>`(count(*) over ())::int`,
      callerId === undefined ? sql`null` : sql`${callerId}`,
      caller === undefined ? sql`null` : sql`${caller.pool}`,
      page.limit,
      page.offset,
    );
    return this.toPage(rows, sql<number>`(select count(*)::int from (${matching}) as matching)`);
  }

  /**
   * The page's ids from media alone (`media_wall_idx` in order: the first page reads 10 index
   * entries, offset 5,000 skips index entries, not joined rows), then the names and the caller's
   * like for those rows only, and the exact total in the same statement.
   */
  private pageQuery(
    where: SQL,
    total: SQL<number>,
    callerId: SQL | Placeholder,
    callerPool: SQL | Placeholder,
    limit: number | Placeholder,
    offset: number | Placeholder,
  ) {
    const ids = this.db
      .select({ id: media.id, total: total.as('wall_total') })
      .from(media)
      .where(where)
      .orderBy(desc(media.createdAt), desc(media.id))
      .limit(limit)
      .offset(offset)
      .as('wall_page');
    return this.db
      .select({
        media,
        orgName: organizations.name,
        deviceName: devices.name,
        userName: users.name,
        likedByCaller: sql<boolean>`exists (select 1 from ${mediaLikes} where ${mediaLikes.mediaId} = ${media.id} and ${mediaLikes.userId} = ${callerId})`,
        total: ids.total,
        // The caller's account still exists in its pool (what UsersService.caller checks),
        // answered here to save a round trip.
        callerKnown: sql<boolean>`exists (select 1 from ${users} where ${users.id} = ${callerId} and ${users.pool} = ${callerPool})`,
      })
      .from(ids)
      .innerJoin(media, eq(media.id, ids.id))
      .innerJoin(users, eq(users.id, media.userId))
      .leftJoin(organizations, eq(organizations.id, media.orgId))
      .leftJoin(devices, eq(devices.id, media.deviceId))
      .orderBy(desc(media.createdAt), desc(media.id));
  }

  /** The rows as wall rows; the total (`total`) asked on its own only when the page is empty. */
  private async toPage(rows: PageRow[], total: SQL<number>): Promise<WallPageRows> {
    let count = rows[0]?.total;
    if (count === undefined) {
      const [alone] = rowsOf<{ total: number }>(
        await this.db.execute(sql`select ${total} as total`),
      );
      count = alone?.total ?? 0;
    }
    return {
      rows: rows.map((row) => ({
        ...row.media,
        orgName: row.orgName,
        deviceName: row.deviceName,
        userName: row.userName,
        likedByCaller: Boolean(row.likedByCaller),
      })),
      total: Number(count),
      callerKnown: rows[0] && Boolean(rows[0].callerKnown),
    };
  }

  /** Whether the item is on the wall now. */
  async isOnWall(mediaId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ id: media.id })
      .from(media)
      .where(and(eq(media.id, mediaId), onWall()));
    return row !== undefined;
  }

  /**
   * Likes an item on the wall, once (the primary key; a second like is no change). The count is
   * kept by the media_likes trigger in the same statement. Undefined when the item is not on the
   * wall.
   */
  async like(mediaId: number, userId: number): Promise<{ likesCount: number } | undefined> {
    await this.db.execute(sql`
      insert into ${mediaLikes} (media_id, user_id)
      select ${media.id}, ${userId} from ${media} where ${media.id} = ${mediaId} and ${onWall()}
      on conflict do nothing`);
    return this.likesCount(mediaId);
  }

  /** Takes the caller's like back (none is no change); undefined when not on the wall. */
  async unlike(mediaId: number, userId: number): Promise<{ likesCount: number } | undefined> {
    await this.db
      .delete(mediaLikes)
      .where(
        and(
          eq(mediaLikes.mediaId, mediaId),
          eq(mediaLikes.userId, userId),
          sql`exists (select 1 from ${media} where ${media.id} = ${mediaId} and ${onWall()})`,
        ),
      );
    return this.likesCount(mediaId);
  }

  private async likesCount(mediaId: number): Promise<{ likesCount: number } | undefined> {
    const [row] = await this.db
      .select({ likesCount: media.likesCount })
      .from(media)
      .where(and(eq(media.id, mediaId), onWall()));
    return row;
  }

  async isLikedBy(mediaId: number, userId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ mediaId: mediaLikes.mediaId })
      .from(mediaLikes)
      .where(and(eq(mediaLikes.mediaId, mediaId), eq(mediaLikes.userId, userId)));
    return row !== undefined;
  }

  /** An item's comments, newest first. */
  async listComments(
    mediaId: number,
    page: { limit: number; offset: number },
  ): Promise<Page<CommentRow>> {
    const rows = await this.db
      .select({
        id: mediaComments.id,
        mediaId: mediaComments.mediaId,
        userId: mediaComments.userId,
        userName: users.name,
        commentText: mediaComments.commentText,
        createdAt: mediaComments.createdAt,
      })
      .from(mediaComments)
      .leftJoin(users, eq(users.id, mediaComments.userId))
      .where(eq(mediaComments.mediaId, mediaId))
      .orderBy(desc(mediaComments.createdAt), desc(mediaComments.id))
      .limit(page.limit)
      .offset(page.offset);
    const [total] = await this.db
      .select({ value: count() })
      .from(mediaComments)
      .where(eq(mediaComments.mediaId, mediaId));
    return { rows, total: total?.value ?? 0 };
  }

  /** Adds a comment to an item on the wall; undefined when it is not on the wall. */
  async addComment(
    mediaId: number,
    userId: number,
    text: string,
    at: Date,
  ): Promise<{ id: number; createdAt: Date } | undefined> {
    const result = await this.db.execute(sql`
      insert into ${mediaComments} (media_id, user_id, comment_text, created_at, updated_at)
      select ${media.id}, ${userId}, ${text}, ${at.toISOString()}::timestamptz,
        ${at.toISOString()}::timestamptz
      from ${media} where ${media.id} = ${mediaId} and ${onWall()}
      returning id`);
    const [row] = rowsOf<{ id: number }>(result);
    return row && { id: Number(row.id), createdAt: at };
  }

  /** A comment with the state of its item (on the wall or not, its organization). */
  async findComment(
    id: number,
  ): Promise<(CommentRow & { mediaOnWall: boolean; orgId: number | null }) | undefined> {
    const [row] = await this.db
      .select({
        id: mediaComments.id,
        mediaId: mediaComments.mediaId,
        userId: mediaComments.userId,
        userName: users.name,
        commentText: mediaComments.commentText,
        createdAt: mediaComments.createdAt,
        orgId: media.orgId,
        mediaOnWall: sql<boolean>`(${onWall()})`,
      })
      .from(mediaComments)
      .innerJoin(media, eq(media.id, mediaComments.mediaId))
      .leftJoin(users, eq(users.id, mediaComments.userId))
      .where(eq(mediaComments.id, id));
    return row && { ...row, mediaOnWall: Boolean(row.mediaOnWall) };
  }

  /** Changes the author's own comment; undefined when it is not theirs. */
  async updateComment(id: number, userId: number, text: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(mediaComments)
      .set({ commentText: text, updatedAt: at })
      .where(and(eq(mediaComments.id, id), eq(mediaComments.userId, userId)))
      .returning({ id: mediaComments.id });
    return rows.length > 0;
  }

  /** Deletes the author's own comment; false when it is not theirs (or gone). */
  async deleteOwnComment(id: number, userId: number): Promise<boolean> {
    const rows = await this.db
      .delete(mediaComments)
      .where(and(eq(mediaComments.id, id), eq(mediaComments.userId, userId)))
      .returning({ id: mediaComments.id });
    return rows.length > 0;
  }

  /** A moderator deletes a comment; the deletion and its log entry in one transaction. */
  async moderateDeleteComment(id: number, actorId: number, at: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [gone] = await tx
        .delete(mediaComments)
        .where(eq(mediaComments.id, id))
        .returning({ mediaId: mediaComments.mediaId, commentText: mediaComments.commentText });
      if (!gone) return false;
      await tx.insert(moderationLog).values({
        actorId,
        action: 'delete_comment',
        mediaId: gone.mediaId,
        commentId: id,
        commentText: gone.commentText,
        createdAt: at,
      });
      return true;
    });
  }

  async findModerated(mediaId: number): Promise<ModeratedMedia | undefined> {
    const [row] = await this.db
      .select({
        id: media.id,
        orgId: media.orgId,
        hiddenFromWallAt: media.hiddenFromWallAt,
        hiddenFromWallBy: media.hiddenFromWallBy,
      })
      .from(media)
      .where(eq(media.id, mediaId));
    return row;
  }

  /**
   * Hides an item from the wall (`hide`) or shows it again. A change is logged with its actor in
   * the same transaction; repeating the current state changes and logs nothing.
   */
  async setHidden(
    mediaId: number,
    hide: boolean,
    actorId: number,
    at: Date,
  ): Promise<ModeratedMedia | undefined> {
    return this.db.transaction(async (tx) => {
      const changed = await tx
        .update(media)
        .set(
          hide
            ? { hiddenFromWallAt: at, hiddenFromWallBy: actorId }
            : { hiddenFromWallAt: null, hiddenFromWallBy: null },
        )
        .where(
          and(
            eq(media.id, mediaId),
            hide ? isNull(media.hiddenFromWallAt) : sql`${media.hiddenFromWallAt} is not null`,
          ),
        )
        .returning({ id: media.id });
      if (changed.length > 0) {
        await tx.insert(moderationLog).values({
          actorId,
          action: hide ? 'hide_media' : 'show_media',
          mediaId,
          createdAt: at,
        });
      }
      const [row] = await tx
        .select({
          id: media.id,
          orgId: media.orgId,
          hiddenFromWallAt: media.hiddenFromWallAt,
          hiddenFromWallBy: media.hiddenFromWallBy,
        })
        .from(media)
        .where(eq(media.id, mediaId));
      return row;
    });
  }
}
