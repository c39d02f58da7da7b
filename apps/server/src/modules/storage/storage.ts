import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { AppError } from '../../errors.js';

/** What an uploader needs: send `headers` exactly, or the store refuses the upload. */
export interface PresignedUpload {
  url: string;
  method: 'PUT';
  headers: { 'Content-Type': string };
  /** UTC, no zone suffix (DESIGN.md "Values"). */
  expires_at: string;
}

export interface StoredObject {
  body: Buffer;
  contentType: string;
}

export interface ObjectInfo {
  size: number;
  contentType: string;
}

/** An object opened for streaming (files too large to hold in memory: software releases). */
export interface OpenedObject {
  stream: Readable;
  size: number;
  contentType: string;
}

/**
 * Where uploaded files live: local disk (embedded default) or an S3-compatible bucket.
 * Uploads and downloads go straight between the client and the store through presigned URLs;
 * the server itself only signs, checks (head) and deletes.
 */
export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  /**
   * A URL to PUT one object to. `maxBytes` is enforced by the local store only; a presigned S3
   * PUT cannot limit size, so whoever confirms an upload must check `head(key).size`.
   */
  presignUpload(
    key: string,
    contentType: string,
    expiresInSeconds: number,
    maxBytes?: number,
  ): Promise<PresignedUpload>;
  /** A URL to GET one object; with a file name the browser saves it instead of showing it. */
  presignDownload(
    key: string,
    expiresInSeconds: number,
    downloadFileName?: string,
  ): Promise<string>;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /**
   * Stores a file from local disk, streamed (never read into memory whole): built exports. At
   * most 5 GB on S3 (one PUT).
   */
  putFile(key: string, filePath: string, contentType: string): Promise<void>;
  get(key: string): Promise<StoredObject | null>;
  head(key: string): Promise<ObjectInfo | null>;
  /** Streams the object's bytes (null when missing); the caller consumes or destroys the stream. */
  open(key: string): Promise<OpenedObject | null>;
  /** Idempotent: deleting a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Throws when the store cannot be used (health check). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The file types the product stores, each with the one extension its keys get. */
export const EXTENSION_BY_CONTENT_TYPE = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'application/octet-stream': 'bin',
  'application/zip': 'zip',
  'application/gzip': 'tar.gz',
} as const;

export type StoredContentType = keyof typeof EXTENSION_BY_CONTENT_TYPE;
export type ObjectExtension = (typeof EXTENSION_BY_CONTENT_TYPE)[StoredContentType];

export function isStoredContentType(value: string): value is StoredContentType {
  return Object.hasOwn(EXTENSION_BY_CONTENT_TYPE, value);
}

/** The extension for an accepted content type; anything else is refused. */
export function extensionFor(contentType: string): ObjectExtension {
  if (!isStoredContentType(contentType)) {
    throw new AppError('bad_request', `Files of type ${contentType} cannot be stored.`);
  }
  return EXTENSION_BY_CONTENT_TYPE[contentType];
}

/** The content type an extension stands for (objects stored without their own type). */
export function contentTypeForKey(key: string): string {
  for (const [type, extension] of Object.entries(EXTENSION_BY_CONTENT_TYPE)) {
    if (key.endsWith(`.${extension}`)) return type;
  }
  return 'application/octet-stream';
}

/*
 * Keys are plain paths that mean the same on disk, in a URL and in S3: lower-case letters, digits
 * and / _ . -, segments that start with a letter or digit (so no '.', '..' or hidden files, and
 * none that clash with the local store's own '.tmp' folder), no empty segments, and never the
 * local store's '.meta.json' sidecar suffix.
 */
const KEY_PATTERN = /^[a-z0-9][a-z0-9_.-]*(\/[a-z0-9][a-z0-9_.-]*)*$/;
const MAX_KEY_LENGTH = 512;

export function isValidObjectKey(key: string): boolean {
  return (
    key.length <= MAX_KEY_LENGTH &&
    KEY_PATTERN.test(key) &&
    !key.includes('..') &&
    !key.endsWith('.meta.json')
  );
}

export function assertValidObjectKey(key: string): void {
  if (!isValidObjectKey(key)) throw new AppError('bad_request', 'Invalid object key.');
}

/**
 * A fresh key like `media/2f1c…e9.jpg`. Keys are always random: a client's file name never
 * becomes part of a path (no guessing, no collisions, no traversal).
 */
export function newObjectKey(prefix: string, extension: ObjectExtension): string {
  if (!Object.values(EXTENSION_BY_CONTENT_TYPE).includes(extension)) {
    throw new AppError('bad_request', `Files ending in .${extension} cannot be stored.`);
  }
  const key = `${prefix.replace(/\/+$/, '')}/${randomUUID()}.${extension}`;
  assertValidObjectKey(key);
  return key;
}

/** Presigned URLs live at most 7 days, S3's own limit, so both drivers behave alike. */
export const MAX_URL_LIFETIME_SECONDS = 7 * 24 * 3600;

/**
 * When a download link signed at `nowSeconds` counts as signed, and when it expires. Links are
 * signed per window of a tenth of their lifetime (5 minutes at most): within one window the same
 * object gets the same URL, so browsers reuse a cached image across page loads and
 * `DownloadLinkMemo` signs each object once per window instead of on every request. A link lives
 * at least the asked lifetime and at most one window longer (and never past S3's 7 days from its
 * signing time).
 */
export function downloadWindow(
  nowSeconds: number,
  lifetimeSeconds: number,
): { signedAt: number; expires: number } {
  const width = Math.max(1, Math.min(300, Math.floor(lifetimeSeconds / 10)));
  const signedAt = Math.floor(nowSeconds / width) * width;
  const expires = Math.min(signedAt + width + lifetimeSeconds, signedAt + MAX_URL_LIFETIME_SECONDS);
  return { signedAt, expires };
}

/** Signed download links by window (`downloadWindow`), the oldest forgotten first. */
export class DownloadLinkMemo {
  private readonly links = new Map<string, string>();

  constructor(private readonly capacity = 20_000) {}

  async get(
    link: { key: string; signedAt: number; expires: number; fileName: string | undefined },
    sign: () => Promise<string> | string,
  ): Promise<string> {
    const id = `${link.signedAt} ${link.expires} ${link.fileName ?? ''}\n${link.key}`;
    const known = this.links.get(id);
    if (known !== undefined) return known;
    const url = await sign();
    if (this.links.size >= this.capacity) {
      const oldest = this.links.keys().next();
      if (!oldest.done) this.links.delete(oldest.value);
    }
    this.links.set(id, url);
    return url;
  }
}

export function assertUrlLifetime(expiresInSeconds: number): void {
  if (
    !Number.isInteger(expiresInSeconds) ||
    expiresInSeconds < 1 ||
    expiresInSeconds > MAX_URL_LIFETIME_SECONDS
  ) {
    throw new RangeError(`URL lifetime must be 1..${MAX_URL_LIFETIME_SECONDS} seconds`);
  }
}

/** A content type as a bare `type/subtype`: compared byte for byte when an upload arrives. */
const CONTENT_TYPE_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;

export function assertContentType(contentType: string): void {
  if (!CONTENT_TYPE_PATTERN.test(contentType)) {
    throw new AppError('bad_request', `Invalid content type: ${contentType}`);
  }
}

/**
 * `attachment` with the name twice: a plain ASCII fallback for old clients and the exact name
 * (RFC 6266/5987) for the rest. Quotes, slashes and control characters never reach the header.
 */
export function attachmentDisposition(fileName: string): string {
  const cleaned = fileName.replace(/[\p{Cc}/\\"]/gu, '_').trim() || 'download';
  const ascii = cleaned.replace(/[^\x20-\x7e]/g, '_');
  const encoded = encodeURIComponent(cleaned).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Deletes an object nothing points at any more (a replaced or deleted record's file). A store
 * failure does not undo the caller's change: it is logged with the key and `context`, so the
 * orphaned object is never silent.
 */
export async function deleteUnreferenced(
  storage: Pick<ObjectStorage, 'delete'>,
  key: string,
  log: { error(details: object, message: string): void },
  context: { what: string } & Record<string, unknown>,
): Promise<void> {
  try {
    await storage.delete(key);
  } catch (error) {
    const { what, ...ids } = context;
    log.error({ err: error, key, ...ids }, `could not delete ${what}; it is orphaned in the store`);
  }
}
