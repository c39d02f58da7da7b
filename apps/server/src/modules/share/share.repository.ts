import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { devices, media, organizations, users } from '../../db/schema.js';
import { onWall } from '../wall/wall.repository.js';

/** A public item as its share page shows it. */
export interface SharedItem {
  id: number;
  publicId: string;
  mediaType: 'image' | 'video';
  s3Key: string;
  lowresKey: string | null;
  /** A motion item's animated WebP and a gif's `.gif`. */
  previewKey: string | null;
  gifKey: string | null;
  orientation: 'portrait' | 'landscape';
  caption: string | null;
  likesCount: number;
  createdAt: Date;
  ownerName: string;
  orgName: string | null;
  deviceId: number | null;
  deviceName: string | null;
}

/** The share pages' reads. Only items on the wall are found: private or hidden ones are not. */
export class ShareRepository {
  constructor(private readonly db: Database) {}

  async findOnWall(publicId: string): Promise<SharedItem | undefined> {
    const [row] = await this.db
      .select({
        id: media.id,
        publicId: media.publicId,
        mediaType: media.mediaType,
        s3Key: media.s3Key,
        lowresKey: media.lowresKey,
        previewKey: media.previewKey,
        gifKey: media.gifKey,
        orientation: media.orientation,
        caption: media.caption,
        likesCount: media.likesCount,
        createdAt: media.createdAt,
        ownerName: users.name,
        orgName: organizations.name,
        deviceId: devices.id,
        deviceName: devices.name,
      })
      .from(media)
      .innerJoin(users, eq(users.id, media.userId))
      .leftJoin(organizations, eq(organizations.id, media.orgId))
      .leftJoin(devices, eq(devices.id, media.deviceId))
      .where(and(eq(media.publicId, publicId), onWall()));
    return row;
  }
}
