import type { ObjectStorage } from '../storage/storage.js';
import type { WallRepository } from '../wall/wall.repository.js';
import type { ShareImage, ShareImages, ShareImageSource } from './share-images.js';
import { renderSharePage, type SharePageModel } from './share-page.js';
import {
  PUBLIC_ID_PATTERN,
  shareImagePath,
  sharePagePath,
  shareVideoPath,
  type ShareImageWidth,
} from '../../lib/share-paths.js';
import type { SharedItem, ShareRepository } from './share.repository.js';

/** The newest comments the page shows; the rest are on the wall. */
export const SHARE_PAGE_COMMENTS = 20;
/**
 * A motion item's video (and its preview and gif) is served from the store through a link this
 * short: the store answers the byte ranges phones' video players ask for (S3 and the local store
 * alike), and a link handed out before the item was made private lapses within minutes.
 */
export const SHARE_VIDEO_LINK_SECONDS = 300;

export interface ShareServiceOptions {
  share: ShareRepository;
  wall: Pick<WallRepository, 'listComments'>;
  images: ShareImages;
  storage: Pick<ObjectStorage, 'presignDownload'>;
  /** PUBLIC_URL: the origin of the page's absolute addresses; else the request's. */
  publicUrl: string | undefined;
}

/** The owner's first name as the page shows it (their full name stays off the page). */
export function firstNameOf(name: string): string {
  return name.trim().split(/\s+/)[0] || 'A guest';
}

const pictureOf = (item: SharedItem): ShareImageSource => ({
  id: item.id,
  // A photo is scaled from its HD file; a motion item shows its poster (its preview).
  pictureKey: item.mediaType === 'image' ? item.s3Key : item.lowresKey,
});

/**
 * Share pages (`/p/{public_id}`) of the items on the wall, their images and videos. Everything
 * answers only while the item is on the wall (public, uploaded, not hidden by a moderator), read
 * on every request, so making an item private takes its page and images down at once.
 */
export class ShareService {
  constructor(private readonly options: ShareServiceOptions) {}

  private async find(publicId: string): Promise<SharedItem | undefined> {
    if (!PUBLIC_ID_PATTERN.test(publicId)) return undefined;
    return this.options.share.findOnWall(publicId);
  }

  /** The page's HTML; null when the item is not on the wall (or the id is no public id). */
  async page(publicId: string, requestOrigin: string): Promise<string | null> {
    const item = await this.find(publicId);
    if (!item) return null;
    const origin = (this.options.publicUrl ?? requestOrigin).replace(/\/+$/, '');
    const [comments, size, videoSize] = await Promise.all([
      this.options.wall.listComments(item.id, { limit: SHARE_PAGE_COMMENTS, offset: 0 }),
      this.options.images.size(pictureOf(item), 1200),
      // A motion item's own size is its poster's (made at the MP4's size by the booth).
      item.mediaType === 'video' ? this.options.images.sourceSize(pictureOf(item)) : null,
    ]);
    const model: SharePageModel = {
      url: `${origin}${sharePagePath(item.publicId)}`,
      mediaType: item.mediaType,
      firstName: firstNameOf(item.ownerName),
      venue: item.orgName ?? 'Flashbooth',
      boothName: item.deviceName,
      boothHref: item.deviceId === null ? '/' : `/b/${item.deviceId}`,
      caption: item.caption,
      createdAt: item.createdAt,
      likesCount: item.likesCount,
      commentsCount: comments.total,
      comments: comments.rows.map((row) => ({
        author: row.userName?.trim() || 'User',
        text: row.commentText,
        createdAt: row.createdAt,
      })),
      image: size && {
        url1200: `${origin}${shareImagePath(item.publicId, 1200)}`,
        src1200: shareImagePath(item.publicId, 1200),
        src600: shareImagePath(item.publicId, 600),
        width: size.width,
        height: size.height,
      },
      video:
        item.mediaType === 'video'
          ? {
              url: `${origin}${shareVideoPath(item.publicId)}`,
              src: shareVideoPath(item.publicId),
              width: videoSize?.width ?? null,
              height: videoSize?.height ?? null,
            }
          : null,
    };
    return renderSharePage(model);
  }

  /** The item's share image in `width`; null when not on the wall or without a picture. */
  async image(publicId: string, width: ShareImageWidth): Promise<ShareImage | null> {
    const item = await this.find(publicId);
    if (!item) return null;
    return this.options.images.image(pictureOf(item), width);
  }

  /**
   * A motion item's file as a short store link: its MP4 (`video`), its animated WebP
   * (`preview`) or its `.gif` (`gif`, gif kind only); null when not on the wall, not a video or
   * without that file.
   */
  async videoLink(
    publicId: string,
    file: 'video' | 'preview' | 'gif' = 'video',
  ): Promise<string | null> {
    const item = await this.find(publicId);
    if (!item || item.mediaType !== 'video') return null;
    const key = { video: item.s3Key, preview: item.previewKey, gif: item.gifKey }[file];
    return key ? this.options.storage.presignDownload(key, SHARE_VIDEO_LINK_SECONDS) : null;
  }
}
