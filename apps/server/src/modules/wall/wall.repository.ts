import { and, count, desc, eq, isNull, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../db/client.js';
import { mediaMatching, wordQuery } from '../../db/media-search.js';
import {
  after,
  cutPage,
  keyText,
  literalLimit,
  type Page,
  type PageQuery,
  pageKeyset,
} from '../../db/paging.js';
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
  /** Its owner made it public (only then is there something on the wall to hide). */
  isPublic: boolean;
  hiddenFromWallAt: Date | null;
  hiddenFromWallBy: number | null;
}

/**
 * On the wall: made public by its owner, uploaded, not hidden by a moderator. Written with no
 * parameters so that a cached (generic) plan still matches the partial index `media_wall_idx`.
 */
export function onWall(): SQL {
  return sql`(${media.isPublic} and ${media.isUploaded} and ${media.hiddenFromWallAt} is null)`;
}

/** The columns of an item the wall shows. */
const wallColumns = {
  id: media.id,
  mediaType: media.mediaType,
  s3Key: media.s3Key,
  lowresKey: media.lowresKey,
  previewKey: media.previewKey,
  gifKey: media.gifKey,
  orientation: media.orientation,
  caption: media.caption,
  isPublic: media.isPublic,
  isRepostAllowed: media.isRepostAllowed,
  isDownloaded: media.isDownloaded,
  isShared: media.isShared,
  isUploaded: media.isUploaded,
  likesCount: media.likesCount,
  publicId: media.publicId,
  createdAt: media.createdAt,
  updatedAt: media.updatedAt,
};

/** One wall item: what it shows of the media row, the names and whether the caller likes it. */
export type WallRow = { [K in keyof typeof wallColumns]: MediaRow[K] } & {
  /** `created_at` exact to the microsecond (a cursor's position, `keyText`). */
  cursorAt: string;
  orgName: string | null;
  deviceName: string | null;
  userName: string;
  likedByCaller: boolean;
};

/** Who asks for the wall (a verified token's claims): decides `likedByCaller`. */
export interface WallCaller {
  id: number;
  pool: 'regular' | 'enterprise';
}

/**
 * A wall page; `callerKnown` says whether the caller's account exists in its pool (undefined
 * when the page is empty: then nobody asked); `likers`, who likes each item (user ids, sorted: 4
 * bytes a like), when no item has more than `LIKERS_KEPT` likes (what the wall's page cache
 * keeps, `WallCache`).
 */
export type WallPageRows = Page<WallRow> & {
  callerKnown: boolean | undefined;
  likers: Map<number, Int32Array> | undefined;
};

/**
 * The most likes of one item whose likers a page reads (for the page cache, which answers
 * every caller's `is_liked_by_caller` from them): ten items' likers at most 10,000 ids.
 */
export const LIKERS_KEPT = 1000;

/** How many media are on the wall: one row kept by trigger (migration 0014). */
const onWallCount = sql<number>`(select ${wallStats.mediaCount} from ${wallStats} where ${wallStats.id} = 1)`;

/** The wall's items a search's words match (`wordQuery`, or a placeholder for one), as a CTE. */
function matchingCte(db: Database, words: string | Placeholder) {
  return db
    .$with('matching', { id: media.id, createdAt: media.createdAt })
    .as(mediaMatching(words, 'wall'));
}

/** How many items the `matching` CTE holds: a search's exact total. */
const matchCount = sql<number>`(select count(*)::int from matching)`;

/** The caller's id and pool as the prepared statements' parameters. */
const callerPlaceholders = {
  callerId: sql.placeholder('callerId'),
  callerPool: sql.placeholder('callerPool'),
};

/** Newest first, the order of `media_wall_idx`. */
const newestFirst = sql`order by ${media.createdAt} desc, ${media.id} desc`;

export class WallRepository {
  /** The first page (offset 0) per page size, each a prepared statement with a cached plan. */
  private readonly firstPages = new Map<number, ReturnType<WallRepository['prepareFirstPage']>>();
  /** Pages after a cursor without a search, the same way (the cursor's position as parameters). */
  private readonly cursorPages = new Map<number, ReturnType<WallRepository['prepareCursorPage']>>();
  /** A search's first page, the same way (the words as a parameter). */
  private readonly searchPages = new Map<number, ReturnType<WallRepository['prepareSearchPage']>>();

  /**
   * `readLikers`: pages are read with who likes each item (`WallPageRows.likers`), for the page
   * cache; without it (the cache off) `likers` is undefined and nothing extra is read: a page
   * with its likers costs PostgreSQL and the server more (docs/benchmarks.md, "The wall's page
   * cache"), paid once per change with the cache and on every request without.
   */
  constructor(
    private readonly db: Database,
    private readonly readLikers = false,
  ) {}

  /**
   * A page of the wall, newest first, searching caption, user, organization and booth names.
   * `caller` decides `likedByCaller` (false for nobody). One round trip in the common case
   * (docs/benchmarks.md, "The public wall"):
   * - the page's ids come from media alone (`media_wall_idx` in order, so the first page reads
   *   10 index entries and offset 5,000 skips index entries, not joined rows); the names and the
   *   caller's like are looked up for those 10 rows only;
   * - the first page, a page after a cursor and a search's first page are prepared statements
   *   whose plans PostgreSQL keeps (no planning per request); other pages are planned each time;
   * - a search is `mediaMatching`'s four word lookups (the caption through
   *   `media_wall_caption_words_idx`), found once (a CTE read twice is materialized) for both the
   *   page and the count; a search without words (`wordQuery`) finds nothing, unasked;
   * - the exact total rides along: `wall_stats` (kept by trigger) without a search, the count of
   *   the matches with one; asked on its own only when the page is empty.
   */
  async listPublic(caller: WallCaller | undefined, page: PageQuery): Promise<WallPageRows> {
    const callerParams = { callerId: caller?.id ?? null, callerPool: caller?.pool ?? null };
    const key = pageKeyset(page);
    // One more than the page: whether a page follows (its cursor), without counting.
    const limit = literalLimit(page.limit + 1);
    if (!page.search) {
      if (page.offset === 0 && !key) {
        let prepared = this.firstPages.get(page.limit);
        if (!prepared) {
          prepared = this.prepareFirstPage(page.limit);
          this.firstPages.set(page.limit, prepared);
        }
        return this.toPage(await prepared.execute(callerParams), page.limit, () =>
          this.wallCount(),
        );
      }
      if (key) {
        let prepared = this.cursorPages.get(page.limit);
        if (!prepared) {
          prepared = this.prepareCursorPage(page.limit);
          this.cursorPages.set(page.limit, prepared);
        }
        const rows = await prepared.execute({ ...callerParams, at: key.at, id: key.id });
        return this.toPage(rows, page.limit, () => this.wallCount());
      }
      const ids = sql`select ${media.id} from ${media} where ${onWall()} ${newestFirst}
        limit ${limit} offset ${page.offset}`;
      const rows = await this.pageQuery(ids, onWallCount, callerParams);
      return this.toPage(rows, page.limit, () => this.wallCount());
    }
    const words = wordQuery(page.search);
    if (words === undefined)
      return {
        rows: [],
        total: 0,
        nextCursor: null,
        callerKnown: undefined,
        likers: new Map(),
      };
    if (page.offset === 0 && !key) {
      let prepared = this.searchPages.get(page.limit);
      if (!prepared) {
        prepared = this.prepareSearchPage(page.limit);
        this.searchPages.set(page.limit, prepared);
      }
      return this.toPage(await prepared.execute({ ...callerParams, words }), page.limit, () =>
        this.countMatches(words),
      );
    }
    const matching = matchingCte(this.db, words);
    const from = after(key, sql`created_at`, sql`id`);
    const ids = sql`select id from matching ${from ? sql`where ${from}` : sql``}
      order by created_at desc, id desc
      limit ${limit} offset ${page.offset}`;
    const rows = await this.pageQuery(ids, matchCount, callerParams, matching);
    return this.toPage(rows, page.limit, () => this.countMatches(words));
  }

  /** How many items on the wall a search's words match (asked when its page is empty). */
  private async countMatches(words: string): Promise<number> {
    const matching = matchingCte(this.db, words);
    const [alone] = await this.db.with(matching).select({ total: count() }).from(matching);
    return alone?.total ?? 0;
  }

  /** A search's first page, prepared like the first page; the words as a parameter. */
  private prepareSearchPage(limit: number) {
    const matching = matchingCte(this.db, sql.placeholder('words'));
    const ids = sql`select id from matching order by created_at desc, id desc
      limit ${literalLimit(limit + 1)}`;
    return this.pageQuery(ids, matchCount, callerPlaceholders, matching).prepare(
      `wall_search_page_${limit}`,
    );
  }

  /**
   * The page after a cursor's item: a range of `media_wall_idx` from the position on (`after`),
   * as cheap as the first page at any depth; prepared like it, the position as parameters.
   */
  private prepareCursorPage(limit: number) {
    const from = after(
      {
        at: sql.placeholder('at') as unknown as string,
        id: sql.placeholder('id') as unknown as number,
      },
      media.createdAt,
      media.id,
    );
    const ids = sql`select ${media.id} from ${media} where ${onWall()} and ${from} ${newestFirst}
      limit ${literalLimit(limit + 1)}`;
    return this.pageQuery(ids, onWallCount, callerPlaceholders).prepare(
      `wall_cursor_page_${limit}`,
    );
  }

  private prepareFirstPage(limit: number) {
    const ids = sql`select ${media.id} from ${media} where ${onWall()} ${newestFirst}
      limit ${literalLimit(limit + 1)}`;
    return this.pageQuery(ids, onWallCount, callerPlaceholders).prepare(`wall_first_page_${limit}`);
  }

  /**
   * The items whose ids `ids` selects (in its order), with the names, the caller's like
   * (a primary-key probe per item), who likes each (up to `LIKERS_KEPT`, else null), the total
   * and whether the caller's account exists.
   */
  private pageQuery(
    ids: SQL,
    total: SQL<number>,
    caller: { callerId: unknown; callerPool: unknown },
    withCte?: ReturnType<Database['$with']>,
  ) {
    const builder = withCte ? this.db.with(withCte) : this.db;
    return builder
      .select({
        ...wallColumns,
        cursorAt: keyText(media.createdAt),
        orgName: organizations.name,
        deviceName: devices.name,
        userName: users.name,
        likedByCaller: sql<boolean>`exists (select 1 from ${mediaLikes} where ${mediaLikes.mediaId} = ${media.id} and ${mediaLikes.userId} = ${caller.callerId})`,
        likers: this.readLikers
          ? sql<
              number[] | null
            >`case when ${media.likesCount} <= ${sql.raw(String(LIKERS_KEPT))} then array(select ${mediaLikes.userId} from ${mediaLikes} where ${mediaLikes.mediaId} = ${media.id}) end`
          : sql<null>`null::int[]`,
        total: sql<number>`${total}`,
        // The caller's account still exists in its pool (what UsersService.caller checks),
        // answered here to save a round trip.
        callerKnown: sql<boolean>`exists (select 1 from ${users} where ${users.id} = ${caller.callerId} and ${users.pool} = ${caller.callerPool})`,
      })
      .from(media)
      .innerJoin(users, eq(users.id, media.userId))
      .leftJoin(organizations, eq(organizations.id, media.orgId))
      .leftJoin(devices, eq(devices.id, media.deviceId))
      .where(sql`${media.id} = any(array(${ids}))`)
      .orderBy(desc(media.createdAt), desc(media.id));
  }

  private async wallCount(): Promise<number> {
    const [row] = await this.db
      .select({ total: wallStats.mediaCount })
      .from(wallStats)
      .where(eq(wallStats.id, 1));
    return row?.total ?? 0;
  }

  /**
   * The rows (up to `limit + 1`) as a wall page of `limit`; the total asked on its own (`total`)
   * only when the page is empty.
   */
  private async toPage(
    read: (WallRow & { total: number; callerKnown: boolean; likers: number[] | null })[],
    limit: number,
    total: () => Promise<number>,
  ): Promise<WallPageRows> {
    const count = read[0]?.total ?? (await total());
    const { rows, nextCursor } = cutPage(read, limit, (row) => ({
      at: row.cursorAt,
      id: row.id,
    }));
    let likers: Map<number, Int32Array> | undefined = new Map();
    for (const row of rows) {
      if (row.likers === null) likers = undefined;
      else likers?.set(row.id, Int32Array.from(row.likers, Number).sort());
    }
    return {
      rows: rows.map(({ total: _total, callerKnown: _known, likers: _likers, ...row }) => ({
        ...row,
        likedByCaller: Boolean(row.likedByCaller),
      })),
      total: Number(count),
      nextCursor,
      callerKnown: read[0] && Boolean(read[0].callerKnown),
      likers,
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
      const [gone] = await tx.delete(mediaComments).where(eq(mediaComments.id, id)).returning({
        mediaId: mediaComments.mediaId,
        commentText: mediaComments.commentText,
        userId: mediaComments.userId,
      });
      if (!gone) return false;
      await tx.insert(moderationLog).values({
        actorId,
        action: 'delete_comment',
        mediaId: gone.mediaId,
        commentId: id,
        commentText: gone.commentText,
        commentAuthorId: gone.userId,
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
        isPublic: media.isPublic,
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
            // Only a public item can be hidden; checked here so an owner's concurrent
            // "make private" cannot slip between a check and the change.
            hide
              ? and(isNull(media.hiddenFromWallAt), eq(media.isPublic, true))
              : sql`${media.hiddenFromWallAt} is not null`,
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
          isPublic: media.isPublic,
          hiddenFromWallAt: media.hiddenFromWallAt,
          hiddenFromWallBy: media.hiddenFromWallBy,
        })
        .from(media)
        .where(eq(media.id, mediaId));
      return row;
    });
  }
}

/** One item of a kiosk wall, with its owner's name and its booth while still the venue's. */
export interface KioskRow {
  id: number;
  publicId: string;
  mediaType: 'image' | 'video';
  lowresKey: string | null;
  /** A video's animated WebP and .gif (gif kind). */
  previewKey: string | null;
  gifKey: string | null;
  orientation: 'portrait' | 'landscape';
  caption: string | null;
  likesCount: number;
  createdAt: Date;
  userName: string;
  deviceId: number | null;
  deviceName: string | null;
}

/** What a kiosk wall shows: the organization, its booths and its newest items on the wall. */
export interface KioskWallRows {
  org: { id: number; name: string; logoKey: string | null };
  booths: { id: number; name: string }[];
  items: KioskRow[];
}

/** The kiosk wall's reads (`walls/{orgId}`), kept apart from the paged wall's. */
export class KioskWallRepository {
  constructor(private readonly db: Database) {}

  /** Undefined when the organization does not exist. Items through `media_org_wall_idx`. */
  async kioskWall(orgId: number, limit: number): Promise<KioskWallRows | undefined> {
    const [org] = await this.db
      .select({ id: organizations.id, name: organizations.name, logoKey: organizations.logoKey })
      .from(organizations)
      .where(eq(organizations.id, orgId));
    if (!org) return undefined;
    const [booths, items] = await Promise.all([
      this.db
        .select({ id: devices.id, name: devices.name })
        .from(devices)
        .where(eq(devices.orgId, orgId))
        .orderBy(devices.id),
      this.db
        .select({
          id: media.id,
          publicId: media.publicId,
          mediaType: media.mediaType,
          lowresKey: media.lowresKey,
          previewKey: media.previewKey,
          gifKey: media.gifKey,
          orientation: media.orientation,
          caption: media.caption,
          likesCount: media.likesCount,
          createdAt: media.createdAt,
          userName: users.name,
          // The booth only while it still belongs to this venue (its QR code leads there).
          deviceId: sql<
            number | null
          >`case when ${devices.orgId} = ${orgId} then ${devices.id} end`,
          deviceName: sql<
            string | null
          >`case when ${devices.orgId} = ${orgId} then ${devices.name} end`,
        })
        .from(media)
        .innerJoin(users, eq(users.id, media.userId))
        .leftJoin(devices, eq(devices.id, media.deviceId))
        .where(and(eq(media.orgId, orgId), onWall()))
        .orderBy(desc(media.createdAt), desc(media.id))
        .limit(limit),
    ]);
    return { org, booths, items };
  }
}
