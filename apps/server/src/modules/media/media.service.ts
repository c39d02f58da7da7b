import {
  LOWRES_MAX_WIDTH,
  type Media,
  MEDIA_MAX_BYTES,
  MEDIA_MESSAGES,
  type MediaPatch,
} from '@flashbooth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';
import { AppError, notFound } from '../../errors.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { AccessClaims } from '../auth/access-tokens.js';
import { newObjectKey, type ObjectStorage } from '../storage/storage.js';
import type { UsersService } from '../users/users.service.js';
import type { MediaChanges, MediaListRow, MediaRepository, Page } from './media.repository.js';

/** Media links in responses live one hour. */
export const MEDIA_DOWNLOAD_URL_SECONDS = 3600;

export interface MediaServiceOptions {
  media: MediaRepository;
  users: UsersService;
  storage: ObjectStorage;
  now: () => Date;
  log: FastifyBaseLogger;
}

const mediaNotFound = () => notFound(MEDIA_MESSAGES.notFound);

const isJpeg = (body: Buffer) => body.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]));

/** A JPEG at most `LOWRES_MAX_WIDTH` wide (never enlarged), upright by its EXIF orientation. */
export function makeLowresPreview(body: Buffer): Promise<Buffer> {
  return sharp(body)
    .rotate()
    .resize({ width: LOWRES_MAX_WIDTH, withoutEnlargement: true })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** The visitor's media calls (own items only) and the booth's upload confirmation. */
export class MediaService {
  constructor(private readonly options: MediaServiceOptions) {}

  private get repo() {
    return this.options.media;
  }

  private async toDto(row: MediaListRow): Promise<Media> {
    const { storage } = this.options;
    return {
      id: row.id,
      media_type: row.mediaType,
      lowres_s3_url:
        row.isUploaded && row.lowresKey
          ? await storage.presignDownload(row.lowresKey, MEDIA_DOWNLOAD_URL_SECONDS)
          : null,
      s3_url: row.isUploaded
        ? await storage.presignDownload(row.s3Key, MEDIA_DOWNLOAD_URL_SECONDS)
        : null,
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
      // Likes arrive with the wall.
      likes_count: 0,
      is_liked_by_caller: false,
    };
  }

  async list(claims: AccessClaims, page: Page): Promise<{ items: Media[]; total_count: number }> {
    const user = await this.options.users.caller(claims);
    const { rows, total } = await this.repo.listOwn(user.id, {
      ...page,
      search: page.search || undefined,
    });
    return { items: await Promise.all(rows.map((row) => this.toDto(row))), total_count: total };
  }

  async uploaded(claims: AccessClaims, ids: number[]) {
    const user = await this.options.users.caller(claims);
    const rows = await this.repo.uploadedStates(user.id, ids);
    return { media_items: rows.map((row) => ({ id: row.id, is_uploaded: row.isUploaded })) };
  }

  async setRepostAllowed(claims: AccessClaims, ids: number[], allowed: boolean) {
    const user = await this.options.users.caller(claims);
    if (!(await this.repo.setRepostAllowed(user.id, ids, allowed, this.options.now()))) {
      throw mediaNotFound();
    }
    return { status: 'ok' as const };
  }

  async patch(claims: AccessClaims, id: number, patch: MediaPatch) {
    const user = await this.options.users.caller(claims);
    const changes: MediaChanges = {};
    if (patch.is_public !== undefined) changes.isPublic = patch.is_public;
    if (patch.caption !== undefined) changes.caption = patch.caption;
    if (patch.is_downloaded !== undefined) changes.isDownloaded = patch.is_downloaded;
    if (patch.is_shared !== undefined) changes.isShared = patch.is_shared;
    const row = await this.repo.updateOwn(user.id, id, changes, this.options.now());
    if (!row) throw mediaNotFound();
    return { caption: row.caption, updated_at: toApiTimestamp(row.updatedAt) };
  }

  /**
   * The booth confirms an upload: the object must exist, fit the size limit and really be a
   * JPEG (a bad file is deleted so the booth can upload again with the same link); then the
   * low-resolution preview is made and the item marked uploaded. Confirming again is a no-op.
   */
  async confirmUpload(deviceId: number, id: number): Promise<{ id: number; is_uploaded: true }> {
    const { storage, now, log } = this.options;
    const row = await this.repo.findById(id);
    if (!row || row.deviceId !== deviceId) throw mediaNotFound();
    if (row.isUploaded) return { id, is_uploaded: true };

    const info = await storage.head(row.s3Key);
    if (!info) throw new AppError('conflict', MEDIA_MESSAGES.notUploadedYet);
    if (info.size > MEDIA_MAX_BYTES) {
      await storage.delete(row.s3Key);
      throw new AppError('unprocessable', MEDIA_MESSAGES.tooLarge);
    }
    const object = await storage.get(row.s3Key);
    if (!object) throw new AppError('conflict', MEDIA_MESSAGES.notUploadedYet);
    if (!isJpeg(object.body)) {
      await storage.delete(row.s3Key);
      throw new AppError('unprocessable', MEDIA_MESSAGES.notJpeg);
    }
    let preview: Buffer;
    try {
      preview = await makeLowresPreview(object.body);
    } catch (error) {
      await storage.delete(row.s3Key);
      throw new AppError('unprocessable', MEDIA_MESSAGES.notJpeg, { cause: error });
    }
    const lowresKey = newObjectKey(`media/${row.userId}/lowres`, 'jpg');
    await storage.put(lowresKey, preview, 'image/jpeg');
    if (!(await this.repo.markUploaded(id, lowresKey, now()))) {
      // Another confirmation of the same item finished first; keep its preview only.
      await storage
        .delete(lowresKey)
        .catch((error: unknown) =>
          log.warn({ err: error, key: lowresKey }, 'could not delete a duplicate preview'),
        );
    }
    return { id, is_uploaded: true };
  }
}
