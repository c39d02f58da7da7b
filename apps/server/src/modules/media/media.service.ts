import {
  type Media,
  MEDIA_MAX_BYTES,
  MEDIA_MESSAGES,
  type MediaPatch,
  type MediaUploadConfirm,
  type MediaUploadLink,
  MEDIA_VIDEO_MAX_BYTES,
} from '@flashbooth/contracts';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { listBodyAsync, type PageQuery } from '../../db/paging.js';
import { AppError, notFound } from '../../errors.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import type { ObjectStorage } from '../storage/storage.js';
import type { UsersService } from '../users/users.service.js';
import {
  MEDIA_DOWNLOAD_URL_SECONDS,
  MEDIA_UPLOAD_URL_SECONDS,
  toVisitorMedia,
} from './media-items.js';
import type { MediaChanges, MediaListRow, MediaRepository } from './media.repository.js';
import type { MediaRow } from '../../db/schema.js';

export interface MediaServiceOptions {
  media: MediaRepository;
  users: UsersService;
  storage: ObjectStorage;
  /** Makes the low-res preview of an item once it is marked uploaded (`PreviewWorker`). */
  previews: { enqueue(id: number): void };
  now: () => Date;
  /**
   * Told when the owner makes an item public or private (the kiosk walls' live streams,
   * the wall module's `WallFeed`); declared here so media does not depend on the wall.
   */
  wallChanges?: {
    publish(change: { mediaId: number; orgId: number | null; onWall: boolean }): void;
  };
}

const mediaNotFound = () => notFound(MEDIA_MESSAGES.notFound);

const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);
/**
 * What the confirmation reads of an upload to check its header: the markers up to the frame
 * header (EXIF, ICC, XMP segments are at most 64 KB each) nearly always fit. A header that does
 * not is read from the whole file.
 */
const JPEG_HEADER_BYTES = 256 * 1024;

/** The first `max` bytes of `stream` (all of it when shorter); the stream is destroyed after. */
async function readPrefix(stream: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stream) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      chunks.push(buffer);
      length += buffer.length;
      if (length >= max) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, max);
}

/**
 * JPEG magic bytes and a frame header sharp can read (format, width and height). sharp reads only
 * the header here, not the image data: a body corrupt beyond the header passes and is found when
 * the preview is made (recorded on the row; the HD file is still delivered).
 */
async function hasJpegHeader(bytes: Buffer): Promise<boolean> {
  if (!bytes.subarray(0, 3).equals(JPEG_MAGIC)) return false;
  try {
    const meta = await sharp(bytes).metadata();
    return meta.format === 'jpeg' && meta.width > 0 && meta.height > 0;
  } catch {
    return false;
  }
}

/** One file of a video item: where it is, how large it may be and how its first bytes look. */
interface VideoPart {
  key: string;
  contentType: string;
  maxBytes: number;
  /** Whether the file's first bytes are of its format. */
  matches: (head: Buffer) => boolean | Promise<boolean>;
}

/** Bytes read from each of a video item's files to check its format. */
const VIDEO_PART_HEADER_BYTES = JPEG_HEADER_BYTES;

/**
 * A video item's files as the booth uploads them: the MP4 (an ISO media file: `ftyp` at byte 4),
 * its poster JPEG, its animated WebP (`RIFF….WEBP`) and a gif's `.gif` (`GIF8`).
 */
export function videoParts(
  row: Pick<MediaRow, 's3Key' | 'lowresKey' | 'previewKey' | 'gifKey'>,
): VideoPart[] {
  const parts: VideoPart[] = [
    {
      key: row.s3Key,
      contentType: 'video/mp4',
      maxBytes: MEDIA_VIDEO_MAX_BYTES,
      matches: (head) => head.length >= 8 && head.toString('latin1', 4, 8) === 'ftyp',
    },
  ];
  if (row.lowresKey) {
    parts.push({
      key: row.lowresKey,
      contentType: 'image/jpeg',
      maxBytes: MEDIA_MAX_BYTES,
      matches: (head) => hasJpegHeader(head),
    });
  }
  if (row.previewKey) {
    parts.push({
      key: row.previewKey,
      contentType: 'image/webp',
      maxBytes: MEDIA_MAX_BYTES,
      matches: (head) =>
        head.length >= 12 &&
        head.toString('latin1', 0, 4) === 'RIFF' &&
        head.toString('latin1', 8, 12) === 'WEBP',
    });
  }
  if (row.gifKey) {
    parts.push({
      key: row.gifKey,
      contentType: 'image/gif',
      maxBytes: MEDIA_MAX_BYTES,
      matches: (head) => head.length >= 6 && head.toString('latin1', 0, 4) === 'GIF8',
    });
  }
  return parts;
}

/** The visitor's media calls (own items only) and the booth's upload confirmation. */
export class MediaService {
  constructor(private readonly options: MediaServiceOptions) {}

  private get repo() {
    return this.options.media;
  }

  /**
   * An item of My Media: the owner's own like is not looked up (My Media shows no like control);
   * an item the venue's moderators hid from the wall is marked for its owner.
   */
  private toDto(row: MediaListRow): Promise<Media> {
    return toVisitorMedia(this.options.storage, row, {
      likedByCaller: false,
      hiddenFromWall: row.hiddenFromWallAt !== null,
    });
  }

  async list(
    claims: AccessClaims,
    page: PageQuery,
  ): Promise<{ items: Media[]; total_count: number }> {
    const user = await this.options.users.caller(claims);
    return listBodyAsync(await this.repo.listOwn(user.id, page), (row) => this.toDto(row));
  }

  async uploaded(claims: AccessClaims, ids: number[]) {
    const user = await this.options.users.caller(claims);
    const rows = await this.repo.uploadedStates(user.id, ids);
    // The preview's link once it is made, so the capture screen can show the photo just taken.
    const items = await Promise.all(
      rows.map(async (row) => ({
        id: row.id,
        is_uploaded: row.isUploaded,
        lowres_s3_url:
          row.isUploaded && row.lowresKey
            ? await this.options.storage.presignDownload(row.lowresKey, MEDIA_DOWNLOAD_URL_SECONDS)
            : null,
        orientation: row.orientation,
      })),
    );
    return { media_items: items };
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
    if (changes.isPublic !== undefined) {
      this.options.wallChanges?.publish({
        mediaId: row.id,
        orgId: row.orgId,
        onWall: row.isPublic && row.isUploaded && row.hiddenFromWallAt === null,
      });
    }
    return { caption: row.caption, updated_at: toApiTimestamp(row.updatedAt) };
  }

  /**
   * The booth confirms an upload: the object must exist, fit the size limit and really be a JPEG
   * (magic bytes and a readable header; a bad file is deleted so the booth can upload again with
   * the same link); then the item is marked uploaded and the answer goes back. The low-res preview
   * is made afterwards, off this request (`PreviewWorker`). Confirming again is a no-op.
   */
  async confirmUpload(
    deviceId: number,
    id: number,
    body: MediaUploadConfirm = {},
  ): Promise<{ id: number; is_uploaded: true }> {
    const { storage, now, previews } = this.options;
    const row = await this.repo.findById(id);
    if (!row || row.deviceId !== deviceId) throw mediaNotFound();
    if (row.isUploaded) return { id, is_uploaded: true };
    if (row.mediaType === 'video') return this.confirmVideo(row, body);

    const object = await storage.open(row.s3Key);
    if (!object) throw new AppError('conflict', MEDIA_MESSAGES.notUploadedYet);
    if (object.size > MEDIA_MAX_BYTES) {
      object.stream.destroy();
      await storage.delete(row.s3Key);
      throw new AppError('unprocessable', MEDIA_MESSAGES.tooLarge);
    }
    const head = await readPrefix(object.stream, JPEG_HEADER_BYTES);
    let jpeg = await hasJpegHeader(head);
    if (!jpeg && head.subarray(0, 3).equals(JPEG_MAGIC) && object.size > head.length) {
      // A JPEG whose header segments are longer than the prefix: read the file whole.
      const whole = await storage.get(row.s3Key);
      if (!whole) throw new AppError('conflict', MEDIA_MESSAGES.notUploadedYet);
      jpeg = await hasJpegHeader(whole.body);
    }
    if (!jpeg) {
      await storage.delete(row.s3Key);
      throw new AppError('unprocessable', MEDIA_MESSAGES.notJpeg);
    }
    // A concurrent confirmation may have won; it queued the preview then.
    const at = now();
    const capturedAt = captureEnd(body?.captured_at, row.createdAt, at);
    if (await this.repo.markUploaded(id, at, capturedAt)) previews.enqueue(id);
    return { id, is_uploaded: true };
  }

  /**
   * A video item is confirmed only once every one of its files is there and of its format: the
   * MP4, its poster, its animated WebP and (gif kind) its `.gif`. A file missing is "not uploaded
   * yet" (the booth may still be sending it) and nothing is deleted; a file too large or of
   * another format is deleted, so the booth's next attempt uploads it again. A video never goes
   * to the preview worker: its poster is its preview.
   */
  private async confirmVideo(
    row: MediaRow,
    body: MediaUploadConfirm,
  ): Promise<{ id: number; is_uploaded: true }> {
    const { storage, now } = this.options;
    const parts = videoParts(row);
    const found = await Promise.all(parts.map((part) => storage.head(part.key)));
    if (found.some((info) => info === null)) {
      throw new AppError('conflict', MEDIA_MESSAGES.notUploadedYet);
    }
    for (const [index, part] of parts.entries()) {
      if (found[index]!.size > part.maxBytes) {
        await storage.delete(part.key);
        throw new AppError('unprocessable', MEDIA_MESSAGES.tooLarge);
      }
      const object = await storage.open(part.key);
      if (!object) throw new AppError('conflict', MEDIA_MESSAGES.notUploadedYet);
      const head = await readPrefix(object.stream, VIDEO_PART_HEADER_BYTES);
      if (!(await part.matches(head))) {
        await storage.delete(part.key);
        throw new AppError('unprocessable', MEDIA_MESSAGES.notVideo);
      }
    }
    const at = now();
    await this.repo.markUploaded(row.id, at, captureEnd(body?.captured_at, row.createdAt, at));
    return { id: row.id, is_uploaded: true };
  }

  /**
   * A fresh upload link for an item still waiting at the booth (its queue outlived the link the
   * capture command carried); a video's also carries its poster, preview and gif links. Only the
   * booth that made the item may ask; an uploaded item has nothing left to upload.
   */
  async uploadLink(deviceId: number, id: number): Promise<MediaUploadLink> {
    const { storage, now } = this.options;
    const row = await this.repo.findById(id);
    if (!row || row.deviceId !== deviceId) throw mediaNotFound();
    if (row.isUploaded) throw new AppError('conflict', MEDIA_MESSAGES.alreadyUploaded);
    const expiresAt = toApiTimestamp(new Date(now().getTime() + MEDIA_UPLOAD_URL_SECONDS * 1000));
    const links = await Promise.all(
      (row.mediaType === 'video'
        ? videoParts(row)
        : [{ key: row.s3Key, contentType: 'image/jpeg', maxBytes: MEDIA_MAX_BYTES }]
      ).map(async (part) => ({
        ...part,
        url: (
          await storage.presignUpload(
            part.key,
            part.contentType,
            MEDIA_UPLOAD_URL_SECONDS,
            part.maxBytes,
          )
        ).url,
      })),
    );
    const [main] = links;
    const link: MediaUploadLink = {
      media_id: id,
      upload_url: main!.url,
      content_type: main!.contentType,
      expires_at: expiresAt,
    };
    if (row.mediaType === 'video') {
      const urlOf = (key: string | null) => links.find((part) => part.key === key)?.url;
      link.poster_upload_url = urlOf(row.lowresKey);
      link.preview_upload_url = urlOf(row.previewKey);
      link.gif_upload_url = urlOf(row.gifKey) ?? null;
    }
    return link;
  }
}

/**
 * When the booth says its capture ended, kept within what the server knows: not before the item
 * was created (the capture's start) and not after its confirmation. Null when the booth did not
 * say or said something unreadable (an older agent): the delivery time then counts from the
 * item's creation.
 */
export function captureEnd(reported: string | undefined, createdAt: Date, confirmedAt: Date) {
  if (!reported) return null;
  const text = /[zZ]|[+-]\d\d:?\d\d$/.test(reported) ? reported : `${reported}Z`;
  const at = new Date(text);
  if (Number.isNaN(at.getTime())) return null;
  return new Date(Math.min(Math.max(at.getTime(), createdAt.getTime()), confirmedAt.getTime()));
}
