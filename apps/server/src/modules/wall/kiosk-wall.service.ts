import { KIOSK_WALL_ITEMS, type KioskWall, WALL_MESSAGES } from '@flashbooth/contracts';
import { notFound } from '../../errors.js';
import {
  shareImagePath,
  sharePagePath,
  shareVideoPath,
  sharePreviewPath,
  shareGifPath,
} from '../../lib/share-paths.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { ObjectStorage } from '../storage/storage.js';
import type { KioskWallRepository } from './wall.repository.js';

/** The venue's logo link lives an hour; the kiosk reloads its wall far more often. */
const LOGO_URL_SECONDS = 3600;

export interface KioskWallServiceOptions {
  repository: KioskWallRepository;
  storage: Pick<ObjectStorage, 'presignDownload'>;
}

/** The owner's first name: a venue's screen shows no full names. */
const firstName = (name: string) => name.trim().split(/\s+/)[0] || 'Guest';

/**
 * The kiosk wall of one organization (`walls/{orgId}`, no session): its newest items on the
 * wall, newest first. Pictures and videos are the share page's addresses, which check on every
 * request that the item is still on the wall.
 */
export class KioskWallService {
  constructor(private readonly options: KioskWallServiceOptions) {}

  /** 404 when the organization does not exist. */
  async wall(orgId: number): Promise<KioskWall> {
    const rows = await this.options.repository.kioskWall(orgId, KIOSK_WALL_ITEMS);
    if (!rows) throw notFound(WALL_MESSAGES.kioskNotFound);
    const { org, booths, items } = rows;
    return {
      organization: {
        id: org.id,
        name: org.name,
        logo_url: org.logoKey
          ? await this.options.storage.presignDownload(org.logoKey, LOGO_URL_SECONDS)
          : null,
      },
      booths,
      items: items.map((item) => ({
        id: item.id,
        media_type: item.mediaType,
        // A motion item shows its poster (its preview), when it has one.
        image_url:
          item.mediaType === 'image' || item.lowresKey ? shareImagePath(item.publicId) : null,
        video_url: item.mediaType === 'video' ? shareVideoPath(item.publicId) : null,
        preview_s3_url: item.previewKey ? sharePreviewPath(item.publicId) : null,
        gif_s3_url: item.gifKey ? shareGifPath(item.publicId) : null,
        share_path: sharePagePath(item.publicId),
        orientation: item.orientation,
        first_name: firstName(item.userName),
        caption: item.caption,
        likes_count: item.likesCount,
        device_id: item.deviceId,
        device_name: item.deviceName,
        created_at: toApiTimestamp(item.createdAt),
      })),
    };
  }

  /** Whether the organization exists (before a live stream opens). */
  async exists(orgId: number): Promise<boolean> {
    return (await this.options.repository.kioskWall(orgId, 0)) !== undefined;
  }
}
