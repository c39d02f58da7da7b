import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, open, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, forbidden } from '../../errors.js';
import { toApiTimestamp } from '../../lib/time.js';
import {
  assertContentType,
  assertUrlLifetime,
  DownloadLinkMemo,
  downloadWindow,
  assertValidObjectKey,
  contentTypeForKey,
  type ObjectInfo,
  type ObjectStorage,
  type OpenedObject,
  type PresignedUpload,
  type StoredObject,
} from './storage.js';

/** The largest upload the local store accepts at all (software releases are the big ones). */
export const LOCAL_MAX_UPLOAD_BYTES = 512 * 1024 * 1024;
/** Where the routes live; the signed URLs point here. */
export const LOCAL_OBJECTS_PATH = '/api/storage/objects';
/** Temp files older than this are leftovers of a crash and are removed at start. */
const STALE_TEMP_MS = 24 * 3600 * 1000;

export interface LocalStorageOptions {
  /** DATA_DIR/objects */
  root: string;
  /** Key for the URL signatures (derived from AUTH_SECRET, purpose 'storage'). */
  signingKey: Buffer;
  /** Absolute base (PUBLIC_URL) for URLs; '' gives paths the browser resolves itself. */
  publicUrl: string;
  now: () => Date;
}

/** What a signature covers; one canonical form for uploads and downloads. */
interface SignedFields {
  method: 'PUT' | 'GET';
  key: string;
  expires: number;
  contentType: string | null;
  maxBytes: number | null;
  fileName: string | null;
}

/** The query string of a local URL as it arrives (every part may be missing or forged). */
export interface SignedQuery {
  expires?: string | undefined;
  ct?: string | undefined;
  max?: string | undefined;
  dl?: string | undefined;
  sig?: string | undefined;
}

export type { OpenedObject } from './storage.js';

/**
 * Objects as files under DATA_DIR/objects, with the content type in a `<file>.meta.json` beside
 * each. Clients reach them only through HMAC-signed, expiring URLs served by storage.routes.ts.
 * Every write goes to `.tmp/` first and is renamed into place, so a reader (or a restart) sees
 * either the whole previous object or the whole new one, never part of an upload.
 */
export class LocalStorage implements ObjectStorage {
  readonly kind = 'local';
  private readonly tempDir: string;
  private readonly downloadLinks = new DownloadLinkMemo();

  constructor(private readonly options: LocalStorageOptions) {
    this.tempDir = path.join(options.root, '.tmp');
  }

  /** Creates the folders and clears temp files a crash left behind. */
  async init(): Promise<void> {
    await mkdir(this.tempDir, { recursive: true });
    const cutoff = Date.now() - STALE_TEMP_MS;
    for (const name of await readdir(this.tempDir)) {
      const file = path.join(this.tempDir, name);
      const info = await stat(file).catch(() => null);
      if (info && info.mtimeMs < cutoff) await rm(file, { force: true });
    }
  }

  async presignUpload(
    key: string,
    contentType: string,
    expiresInSeconds: number,
    maxBytes?: number,
  ): Promise<PresignedUpload> {
    assertValidObjectKey(key);
    assertContentType(contentType);
    assertUrlLifetime(expiresInSeconds);
    if (maxBytes !== undefined && (!Number.isInteger(maxBytes) || maxBytes < 1)) {
      throw new RangeError('maxBytes must be a positive integer');
    }
    if (maxBytes !== undefined && maxBytes > LOCAL_MAX_UPLOAD_BYTES) {
      throw tooLarge(LOCAL_MAX_UPLOAD_BYTES);
    }
    const expires = this.nowSeconds() + expiresInSeconds;
    const fields: SignedFields = {
      method: 'PUT',
      key,
      expires,
      contentType,
      maxBytes: maxBytes ?? null,
      fileName: null,
    };
    const query = new URLSearchParams({ expires: String(expires), ct: contentType });
    if (maxBytes !== undefined) query.set('max', String(maxBytes));
    query.set('sig', this.sign(fields));
    return {
      url: this.url(key, query),
      method: 'PUT',
      headers: { 'Content-Type': contentType },
      expires_at: toApiTimestamp(new Date(expires * 1000)),
    };
  }

  async presignDownload(
    key: string,
    expiresInSeconds: number,
    downloadFileName?: string,
  ): Promise<string> {
    assertValidObjectKey(key);
    assertUrlLifetime(expiresInSeconds);
    const { signedAt, expires } = downloadWindow(this.nowSeconds(), expiresInSeconds);
    const fileName = downloadFileName ?? null;
    return this.downloadLinks.get({ key, signedAt, expires, fileName: downloadFileName }, () => {
      const query = new URLSearchParams({ expires: String(expires) });
      if (fileName !== null) query.set('dl', fileName);
      query.set(
        'sig',
        this.sign({ method: 'GET', key, expires, contentType: null, maxBytes: null, fileName }),
      );
      return this.url(key, query);
    });
  }

  /** Checks an upload URL; returns what it allows. Any doubt is a 403. */
  verifyUpload(key: string, query: SignedQuery): { contentType: string; maxBytes: number } {
    const expires = parseInteger(query.expires);
    const maxBytes = query.max === undefined ? null : parseInteger(query.max);
    const contentType = query.ct;
    if (expires === null || contentType === undefined || (query.max !== undefined && !maxBytes)) {
      throw invalidLink();
    }
    this.verify({ method: 'PUT', key, expires, contentType, maxBytes, fileName: null }, query.sig);
    return { contentType, maxBytes: Math.min(maxBytes ?? Infinity, LOCAL_MAX_UPLOAD_BYTES) };
  }

  /** Checks a download URL; returns the seconds it stays valid (for Cache-Control). */
  verifyDownload(key: string, query: SignedQuery): { remainingSeconds: number } {
    const expires = parseInteger(query.expires);
    if (expires === null) throw invalidLink();
    const fileName = query.dl ?? null;
    this.verify(
      { method: 'GET', key, expires, contentType: null, maxBytes: null, fileName },
      query.sig,
    );
    return { remainingSeconds: Math.max(0, expires - this.nowSeconds()) };
  }

  /**
   * Streams an upload into place. More than `maxBytes` aborts with 413 and leaves nothing behind;
   * so does a broken connection (the previous object, if any, stays as it was). The request stream
   * is piped, not pipelined: on a 413 it must stay open so the response can still be sent (the
   * route then closes the connection instead of reading the rest).
   */
  async write(key: string, body: Readable, contentType: string, maxBytes: number): Promise<number> {
    assertValidObjectKey(key);
    let size = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(size > maxBytes ? tooLarge(maxBytes) : null, chunk);
      },
    });
    const abort = (error?: Error) => {
      if (!body.readableEnded) limit.destroy(error ?? new Error('upload aborted'));
    };
    body.on('error', abort).on('close', abort);
    const temp = this.tempFile();
    // Opened here, not lazily by the stream, so the cleanup below always finds the file.
    const handle = await open(temp, 'wx');
    try {
      body.pipe(limit);
      // flush: the data is on disk before the rename makes it visible (survives a power cut).
      await pipeline(limit, handle.createWriteStream({ flush: true }));
      await this.commit(key, temp, contentType);
    } catch (error) {
      body.unpipe(limit);
      await handle.close().catch(() => undefined);
      await rm(temp, { force: true });
      throw error;
    } finally {
      body.off('error', abort).off('close', abort);
    }
    return size;
  }

  /** Opens an object for streaming; the open handle survives a concurrent replace or delete. */
  /**
   * Streams the object (null when missing); with `range`, only bytes `start`..`end` (inclusive,
   * within the file) are streamed, while `size` stays the whole file's.
   */
  async open(key: string, range?: { start: number; end: number }): Promise<OpenedObject | null> {
    assertValidObjectKey(key);
    const handle = await open(this.file(key), 'r').catch(notFoundAsNull);
    if (!handle) return null;
    try {
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        return null;
      }
      const contentType = await this.contentType(key);
      const stream = handle.createReadStream(range ? { start: range.start, end: range.end } : {});
      return { stream, size: info.size, contentType };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertValidObjectKey(key);
    assertContentType(contentType);
    const temp = this.tempFile();
    try {
      const handle = await open(temp, 'wx');
      try {
        await handle.writeFile(body);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await this.commit(key, temp, contentType);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async putFile(key: string, filePath: string, contentType: string): Promise<void> {
    assertValidObjectKey(key);
    assertContentType(contentType);
    const temp = this.tempFile();
    try {
      await pipeline(createReadStream(filePath), createWriteStream(temp, { flags: 'wx' }));
      const handle = await open(temp, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await this.commit(key, temp, contentType);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    assertValidObjectKey(key);
    const body = await readFile(this.file(key)).catch(notFoundAsNull);
    if (!body) return null;
    return { body, contentType: await this.contentType(key) };
  }

  async head(key: string): Promise<ObjectInfo | null> {
    assertValidObjectKey(key);
    const info = await stat(this.file(key)).catch(notFoundAsNull);
    if (!info?.isFile()) return null;
    return { size: info.size, contentType: await this.contentType(key) };
  }

  async delete(key: string): Promise<void> {
    assertValidObjectKey(key);
    // The object first: once it is gone the key reads as missing whatever happens next.
    await rm(this.file(key), { force: true });
    await rm(metaFile(this.file(key)), { force: true });
  }

  /** Healthy when the objects folder exists and this process may write to it. */
  async ping(): Promise<void> {
    await access(this.tempDir, constants.W_OK);
  }

  async close(): Promise<void> {}

  /**
   * Moves a finished temp file into place. The sidecar goes first, so an object file never exists
   * without its content type; a crash in between leaves only a harmless, unreferenced sidecar.
   */
  private async commit(key: string, temp: string, contentType: string): Promise<void> {
    const target = this.file(key);
    await mkdir(path.dirname(target), { recursive: true });
    const metaTemp = this.tempFile();
    try {
      await writeNew(metaTemp, JSON.stringify({ contentType }));
      await rename(metaTemp, metaFile(target));
    } catch (error) {
      await rm(metaTemp, { force: true });
      throw error;
    }
    await rename(temp, target);
  }

  private async contentType(key: string): Promise<string> {
    const meta = await readFile(metaFile(this.file(key)), 'utf8').catch(notFoundAsNull);
    if (meta !== null) {
      try {
        const parsed: unknown = JSON.parse(meta);
        if (isMeta(parsed)) return parsed.contentType;
      } catch {
        // A damaged sidecar must not make the object unreadable; the extension still says enough.
      }
    }
    return contentTypeForKey(key);
  }

  /** The key's file, checked to stay inside the root even if validation were ever loosened. */
  private file(key: string): string {
    const file = path.resolve(this.options.root, key);
    if (!file.startsWith(path.resolve(this.options.root) + path.sep)) {
      throw new AppError('bad_request', 'Invalid object key.');
    }
    return file;
  }

  private tempFile(): string {
    return path.join(this.tempDir, randomUUID());
  }

  private url(key: string, query: URLSearchParams): string {
    return `${this.options.publicUrl}${LOCAL_OBJECTS_PATH}/${key}?${query.toString()}`;
  }

  private nowSeconds(): number {
    return Math.floor(this.options.now().getTime() / 1000);
  }

  private sign(fields: SignedFields): string {
    // A JSON array is an unambiguous encoding: no value can be shifted into its neighbour.
    const canonical = JSON.stringify([
      fields.method,
      fields.key,
      fields.expires,
      fields.contentType,
      fields.maxBytes,
      fields.fileName,
    ]);
    return createHmac('sha256', this.options.signingKey).update(canonical).digest('base64url');
  }

  /** The signature first (constant-time), then the expiry, so a forged link learns nothing. */
  private verify(fields: SignedFields, signature: string | undefined): void {
    const expected = Buffer.from(this.sign(fields));
    const given = Buffer.from(signature ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidLink();
    if (fields.expires < this.nowSeconds()) throw forbidden('This link has expired.');
  }
}

const invalidLink = () => forbidden('This link is not valid.');

export function tooLarge(maxBytes: number): AppError {
  const megabytes = Math.max(1, Math.floor(maxBytes / (1024 * 1024)));
  return new AppError(
    'payload_too_large',
    maxBytes >= 1024 * 1024
      ? `The file is larger than ${megabytes} MB.`
      : `The file is larger than ${maxBytes} bytes.`,
  );
}

const metaFile = (file: string) => `${file}.meta.json`;

function parseInteger(value: string | undefined): number | null {
  if (value === undefined || !/^\d{1,15}$/.test(value)) return null;
  return Number(value);
}

function isMeta(value: unknown): value is { contentType: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    'contentType' in value &&
    typeof value.contentType === 'string'
  );
}

/** Missing, or a folder where an object would be (a key that is a prefix of others). */
function notFoundAsNull(error: unknown): null {
  if (error instanceof Error && 'code' in error) {
    if (error.code === 'ENOENT' || error.code === 'EISDIR' || error.code === 'ENOTDIR') return null;
  }
  throw error;
}

async function writeNew(file: string, text: string): Promise<void> {
  const handle = await open(file, 'wx');
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}
