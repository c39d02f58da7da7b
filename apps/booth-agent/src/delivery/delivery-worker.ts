import type { AgentLog } from '../log.js';
import { describeError } from '../reports.js';
import { TransferError, type Transfers } from '../transfers.js';
import { FfmpegMotionEncoder, type MotionEncoder } from '../motion/encoder.js';
import {
  type DeliveryQueue,
  MOTION_PART_TYPES,
  type MotionPart,
  type QueueItem,
  VIDEO_CONTENT_TYPE,
} from './delivery-queue.js';

export interface DeliveryRetry {
  /** The first pause after a failure (default 2 s); doubled after each failure in a row. */
  firstMs: number;
  /** The longest pause (default 5 min); the worker never gives up while the network is down. */
  maxMs: number;
}

export const DEFAULT_DELIVERY_RETRY: DeliveryRetry = { firstMs: 2000, maxMs: 5 * 60_000 };

/** A link this close to its expiry is renewed before the upload rather than refused during it. */
const LINK_MARGIN_MS = 60_000;
/** Confirmations answered "not uploaded yet" in a row before the item is uploaded again. */
const MISSING_OBJECT_LIMIT = 5;

export interface DeliveryWorkerOptions {
  queue: DeliveryQueue;
  /** Makes a motion item's files from its frames before they are uploaded (default: ffmpeg). */
  encoder?: MotionEncoder;
  transfers: Pick<Transfers, 'uploadOnce' | 'confirmOnce' | 'freshUploadLink'>;
  log: AgentLog;
  now: () => Date;
  retry?: Partial<DeliveryRetry>;
  /** 0 ≤ x < 1, for the jitter (tests pin it). */
  random?: () => number;
  /** An item the server confirmed. */
  onDelivered?: (item: QueueItem, at: Date) => void;
  /** An item the server refused for good (its media is gone); it is set aside, not deleted. */
  onRejected?: (item: QueueItem, error: unknown, delivered: number[]) => void;
}

/** How a failed request counts. */
type Failure =
  /** No answer, or the server or network is in trouble: everything waits. */
  | 'outage'
  /** This item's own problem: it waits, the others go on. */
  | 'item'
  /** The server says the item does not exist: given up. */
  | 'gone';

/** The server has no fresh link for the item (an older server, or a passing problem). */
class NoFreshLink extends TransferError {}

/** The server already has the item (asked for a fresh link, it answers 409). */
class AlreadyUploaded extends Error {}

/** A motion item's files could not be made: it waits and is encoded again later. */
class EncodeFailed extends Error {}

/** The links of a motion item's files, and when they stop working. */
interface MotionLinks {
  urls: Record<MotionPart, string | null | undefined>;
  expires: string | null;
}

function classify(error: unknown): Failure {
  if (error instanceof NoFreshLink || error instanceof EncodeFailed) return 'item';
  if (!(error instanceof TransferError) || error.status === undefined) return 'outage';
  const { status } = error;
  // 401: the booth's login is refused for every item alike (a secret being fixed).
  if (status >= 500 || status === 429 || status === 408 || status === 401) return 'outage';
  return status === 404 ? 'gone' : 'item';
}

/**
 * Delivers the queue in the background, oldest item first, one at a time: upload (with a fresh
 * link when the stored one expired or is refused), record `put`, confirm with the capture's end
 * time, record `confirmed` (the queue deletes a capture once all its items are). While the
 * network or the server is away it pauses, 2 s doubling up to 5 min with ±20% jitter, and never
 * gives up; an item with a problem of its own waits on its own pause while the others go on.
 * An item loaded at start-up still `pending` may have been uploaded just before the restart:
 * it is confirmed first, and uploaded only when the server says it has no file yet.
 */
export class DeliveryWorker {
  private readonly retry: DeliveryRetry;
  private readonly random: () => number;
  private readonly encoder: MotionEncoder;
  private stopped = true;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private abort = new AbortController();
  /** Network/server failures in a row. */
  private outages = 0;
  /** Per item: failures in a row and when it may be tried again (ms). */
  private readonly itemRetries = new Map<number, { failures: number; at: number }>();
  private readonly missingObject = new Map<number, number>();
  private readonly probed = new Set<number>();
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: DeliveryWorkerOptions) {
    this.retry = { ...DEFAULT_DELIVERY_RETRY, ...options.retry };
    this.random = options.random ?? Math.random;
    this.encoder = options.encoder ?? new FfmpegMotionEncoder();
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.abort = new AbortController();
    this.loop = this.run().catch((error: unknown) => {
      this.options.log.error({ err: error }, 'the delivery worker stopped unexpectedly');
    });
  }

  /** Something new to deliver, or the network may be back: try now instead of after the pause. */
  kick(): void {
    this.wake?.();
  }

  /** The booth's broker came back: the network probably did too, so the pause starts over. */
  networkBack(): void {
    this.outages = 0;
    this.kick();
  }

  /** Stops after the request in progress is aborted; what it did not finish stays queued. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.abort.abort();
    this.kick();
    await this.loop;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  /** Resolves when nothing is left to deliver now (tests, the benchmark). */
  async idle(): Promise<void> {
    if (!this.pending()) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private pending(): boolean {
    return this.options.queue.next() !== undefined;
  }

  private async run(): Promise<void> {
    const { queue, now } = this.options;
    while (!this.stopped) {
      const at = now().getTime();
      const item = queue.next((mediaId) => (this.itemRetries.get(mediaId)?.at ?? 0) > at);
      if (!item) {
        if (!this.pending()) for (const resolve of this.idleWaiters.splice(0)) resolve();
        const waits = [...this.itemRetries.values()].map((retry) => retry.at - at);
        await this.pause(waits.length > 0 ? Math.max(0, Math.min(...waits)) : undefined);
        continue;
      }
      try {
        await this.deliver(item);
        this.outages = 0;
        this.itemRetries.delete(item.upload.media_id);
      } catch (error) {
        if (this.stopped) return;
        await this.failed(item, error);
      }
    }
  }

  private async failed(item: QueueItem, error: unknown): Promise<void> {
    const { log, queue } = this.options;
    const mediaId = item.upload.media_id;
    const kind = classify(error);
    if (kind === 'gone') {
      log.error(
        { err: error, mediaId, captureId: item.captureId },
        'the server does not know this item: set aside, not delivered',
      );
      const delivered = queue.confirmedOf(item.captureId);
      await queue.markRejected(item.captureId, mediaId);
      this.options.onRejected?.(item, error, delivered);
      return;
    }
    if (kind === 'item') {
      const failures = (this.itemRetries.get(mediaId)?.failures ?? 0) + 1;
      const delay = this.delay(failures);
      this.itemRetries.set(mediaId, { failures, at: this.options.now().getTime() + delay });
      log.warn(
        { err: error, mediaId, captureId: item.captureId, retryInMs: delay },
        'delivery of an item failed; it is retried later',
      );
      return;
    }
    this.outages += 1;
    const delay = this.delay(this.outages);
    const details = {
      mediaId,
      reason: describeError(error),
      retryInMs: delay,
      failures: this.outages,
    };
    if (this.outages === 1) log.warn(details, 'cannot reach the server: deliveries wait');
    else log.debug(details, 'still cannot reach the server');
    await this.pause(delay);
  }

  /** The pause after `failures` failures in a row: doubling, capped, ±20% jitter. */
  private delay(failures: number): number {
    const { firstMs, maxMs } = this.retry;
    const base = Math.min(maxMs, firstMs * 2 ** Math.min(30, failures - 1));
    return Math.round(Math.min(maxMs, base * (0.8 + 0.4 * this.random())));
  }

  /** Waits `ms` (forever when undefined) or until kicked or stopped. */
  private async pause(ms: number | undefined): Promise<void> {
    if (this.stopped) return;
    await new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      if (ms !== undefined) timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  private async deliver(item: QueueItem): Promise<void> {
    try {
      await this.deliverOnce(item);
    } catch (error) {
      if (!(error instanceof AlreadyUploaded)) throw error;
      // Uploaded and confirmed before (a confirmation whose answer was lost): nothing to send.
      await this.confirmed(item);
    }
  }

  private async deliverOnce(item: QueueItem): Promise<void> {
    const { queue, transfers, log } = this.options;
    const { captureId, upload } = item;
    const mediaId = upload.media_id;
    const signal = this.abort.signal;
    let state = upload.state;

    if (state === 'pending' && item.recovered && !this.probed.has(mediaId)) {
      // It may have been uploaded just before the restart: a confirmation tells.
      this.probed.add(mediaId);
      try {
        await transfers.confirmOnce(mediaId, item.capturedAt, signal);
        await this.confirmed(item);
        return;
      } catch (error) {
        if (!(error instanceof TransferError && error.status === 409)) throw error;
      }
    }

    if (state === 'pending' && upload.content_type === VIDEO_CONTENT_TYPE) {
      await this.uploadMotion(item);
      await queue.markPut(captureId, mediaId);
      state = 'put';
    } else if (state === 'pending') {
      let link = { url: upload.upload_url, type: upload.content_type, expires: upload.expires_at };
      let fresh = false;
      if (this.expiring(link.expires)) {
        link = await this.relink(item);
        fresh = true;
      }
      const print = await queue.print(captureId);
      try {
        await transfers.uploadOnce(link.url, link.type, print, signal);
      } catch (error) {
        if (!refused(error) || fresh) throw error;
        log.info({ mediaId, status: error.status }, 'upload link refused: asking for a fresh one');
        link = await this.relink(item);
        await transfers.uploadOnce(link.url, link.type, print, signal);
      }
      await queue.markPut(captureId, mediaId);
      state = 'put';
    }

    try {
      await transfers.confirmOnce(mediaId, item.capturedAt, signal);
    } catch (error) {
      if (error instanceof TransferError && (error.status === 409 || error.status === 422)) {
        // 409: the store has no file (yet); 422: the server refused the file and deleted it.
        const missing = (this.missingObject.get(mediaId) ?? 0) + 1;
        this.missingObject.set(mediaId, missing);
        if (error.status === 422 || missing >= MISSING_OBJECT_LIMIT) {
          this.missingObject.delete(mediaId);
          await queue.markPending(captureId, mediaId);
        }
      }
      throw error;
    }
    await this.confirmed(item);
  }

  /** A link this close to its expiry is renewed before the upload. */
  private expiring(expires: string | null): boolean {
    return expires !== null && Date.parse(expires) - LINK_MARGIN_MS <= this.options.now().getTime();
  }

  /**
   * A motion item: encoded first if it is not yet (one encoding at a time, the queue's), then
   * its MP4, poster, preview and .gif PUT each to its own link, each recorded once the store
   * took it, so a restart sends only the rest. A refused or expired link brings fresh links for
   * all of them.
   */
  private async uploadMotion(item: QueueItem): Promise<void> {
    const { queue, transfers, log } = this.options;
    const { encoder } = this;
    const { captureId, upload } = item;
    const mediaId = upload.media_id;
    const signal = this.abort.signal;
    if (!queue.isEncoded(captureId)) {
      try {
        await queue.encode(captureId, encoder);
      } catch (error) {
        throw new EncodeFailed(`the motion capture could not be encoded: ${describeError(error)}`, {
          cause: error,
        });
      }
    }
    let links: MotionLinks = {
      urls: {
        video: upload.upload_url,
        poster: upload.poster_upload_url,
        preview: upload.preview_upload_url,
        gif: upload.gif_upload_url,
      },
      expires: upload.expires_at,
    };
    let fresh = false;
    if (this.expiring(links.expires)) {
      links = await this.relinkMotion(item);
      fresh = true;
    }
    const parts: MotionPart[] = ['video', 'poster', 'preview'];
    if (upload.gif_upload_url) parts.push('gif');
    const done = new Set(upload.puts ?? []);
    for (const part of parts) {
      if (done.has(part)) continue;
      const data = await queue.motionFile(captureId, part);
      const put = (url: string | null | undefined) => {
        if (!url)
          throw new NoFreshLink(`no upload link for the ${part} of media ${mediaId}`, undefined);
        return transfers.uploadOnce(url, MOTION_PART_TYPES[part], data, signal);
      };
      try {
        await put(links.urls[part]);
      } catch (error) {
        if (!refused(error) || fresh) throw error;
        log.info(
          { mediaId, part, status: error.status },
          'upload link refused: asking for fresh ones',
        );
        links = await this.relinkMotion(item);
        fresh = true;
        await put(links.urls[part]);
      }
      await queue.markPartPut(captureId, mediaId, part);
      done.add(part);
    }
  }

  private async confirmed(item: QueueItem): Promise<void> {
    const at = this.options.now();
    await this.options.queue.markConfirmed(item.captureId, item.upload.media_id);
    this.missingObject.delete(item.upload.media_id);
    this.options.log.info(
      { captureId: item.captureId, mediaId: item.upload.media_id },
      'delivered',
    );
    this.options.onDelivered?.(item, at);
  }

  /** Fresh links for every file of a motion item. */
  private async relinkMotion(item: QueueItem): Promise<MotionLinks> {
    const fresh = await this.fetchLinks(item);
    if (!fresh.poster_upload_url || !fresh.preview_upload_url) {
      throw new NoFreshLink(
        `the server gave no poster and preview links for media ${item.upload.media_id}`,
        undefined,
      );
    }
    const link = {
      upload_url: fresh.upload_url,
      content_type: VIDEO_CONTENT_TYPE,
      expires_at: expiry(fresh.expires_at),
      poster_upload_url: fresh.poster_upload_url,
      preview_upload_url: fresh.preview_upload_url,
      // A gif item keeps its .gif link; the others have none.
      gif_upload_url: item.upload.gif_upload_url ? (fresh.gif_upload_url ?? null) : null,
    };
    await this.options.queue.relink(item.captureId, item.upload.media_id, link);
    return {
      urls: {
        video: link.upload_url,
        poster: link.poster_upload_url,
        preview: link.preview_upload_url,
        gif: link.gif_upload_url,
      },
      expires: link.expires_at,
    };
  }

  private async fetchLinks(item: QueueItem) {
    let fresh;
    try {
      fresh = await this.options.transfers.freshUploadLink(item.upload.media_id, this.abort.signal);
    } catch (error) {
      // Only the confirmation's 404 means the item is gone; this one may be an older server.
      if (error instanceof TransferError && error.status === 404) {
        throw new NoFreshLink(error.message, error.status, { cause: error });
      }
      if (error instanceof TransferError && error.status === 409) {
        throw new AlreadyUploaded(error.message, { cause: error });
      }
      throw error;
    }
    return fresh;
  }

  private async relink(item: QueueItem) {
    const fresh = await this.fetchLinks(item);
    const link = {
      upload_url: fresh.upload_url,
      content_type: fresh.content_type,
      expires_at: expiry(fresh.expires_at),
    };
    await this.options.queue.relink(item.captureId, item.upload.media_id, link);
    return { url: link.upload_url, type: link.content_type, expires: link.expires_at };
  }
}

/** The server's expiry (UTC without a zone suffix) as ISO-8601, or null when unreadable. */
function expiry(stamp: string | undefined): string | null {
  const at = stamp ? new Date(`${stamp.replace(/Z$/, '')}Z`) : null;
  return at && !Number.isNaN(at.getTime()) ? at.toISOString() : null;
}

/** The store or server refused the request itself (a 4xx other than 408 and 429). */
function refused(error: unknown): error is TransferError & { status: number } {
  return (
    error instanceof TransferError &&
    error.status !== undefined &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 429 &&
    error.status !== 408
  );
}
