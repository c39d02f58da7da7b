import { and, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import {
  devices,
  media,
  type MediaRow,
  organizations,
  templateOrganizations,
  users,
} from '../../db/schema.js';
import { mediaVisibleToOwner } from './captures.repository.js';

export interface Page {
  search?: string | undefined;
  limit: number;
  offset: number;
}

export type MediaListRow = MediaRow & {
  orgName: string | null;
  deviceName: string | null;
  userName: string;
};

export interface NewMedia {
  userId: number;
  deviceId: number;
  orgId: number;
  templateId: number;
  captureId: string;
  mediaType: 'image' | 'video';
  s3Key: string;
  orientation: 'portrait' | 'landscape';
  createdAt: Date;
}

export interface MediaChanges {
  isPublic?: boolean;
  caption?: string | null;
  isDownloaded?: boolean;
  isShared?: boolean;
}

/** `%text%` for ILIKE with the pattern characters taken literally. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
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
      .select({ id: media.id, isUploaded: media.isUploaded })
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

  /** A page of the caller's media, newest first, searching caption, organization and device. */
  async listOwn(userId: number, page: Page): Promise<{ rows: MediaListRow[]; total: number }> {
    // Items of a capture given back (or otherwise over) that never arrived are not shown.
    const conditions: SQL[] = [eq(media.userId, userId), mediaVisibleToOwner()];
    if (page.search) {
      const pattern = containing(page.search);
      conditions.push(
        or(
          ilike(media.caption, pattern),
          ilike(organizations.name, pattern),
          ilike(devices.name, pattern),
        )!,
      );
    }
    const where = and(...conditions);
    const rows = await this.db
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
      .orderBy(desc(media.createdAt), desc(media.id))
      .limit(page.limit)
      .offset(page.offset);
    const [total] = await this.db
      .select({ value: count() })
      .from(media)
      .leftJoin(organizations, eq(organizations.id, media.orgId))
      .leftJoin(devices, eq(devices.id, media.deviceId))
      .where(where);
    return {
      rows: rows.map((row) => ({
        ...row.media,
        orgName: row.orgName,
        deviceName: row.deviceName,
        userName: row.userName,
      })),
      total: total?.value ?? 0,
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
   * Marks an item uploaded with its preview key, once: false when it already was (a concurrent
   * confirmation won), so the caller can drop the preview it made.
   */
  async markUploaded(id: number, lowresKey: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(media)
      .set({ isUploaded: true, lowresKey, updatedAt: at })
      .where(and(eq(media.id, id), eq(media.isUploaded, false)))
      .returning({ id: media.id });
    return rows.length > 0;
  }
}
