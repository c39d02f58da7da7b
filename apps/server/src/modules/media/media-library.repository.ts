import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { allOf, fetchPage, type Page, type PageQuery, searchAny } from '../../db/paging.js';
import { devices, media, type MediaRow, organizations, users } from '../../db/schema.js';

/** One item of the staff media views with the names it is shown with. */
export type LibraryRow = MediaRow & {
  orgName: string | null;
  deviceName: string | null;
  userName: string;
};

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

  async organizationExists(orgId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, orgId));
    return row !== undefined;
  }

  /** Media made at the organization's booths whose owner allows reposting. */
  repostAllowed(orgId: number, page: PageQuery): Promise<Page<LibraryRow>> {
    return this.list(page, and(eq(media.orgId, orgId), eq(media.isRepostAllowed, true)));
  }

  /** Every item, narrowed to one organization and/or booth when asked. */
  all(page: PageQuery, filter: LibraryFilter): Promise<Page<LibraryRow>> {
    return this.list(
      page,
      allOf(
        filter.orgId === undefined ? undefined : eq(media.orgId, filter.orgId),
        filter.deviceId === undefined ? undefined : eq(media.deviceId, filter.deviceId),
      ),
    );
  }

  /** Searches the owner's name, the organization, the booth and the caption. */
  private async list(page: PageQuery, scope: SQL | undefined): Promise<Page<LibraryRow>> {
    const where = allOf(
      eq(media.isUploaded, true),
      scope,
      searchAny(page.search, [users.name, organizations.name, devices.name, media.caption]),
    );
    const found = await fetchPage(
      page,
      this.db
        .select({
          media,
          orgName: organizations.name,
          deviceName: devices.name,
          userName: users.name,
        })
        .from(media)
        .innerJoin(users, eq(users.id, media.userId))
        .leftJoin(organizations, eq(organizations.id, media.orgId))
        .leftJoin(devices, eq(devices.id, media.deviceId))
        .where(where)
        .orderBy(desc(media.createdAt), desc(media.id)),
      this.db
        .select({ value: count() })
        .from(media)
        .innerJoin(users, eq(users.id, media.userId))
        .leftJoin(organizations, eq(organizations.id, media.orgId))
        .leftJoin(devices, eq(devices.id, media.deviceId))
        .where(where),
    );
    return {
      rows: found.rows.map((row) => ({
        ...row.media,
        orgName: row.orgName,
        deviceName: row.deviceName,
        userName: row.userName,
      })),
      total: found.total,
    };
  }
}

/** Whether the venue's moderators hid the item from the wall (migration 0013). */
export const isHiddenFromWall = (row: Pick<MediaRow, 'hiddenFromWallAt'>): boolean =>
  row.hiddenFromWallAt !== null;
