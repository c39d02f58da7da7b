import {
  and,
  count,
  desc,
  eq,
  gte,
  inArray,
  isNull,
  lt,
  lte,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { type Database, rowsOf } from '../../db/client.js';
import {
  after,
  allOf,
  cutPage,
  keyText,
  type Page,
  type PageQuery,
  pageKeyset,
  searchAny,
} from '../../db/paging.js';
import {
  devices,
  media,
  type MediaRow,
  organizations,
  templateOrganizations,
  users,
} from '../../db/schema.js';
import { mediaVisibleToOwner } from './captures.repository.js';

/** An item's row with the names it is shown with. */
export type MediaListRow = MediaRow & {
  orgName: string | null;
  deviceName: string | null;
  userName: string;
};

/**
 * Media rows with the names they are shown with: the owner (every item has one), the
 * organization and the booth (either may be gone). Narrow it with `.where`; `withNames` makes the
 * answer `MediaListRow`s. `db` may be a `db.with(cte)` builder.
 */
export function selectMediaWithNames<
  Extra extends Record<string, SQL.Aliased | SQL> = Record<never, never>,
>(db: Database | ReturnType<Database['with']>, extra?: Extra) {
  return db
    .select({
      media,
      orgName: organizations.name,
      deviceName: devices.name,
      userName: users.name,
      ...(extra ?? ({} as Extra)),
    })
    .from(media)
    .innerJoin(users, eq(users.id, media.userId))
    .leftJoin(organizations, eq(organizations.id, media.orgId))
    .leftJoin(devices, eq(devices.id, media.deviceId));
}

/** `selectMediaWithNames`'s rows as `MediaListRow`s. */
export function withNames<Extra extends object = object>(
  rows: ({
    media: MediaRow;
    orgName: string | null;
    deviceName: string | null;
    userName: string;
  } & Extra)[],
): (MediaListRow & Extra)[] {
  return rows.map(({ media: row, ...names }) => ({ ...row, ...names }) as MediaListRow & Extra);
}

export interface MediaChanges {
  isPublic?: boolean;
  caption?: string | null;
  isDownloaded?: boolean;
  isShared?: boolean;
}

export class MediaRepository {
  constructor(private readonly db: Database) {}

  async templateOfferedBy(templateId: number, orgId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ templateId: templateOrganizations.templateId })
      .from(templateOrganizations)
      .where(
        and(
          eq(templateOrganizations.templateId, templateId),
          eq(templateOrganizations.orgId, orgId),
        ),
      );
    return row !== undefined;
  }

  async findById(id: number): Promise<MediaRow | undefined> {
    const [row] = await this.db.select().from(media).where(eq(media.id, id));
    return row;
  }

  /** The caller's own items among `ids` (others' and unknown ids are left out). */
  async uploadedStates(userId: number, ids: number[]) {
    if (ids.length === 0) return [];
    return this.db
      .select({
        id: media.id,
        isUploaded: media.isUploaded,
        lowresKey: media.lowresKey,
        orientation: media.orientation,
      })
      .from(media)
      .where(and(eq(media.userId, userId), inArray(media.id, ids)))
      .orderBy(media.id);
  }

  /**
   * Sets is_repost_allowed on all of `ids` when every one is the caller's; false (and nothing
   * changed) when any is not.
   */
  async setRepostAllowed(
    userId: number,
    ids: number[],
    allowed: boolean,
    at: Date,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const owned = await tx
        .select({ id: media.id })
        .from(media)
        .where(and(eq(media.userId, userId), inArray(media.id, ids)))
        .for('update');
      if (owned.length !== ids.length) return false;
      await tx
        .update(media)
        .set({ isRepostAllowed: allowed, updatedAt: at })
        .where(and(eq(media.userId, userId), inArray(media.id, ids)));
      return true;
    });
  }

  /**
   * A page of the caller's media, newest first (`media_user_idx`), searching caption,
   * organization and device; by offset or after a cursor's item.
   */
  async listOwn(userId: number, page: PageQuery): Promise<Page<MediaListRow>> {
    const key = pageKeyset(page);
    // Items of a capture given back (or otherwise over) that never arrived are not shown.
    const where = allOf(
      eq(media.userId, userId),
      mediaVisibleToOwner(),
      searchAny(page.search, [media.caption, organizations.name, devices.name]),
    );
    const [rows, [counted]] = await Promise.all([
      selectMediaWithNames(this.db, { cursorAt: keyText(media.createdAt) })
        .where(allOf(where, after(key, media.createdAt, media.id)))
        .orderBy(desc(media.createdAt), desc(media.id))
        // One more than the page: whether a page follows (its cursor), without counting.
        .limit(page.limit + 1)
        .offset(page.offset),
      this.db
        .select({ value: count() })
        .from(media)
        .leftJoin(organizations, eq(organizations.id, media.orgId))
        .leftJoin(devices, eq(devices.id, media.deviceId))
        .where(where),
    ]);
    return {
      ...cutPage(withNames(rows), page.limit, (row) => ({ at: row.cursorAt, id: row.id })),
      total: counted?.value ?? 0,
    };
  }

  /** Changes one of the caller's items; undefined when it is not theirs (or does not exist). */
  async updateOwn(
    userId: number,
    id: number,
    changes: MediaChanges,
    at: Date,
  ): Promise<MediaRow | undefined> {
    const [row] = await this.db
      .update(media)
      .set({ ...changes, updatedAt: at })
      .where(and(eq(media.id, id), eq(media.userId, userId)))
      .returning();
    return row;
  }

  /** The device a booth authenticates as: its id and secret hash, by thing name. */
  async deviceByThingName(
    thingName: string,
  ): Promise<{ id: number; secretHash: string } | undefined> {
    const [row] = await this.db
      .select({ id: devices.id, secretHash: devices.secretHash })
      .from(devices)
      .where(eq(devices.thingName, thingName));
    return row;
  }

  /**
   * Marks an item uploaded, once: false when it already was (a concurrent confirmation won). Its
   * preview is made afterwards (`claimPreview` … `savePreview`); until then lowres_key is null.
   */
  /**
   * Marks the item uploaded at `at`, with when its capture ended (`capturedAt`, for the delivery
   * time); false when it already was (a concurrent or repeated confirmation).
   */
  async markUploaded(id: number, at: Date, capturedAt: Date | null = null): Promise<boolean> {
    const rows = await this.db
      .update(media)
      .set({ isUploaded: true, updatedAt: at, uploadedAt: at, capturedAt })
      .where(and(eq(media.id, id), eq(media.isUploaded, false)))
      .returning({ id: media.id });
    return rows.length > 0;
  }

  /**
   * Claims one uploaded item still waiting for its preview (`id`, or the oldest such item when
   * absent) until `leaseUntil`, counting the attempt. Not claimed: an item with a preview or a
   * recorded failure, one with `maxAttempts` attempts, and one whose lease (another instance's,
   * or a run of this one) has not run out at `at`. The row is locked with SKIP LOCKED and the
   * conditions checked again by the update, so two instances never claim the same item at once.
   */
  async claimPreview(claim: {
    id?: number;
    at: Date;
    leaseUntil: Date;
    maxAttempts: number;
  }): Promise<PreviewJob | undefined> {
    const waiting = and(
      eq(media.isUploaded, true),
      // A video's poster is its preview (uploaded by the booth): never made here.
      eq(media.mediaType, 'image'),
      isNull(media.lowresKey),
      isNull(media.previewError),
      lt(media.previewAttempts, claim.maxAttempts),
      or(isNull(media.previewClaimedUntil), lte(media.previewClaimedUntil, claim.at)),
    );
    const where = claim.id === undefined ? waiting : and(eq(media.id, claim.id), waiting);
    // A materialized CTE: chosen once. (`id IN (SELECT … LIMIT 1 FOR UPDATE SKIP LOCKED)` may be
    // run again for every row the update scans, and then claims every waiting item at once.)
    const result = await this.db.execute(sql`
      with next as materialized (
        select ${media.id} from ${media} where ${where}
        order by ${media.id} limit 1 for update skip locked
      )
      update ${media}
      set preview_claimed_until = ${claim.leaseUntil.toISOString()}::timestamptz,
        preview_attempts = ${media.previewAttempts} + 1
      from next
      where ${media.id} = next.id and ${waiting}
      returning ${media.id}, ${media.userId} as user_id, ${media.s3Key} as s3_key,
        ${media.previewAttempts} as preview_attempts`);
    const [row] = rowsOf<{ id: number; user_id: number; s3_key: string; preview_attempts: number }>(
      result,
    );
    return (
      row && { id: row.id, userId: row.user_id, s3Key: row.s3_key, attempts: row.preview_attempts }
    );
  }

  /** Where the previews of `ids` stand (the capture benchmark watches them). */
  async previewStates(ids: number[]) {
    if (ids.length === 0) return [];
    return this.db
      .select({ id: media.id, lowresKey: media.lowresKey, previewError: media.previewError })
      .from(media)
      .where(inArray(media.id, ids));
  }

  /** Stores the preview's key, once: false when the item already has one (another run won). */
  async savePreview(id: number, lowresKey: string): Promise<boolean> {
    const rows = await this.db
      .update(media)
      .set({ lowresKey, previewClaimedUntil: null })
      .where(and(eq(media.id, id), isNull(media.lowresKey)))
      .returning({ id: media.id });
    return rows.length > 0;
  }

  /** Records why an item gets no preview; it is not tried again and keeps its HD image. */
  async failPreview(id: number, error: string): Promise<void> {
    await this.db
      .update(media)
      .set({ previewError: error.slice(0, 500), previewClaimedUntil: null })
      .where(and(eq(media.id, id), isNull(media.lowresKey)));
  }

  /**
   * Items whose attempts ran out without a recorded outcome (every attempt ended with its
   * instance, or with an error worth retrying) get `error` recorded: ids of those marked now.
   */
  async giveUpPreviews(at: Date, maxAttempts: number, error: string): Promise<number[]> {
    const rows = await this.db
      .update(media)
      .set({ previewError: error, previewClaimedUntil: null })
      .where(
        and(
          eq(media.isUploaded, true),
          isNull(media.lowresKey),
          isNull(media.previewError),
          gte(media.previewAttempts, maxAttempts),
          or(isNull(media.previewClaimedUntil), lte(media.previewClaimedUntil, at)),
        ),
      )
      .returning({ id: media.id });
    return rows.map((row) => row.id);
  }
}

/** One claimed preview to make: the item, its owner (for the key) and which attempt this is. */
export interface PreviewJob {
  id: number;
  userId: number;
  s3Key: string;
  attempts: number;
}
