import type { Media } from '@flashbooth/contracts';
import type { MediaRow } from '../../db/schema.js';
import { sharePagePath } from '../../lib/share-paths.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { ObjectStorage } from '../storage/storage.js';

/** Media links in responses live one hour (My Media, the wall, the staff media views). */
export const MEDIA_DOWNLOAD_URL_SECONDS = 3600;

/**
 * Upload links for the booth live a day: it uploads after the countdown, composition and print,
 * possibly over a poor venue network, and may retry a broken upload with the same link. A booth whose delivery queue outlives
 * the link asks for a fresh one (`POST /api/device/media/{id}/upload-url`).
 */
export const MEDIA_UPLOAD_URL_SECONDS = 24 * 3600;

/**
 * An item's links: HD (a print, or a video's MP4), its preview (a print's low-resolution JPEG,
 * a video's poster), and a video's animated WebP and `.gif`. Until its preview is made (or when
 * it cannot be), an uploaded image shows its HD image; an item not uploaded has none.
 */
export async function mediaLinks(
  storage: Pick<ObjectStorage, 'presignDownload'>,
  row: Pick<MediaRow, 'isUploaded' | 's3Key' | 'lowresKey' | 'previewKey' | 'gifKey'>,
): Promise<{
  hd: string | null;
  lowres: string | null;
  preview: string | null;
  gif: string | null;
}> {
  if (!row.isUploaded) return { hd: null, lowres: null, preview: null, gif: null };
  const link = (key: string | null) =>
    key ? storage.presignDownload(key, MEDIA_DOWNLOAD_URL_SECONDS) : Promise.resolve(null);
  const [hd, lowres, preview, gif] = await Promise.all([
    storage.presignDownload(row.s3Key, MEDIA_DOWNLOAD_URL_SECONDS),
    link(row.lowresKey),
    link(row.previewKey),
    link(row.gifKey),
  ]);
  return { hd, lowres: lowres ?? hd, preview, gif };
}

/** What the visitor spec's Media item shows of a row, with the names it is shown with. */
export type VisitorMediaRow = Pick<
  MediaRow,
  | 'id'
  | 'mediaType'
  | 's3Key'
  | 'lowresKey'
  | 'previewKey'
  | 'gifKey'
  | 'orientation'
  | 'caption'
  | 'isPublic'
  | 'isRepostAllowed'
  | 'isDownloaded'
  | 'isShared'
  | 'isUploaded'
  | 'likesCount'
  | 'publicId'
  | 'createdAt'
  | 'updatedAt'
> & { orgName: string | null; deviceName: string | null; userName: string };

/**
 * The visitor spec's Media item (My Media and the wall). `likes_count` is the wall's count
 * (kept exact by migration 0013's trigger); whether the caller likes it and whether the venue's
 * moderators hid it are the caller's to say.
 */
export async function toVisitorMedia(
  storage: Pick<ObjectStorage, 'presignDownload'>,
  row: VisitorMediaRow,
  state: { likedByCaller: boolean; hiddenFromWall: boolean },
): Promise<Media> {
  const links = await mediaLinks(storage, row);
  return {
    id: row.id,
    media_type: row.mediaType,
    lowres_s3_url: links.lowres,
    s3_url: links.hd,
    preview_s3_url: links.preview,
    gif_s3_url: links.gif,
    s3_key: row.s3Key,
    org_name: row.orgName,
    device_name: row.deviceName,
    user_name: row.userName,
    created_at: toApiTimestamp(row.createdAt),
    updated_at: toApiTimestamp(row.updatedAt),
    orientation: row.orientation,
    caption: row.caption,
    is_public: row.isPublic,
    is_repost_allowed: row.isRepostAllowed,
    is_downloaded: row.isDownloaded,
    is_shared: row.isShared,
    is_uploaded: row.isUploaded,
    likes_count: row.likesCount,
    is_liked_by_caller: state.likedByCaller,
    hidden_from_wall: state.hiddenFromWall,
    // The share page answers only while the item is on the wall.
    share_path:
      row.isPublic && row.isUploaded && !state.hiddenFromWall ? sharePagePath(row.publicId) : null,
  };
}
