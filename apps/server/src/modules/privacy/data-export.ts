import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import yazl from 'yazl';
import type { Database } from '../../db/client.js';
import type { DataExportRow } from '../../db/schema.js';
import { paiseToRupees, toApiTimestamp, toIsoDate } from '../../lib/time.js';
import { newObjectKey, type ObjectStorage } from '../storage/storage.js';
import type { ObjectCleanup } from '../storage/object-cleanup.js';
import type { PersonalData, PrivacyRepository } from './privacy.repository.js';

/** How long one instance's claim on an export holds (a big export's files take a while). */
const BUILD_LEASE_MS = 30 * 60_000;
/** Attempts before an export fails for good (the person is told to try again). */
export const EXPORT_MAX_ATTEMPTS = 3;
/** A failed attempt is tried again after this long. */
const RETRY_AFTER_MS = 60_000;

/** Where a media item's HD file sits in the ZIP. */
export function zipPathOf(item: { id: number; s3Key: string; mediaType: string }): string {
  const extension = item.s3Key.split('.').pop() ?? (item.mediaType === 'video' ? 'mp4' : 'jpg');
  return `${item.mediaType === 'video' ? 'videos' : 'photos'}/${item.id}.${extension}`;
}

/** Where a GIF item's `.gif` sits in the ZIP: beside its MP4 (`videos/{id}.gif`). */
export function gifZipPathOf(item: { id: number }): string {
  return `videos/${item.id}.gif`;
}

const stamp = (value: Date | null) => (value ? toApiTimestamp(value) : null);

/**
 * data.json of an export: the profile, every item (with its caption, likes and comments, and
 * where its file is in the ZIP, or that the file is missing), the likes and comments the person
 * gave, transactions with their refunds, and the credit history. Times are UTC without a zone
 * suffix, amounts in rupees, as the API has them. Other people appear only as the wall shows
 * them (a commenter's name); who liked an item is not said, only when.
 */
export function personalDataJson(
  data: PersonalData,
  exportedAt: Date,
  missingFiles: ReadonlySet<number>,
  /** The GIF items whose `.gif` is in the ZIP (gifZipPathOf). */
  gifFiles: ReadonlySet<number> = new Set(),
) {
  const { profile } = data;
  return {
    format: 'flashbooth-personal-data/1',
    exported_at: toApiTimestamp(exportedAt),
    profile: {
      id: profile.id,
      account_type: profile.pool,
      phone: profile.phone,
      name: profile.name,
      email: profile.email,
      dob: toIsoDate(profile.dob),
      gender: profile.gender,
      credits_rupees: paiseToRupees(profile.creditsPaise),
      created_at: toApiTimestamp(profile.createdAt),
    },
    media: data.media.map(({ row, orgName, deviceName, templateName }) => ({
      id: row.id,
      media_type: row.mediaType,
      file: missingFiles.has(row.id) || !row.isUploaded ? null : zipPathOf(row),
      ...(gifFiles.has(row.id) ? { gif_file: gifZipPathOf(row) } : {}),
      ...(missingFiles.has(row.id)
        ? { file_note: 'The file could not be read from storage.' }
        : {}),
      ...(!row.isUploaded ? { file_note: 'The booth never delivered this item.' } : {}),
      caption: row.caption,
      orientation: row.orientation,
      organization: orgName,
      booth: deviceName,
      template: templateName,
      is_public: row.isPublic,
      is_repost_allowed: row.isRepostAllowed,
      hidden_from_wall: row.hiddenFromWallAt !== null,
      created_at: toApiTimestamp(row.createdAt),
      likes_count: row.likesCount,
      likes: data.likesReceived
        .filter((like) => like.mediaId === row.id)
        .map((like) => ({ liked_at: toApiTimestamp(like.createdAt) })),
      comments: data.commentsReceived
        .filter((comment) => comment.mediaId === row.id)
        .map((comment) => ({
          user_name: comment.userName,
          comment_text: comment.commentText,
          created_at: toApiTimestamp(comment.createdAt),
        })),
    })),
    likes_given: data.likesGiven.map((like) => ({
      media_id: like.mediaId,
      liked_at: toApiTimestamp(like.createdAt),
    })),
    comments_written: data.commentsWritten.map((comment) => ({
      id: comment.id,
      media_id: comment.mediaId,
      comment_text: comment.commentText,
      created_at: toApiTimestamp(comment.createdAt),
    })),
    transactions: data.transactions.map(({ row, orgName, deviceName }) => ({
      id: row.id,
      order_id: row.orderId,
      provider: row.provider,
      provider_order_id: row.providerOrderId,
      amount_rupees: paiseToRupees(row.amountPaise),
      credit_used_rupees: paiseToRupees(row.creditPaise),
      state: row.state,
      organization: orgName,
      booth: deviceName,
      created_at: toApiTimestamp(row.createdAt),
      completed_at: stamp(row.completedAt),
      refunds: data.refunds
        .filter((refund) => refund.transactionId === row.id)
        .map((refund) => ({
          to: refund.destination,
          amount_rupees: paiseToRupees(refund.amountPaise),
          state: refund.state,
          created_at: toApiTimestamp(refund.createdAt),
        })),
    })),
    credit_history: data.credit.map((entry) => ({
      change_rupees: paiseToRupees(entry.deltaPaise),
      reason: entry.reason,
      note: entry.note,
      transaction_id: entry.paymentTransactionId,
      created_at: toApiTimestamp(entry.createdAt),
    })),
  };
}

/** A short README beside data.json, so the ZIP explains itself. */
const README = `Your Flashbooth data

data.json   your profile, your photos and videos (captions, likes, comments), the likes
            and comments you gave, your transactions and your credit history.
photos/     every photo in full quality, named by its id in data.json.
videos/     every video in full quality, named by its id in data.json, and a GIF's .gif
            beside its video.

Times are in UTC. Amounts are in Indian rupees.
`;

/**
 * Builds "Download my data" ZIPs in the background and deletes them when they expire.
 *
 * Every instance runs `runOnce`: each export is claimed in the database (`FOR UPDATE SKIP LOCKED`
 * and a lease), so two instances never build the same one. The ZIP is streamed to a temporary
 * file (each HD file read from the store as a stream, stored without recompressing), then
 * streamed to the store. Its key is queued for cleanup before the upload and taken off the queue
 * in the transaction that marks the export ready, so a crash never leaves an orphaned ZIP.
 */
export class DataExportBuilder {
  private inFlight: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: {
      db: Database;
      repository: PrivacyRepository;
      storage: ObjectStorage;
      cleanup: ObjectCleanup;
      /** How long a ready export is offered (DATA_EXPORT_TTL_HOURS). */
      ttlMs: number;
      now: () => Date;
      log: FastifyBaseLogger;
    },
  ) {}

  /** Starts a build run now (after a request), without waiting; `stop` waits for it. */
  kick(): void {
    this.inFlight = this.inFlight
      .then(() => this.runOnce())
      .catch((error: unknown) =>
        this.deps.log.warn({ err: error }, 'data export run failed; the job retries it'),
      );
  }

  async stop(): Promise<void> {
    await this.inFlight;
  }

  /** Builds every due export (one at a time); a dry run lists them. */
  async runOnce(
    options: { dryRun?: boolean } = {},
  ): Promise<{ counts: Record<string, number>; plan?: string[] }> {
    const now = this.deps.now();
    if (options.dryRun) {
      const due = await this.deps.repository.exportsDue(now);
      return {
        counts: { built: due.length },
        plan: due.map(
          (row) =>
            `export ${row.id} of user ${row.userId}: would be built (attempt ${row.attempts + 1})`,
        ),
      };
    }
    const counts = { built: 0, failed: 0 };
    for (let round = 0; round < 20; round += 1) {
      const claimed = await this.deps.repository.claimExport(this.deps.now(), BUILD_LEASE_MS);
      if (!claimed) break;
      if (await this.build(claimed)) counts.built += 1;
      else counts.failed += 1;
    }
    return { counts };
  }

  /** Deletes the ZIPs of expired exports (the rows stay, as 'expired', for the profile). */
  async expireOnce(
    options: { dryRun?: boolean } = {},
  ): Promise<{ counts: Record<string, number>; plan?: string[] }> {
    const now = this.deps.now();
    if (options.dryRun) {
      const due = await this.deps.repository.exportsExpired(now);
      return {
        counts: { expired: due.length },
        plan: due.map((row) => `export ${row.id}: expired; would delete ${row.key}`),
      };
    }
    let expired = 0;
    for (let round = 0; round < 20; round += 1) {
      const keys = await this.deps.db.transaction(async (tx) => {
        const found = await this.deps.repository.expireExports(tx, now);
        return this.deps.cleanup.queue(tx, found, 'export_expired', now);
      });
      if (keys.length === 0) break;
      expired += keys.length;
      await this.deps.cleanup.deleteNow(keys);
    }
    return { counts: { expired } };
  }

  /** One attempt at one claimed export; true when it is ready. */
  private async build(row: DataExportRow): Promise<boolean> {
    const { repository, storage, cleanup, log } = this.deps;
    const folder = await mkdtemp(path.join(os.tmpdir(), 'flashbooth-export-'));
    const key = newObjectKey('exports', 'zip');
    try {
      const data = await repository.personalData(row.userId);
      if (!data) return false; // the account was erased meanwhile (its exports went with it)
      const file = path.join(folder, 'export.zip');
      const items = await this.writeZip(data, file);
      // Queued before the upload: if this instance stops before the export is marked ready, the
      // cleanup job deletes the ZIP after the lease (a retry builds a new one under a new key).
      await cleanup.queue(
        this.deps.db,
        [key],
        'unconfirmed_upload',
        new Date(this.deps.now().getTime() + 2 * BUILD_LEASE_MS),
      );
      await storage.putFile(key, file, 'application/zip');
      const { size } = await stat(file);
      const at = this.deps.now();
      const ready = await this.deps.db.transaction(async (tx) => {
        const marked = await repository.markExportReady(tx, row.id, {
          objectKey: key,
          sizeBytes: size,
          itemCount: items,
          at,
          expiresAt: new Date(at.getTime() + this.deps.ttlMs),
        });
        if (marked) await cleanup.keep(tx, key);
        return marked;
      });
      if (!ready) {
        // Erased or finished elsewhere meanwhile: this copy is not needed.
        await cleanup.queue(this.deps.db, [key], 'erased', this.deps.now());
        await cleanup.deleteNow([key]);
        return false;
      }
      log.info(
        { exportId: row.id, userId: row.userId, items, sizeBytes: size },
        'data export ready',
      );
      return true;
    } catch (error) {
      const lastAttempt = row.attempts >= EXPORT_MAX_ATTEMPTS;
      log.warn(
        { err: error, exportId: row.id, attempt: row.attempts },
        lastAttempt ? 'data export failed for good' : 'data export attempt failed; retrying',
      );
      await repository.markExportAttemptFailed(
        row.id,
        lastAttempt ? 'The export could not be built.' : 'Retrying.',
        lastAttempt ? null : new Date(this.deps.now().getTime() + RETRY_AFTER_MS),
      );
      return false;
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  /** Streams the ZIP to `file`: data.json, a README, then each HD file (and GIF). Returns the item count. */
  private async writeZip(data: PersonalData, file: string): Promise<number> {
    const { storage } = this.deps;
    const zip = new yazl.ZipFile();
    // An entry that cannot be read (its object deleted meanwhile by an erasure, a store error) is
    // an 'error' on the ZipFile, not on its stream: ended into the stream, it fails the pipeline
    // below (the attempt is retried) instead of leaving it waiting for ever and the error unheard.
    // (yazl's stream is a PassThrough; its types say only ReadableStream.)
    zip.on('error', (error: Error) => (zip.outputStream as Readable).destroy(error));
    const missing = new Set<number>();
    const gifs = new Set<number>();
    const files: { path: string; key: string }[] = [];
    let items = 0;
    for (const { row } of data.media) {
      if (!row.isUploaded) continue;
      if ((await storage.head(row.s3Key)) === null) {
        missing.add(row.id);
        continue;
      }
      files.push({ path: zipPathOf(row), key: row.s3Key });
      items += 1;
      // A GIF item's .gif (what My Media's "Download GIF" gives), beside its MP4.
      if (row.gifKey && (await storage.head(row.gifKey)) !== null) {
        files.push({ path: gifZipPathOf(row), key: row.gifKey });
        gifs.add(row.id);
      }
    }
    const json = personalDataJson(data, this.deps.now(), missing, gifs);
    zip.addBuffer(Buffer.from(`${JSON.stringify(json, null, 2)}\n`), 'data.json');
    zip.addBuffer(Buffer.from(README), 'README.txt');
    for (const entry of files) {
      // Opened only when the ZIP reaches it, one file at a time; JPEG, MP4 and GIF are stored as they
      // are (compressing them again saves nothing).
      zip.addReadStreamLazy(entry.path, { compress: false }, (callback) => {
        storage.open(entry.key).then(
          (opened) =>
            opened
              ? callback(null, opened.stream)
              : callback(
                  new Error(`object ${entry.key} disappeared during the export`),
                  undefined as never,
                ),
          (error: unknown) => callback(error, undefined as never),
        );
      });
    }
    zip.end();
    await pipeline(zip.outputStream, createWriteStream(file));
    return items;
  }
}
