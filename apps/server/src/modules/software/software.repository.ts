import { asc, count, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { fetchPage, type Page, type PageQuery, searchAny } from '../../db/paging.js';
import {
  type SoftwareChannelRow,
  softwareChannels,
  type SoftwareReleaseRow,
  softwareReleases,
  users,
} from '../../db/schema.js';

export type ChannelWithNames = SoftwareChannelRow & {
  releaseVersion: string | null;
  createdByName: string | null;
};
export type ReleaseWithNames = SoftwareReleaseRow & { createdByName: string | null };

export interface ChannelChanges {
  name?: string;
  description?: string | null;
  releaseId?: number | null;
}

export interface ReleaseChanges {
  version?: string;
  releaseNotes?: string | null;
}

/** The file a confirmed upload gave a release. */
export interface ReleaseFile {
  key: string;
  sha256: string;
  sizeBytes: number;
}

const channelColumns = {
  ...getTableColumns(softwareChannels),
  releaseVersion: softwareReleases.version,
  createdByName: users.name,
};
const releaseColumns = { ...getTableColumns(softwareReleases), createdByName: users.name };

export class SoftwareRepository {
  constructor(private readonly db: Executor) {}

  // ---- channels ----

  private channels() {
    return this.db
      .select(channelColumns)
      .from(softwareChannels)
      .leftJoin(softwareReleases, eq(softwareReleases.id, softwareChannels.releaseId))
      .leftJoin(users, eq(users.id, softwareChannels.createdBy));
  }

  async findChannel(id: number): Promise<ChannelWithNames | undefined> {
    const [row] = await this.channels().where(eq(softwareChannels.id, id));
    return row;
  }

  /** A page of channels, newest first, searching name and description. */
  async listChannels(page: PageQuery): Promise<Page<ChannelWithNames>> {
    const where = searchAny(page.search, [softwareChannels.name, softwareChannels.description]);
    return fetchPage(
      page,
      this.channels()
        .where(where)
        .orderBy(desc(softwareChannels.createdAt), desc(softwareChannels.id)),
      this.db.select({ value: count() }).from(softwareChannels).where(where),
    );
  }

  /** Inserts a channel; a release id that does not exist fails on the foreign key. */
  async createChannel(values: {
    name: string;
    description: string | null;
    releaseId: number | null;
    createdBy: number;
  }): Promise<number> {
    const [row] = await this.db
      .insert(softwareChannels)
      .values(values)
      .returning({ id: softwareChannels.id });
    return row!.id;
  }

  async updateChannel(id: number, changes: ChannelChanges, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(softwareChannels)
      .set({ ...changes, updatedAt: at })
      .where(eq(softwareChannels.id, id))
      .returning({ id: softwareChannels.id });
    return rows.length > 0;
  }

  /** Deletes a channel; its devices keep running and follow no channel (ON DELETE SET NULL). */
  async deleteChannel(id: number): Promise<boolean> {
    const rows = await this.db
      .delete(softwareChannels)
      .where(eq(softwareChannels.id, id))
      .returning({ id: softwareChannels.id });
    return rows.length > 0;
  }

  /** Names of the channels linking a release, by id. */
  async channelsLinking(releaseId: number): Promise<string[]> {
    const rows = await this.db
      .select({ name: softwareChannels.name })
      .from(softwareChannels)
      .where(eq(softwareChannels.releaseId, releaseId))
      .orderBy(asc(softwareChannels.id));
    return rows.map((row) => row.name);
  }

  // ---- releases ----

  private releases() {
    return this.db
      .select(releaseColumns)
      .from(softwareReleases)
      .leftJoin(users, eq(users.id, softwareReleases.createdBy));
  }

  async findRelease(id: number): Promise<ReleaseWithNames | undefined> {
    const [row] = await this.releases().where(eq(softwareReleases.id, id));
    return row;
  }

  /** The release with this version, in any case (versions are unique regardless of case). */
  async findReleaseByVersion(version: string): Promise<ReleaseWithNames | undefined> {
    const [row] = await this.releases().where(
      sql`lower(${softwareReleases.version}) = lower(${version})`,
    );
    return row;
  }

  /** A page of releases, newest first, searching version and release notes. */
  async listReleases(page: PageQuery): Promise<Page<ReleaseWithNames>> {
    const where = searchAny(page.search, [softwareReleases.version, softwareReleases.releaseNotes]);
    return fetchPage(
      page,
      this.releases()
        .where(where)
        .orderBy(desc(softwareReleases.createdAt), desc(softwareReleases.id)),
      this.db.select({ value: count() }).from(softwareReleases).where(where),
    );
  }

  /** Inserts a release; a version already taken (any case) fails on the unique index. */
  async createRelease(values: {
    version: string;
    releaseNotes: string | null;
    /** Null for a release the server publishes itself (the built-in booth agent). */
    createdBy: number | null;
  }): Promise<number> {
    const [row] = await this.db
      .insert(softwareReleases)
      .values(values)
      .returning({ id: softwareReleases.id });
    return row!.id;
  }

  async updateRelease(id: number, changes: ReleaseChanges, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(softwareReleases)
      .set({ ...changes, updatedAt: at })
      .where(eq(softwareReleases.id, id))
      .returning({ id: softwareReleases.id });
    return rows.length > 0;
  }

  /**
   * Deletes a release and returns the row it removed. A channel linking it makes this fail on
   * the foreign key (RESTRICT), so a link made concurrently can never be left dangling.
   */
  async deleteRelease(id: number): Promise<SoftwareReleaseRow | undefined> {
    const [row] = await this.db
      .delete(softwareReleases)
      .where(eq(softwareReleases.id, id))
      .returning();
    return row;
  }

  /**
   * Gives a release its (new) file and returns the key it replaced (null when there was none);
   * undefined when the release is gone. The row is locked between reading the old key and
   * writing the new one, so two confirmations cannot both keep (and neither delete) the same
   * previous object.
   */
  async replaceFile(
    id: number,
    file: ReleaseFile,
    at: Date,
  ): Promise<{ previous: string | null } | undefined> {
    return this.db.transaction(async (tx) => {
      const [current] = await tx
        .select({ key: softwareReleases.s3Key })
        .from(softwareReleases)
        .where(eq(softwareReleases.id, id))
        .for('update');
      if (!current) return undefined;
      await tx
        .update(softwareReleases)
        .set({ s3Key: file.key, sha256: file.sha256, sizeBytes: file.sizeBytes, updatedAt: at })
        .where(eq(softwareReleases.id, id));
      return { previous: current.key };
    });
  }
}
