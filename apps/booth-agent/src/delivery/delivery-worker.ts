import type { AgentLog } from '../log.js';
import { describeError } from '../reports.js';
import { TransferError, type Transfers } from '../transfers.js';
import type { DeliveryQueue, QueueItem } from './delivery-queue.js';

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

function classify(error: unknown): Failure {
  if (error instanceof NoFreshLink) return 'item';
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
    const { queue, transfers, log, now } = this.options;
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

    if (state === 'pending') {
      let link = { url: upload.upload_url, type: upload.content_type, expires: upload.expires_at };
      let fresh = false;
      const expiring =
        link.expires !== null && Date.parse(link.expires) - LINK_MARGIN_MS <= now().getTime();
      if (expiring) {
        link = await this.relink(item);
        fresh = true;
      }
      const print = await queue.print(captureId);
      try {
        await transfers.uploadOnce(link.url, link.type, print, signal);
      } catch (error) {
        const refused =
          error instanceof TransferError &&
          error.status !== undefined &&
          error.status >= 400 &&
          error.status < 500 &&
          error.status !== 429 &&
          error.status !== 408;
        if (!refused || fresh) throw error;
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

  private async relink(item: QueueItem) {
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
    const expires = fresh.expires_at ? new Date(`${fresh.expires_at.replace(/Z$/, '')}Z`) : null;
    const link = {
      upload_url: fresh.upload_url,
      content_type: fresh.content_type,
      expires_at: expires && !Number.isNaN(expires.getTime()) ? expires.toISOString() : null,
    };
    await this.options.queue.relink(item.captureId, item.upload.media_id, link);
    return { url: link.upload_url, type: link.content_type, expires: link.expires_at };
  }
}
