import type { FastifyBaseLogger } from 'fastify';
import { newObjectKey, type ObjectStorage } from '../storage/storage.js';
import type { MediaRepository, PreviewJob } from './media.repository.js';

/** An item whose preview failed this many times (or whose instances died trying) gets no more tries. */
export const PREVIEW_MAX_ATTEMPTS = 5;
/** Confirmations waiting beyond this many are left to the sweep (their rows are not claimed yet). */
const MAX_QUEUED = 1000;
/** At most this many previews per sweep run; the next run goes on. */
const SWEEP_BATCH = 200;

export type PreviewMaker = (jpeg: Buffer) => Promise<Buffer>;

export interface PreviewWorkerOptions {
  media: Pick<MediaRepository, 'claimPreview' | 'savePreview' | 'failPreview' | 'giveUpPreviews'>;
  storage: ObjectStorage;
  makePreview: PreviewMaker;
  /** Previews made at once by this instance. */
  concurrency: number;
  /** How long a claim holds before another instance (or a later sweep) may take the item over. */
  leaseMs: number;
  now: () => Date;
  log: FastifyBaseLogger;
}

interface Task {
  run: () => Promise<void>;
  /** Called instead of `run` when the worker stops first. */
  drop: () => void;
}

/**
 * Makes low-res previews off the upload confirmation's path. `enqueue(id)` (after a confirmation
 * has marked the item uploaded) and the sweep both go through one in-process queue that runs at
 * most `concurrency` previews at once, so a burst of uploads does not starve request handling.
 *
 * Nothing is lost when a process dies: an item is claimed in the database (a lease, migration
 * 0008) only when its preview is about to be made, so an item still queued here is unclaimed and
 * any instance's next sweep takes it; an item claimed by a dead instance is taken over when the
 * lease runs out. Every instance sweeps; the claim skips locked rows and re-checks the lease, so
 * two instances never make the same preview at once (and if a slow one outlives its lease, the
 * first preview saved wins and the other is deleted). A file sharp cannot turn into a preview
 * (a JPEG corrupt beyond its header, or missing) is recorded on the row and never retried; an
 * error worth retrying (the store, the database) leaves the claim to run out, and after
 * `PREVIEW_MAX_ATTEMPTS` attempts the item is given up and recorded too. Such items keep
 * showing their HD image (`MediaService.toDto`).
 */
export class PreviewWorker {
  private readonly queue: Task[] = [];
  private readonly queuedIds = new Set<number>();
  private readonly running = new Set<Promise<void>>();
  private sweeping: Promise<number> | undefined;
  private stopped = false;

  constructor(private readonly options: PreviewWorkerOptions) {}

  /** The item was just marked uploaded: make its preview soon (or leave it to the sweep). */
  enqueue(id: number): void {
    if (this.stopped || this.queuedIds.has(id)) return;
    if (this.queue.length >= MAX_QUEUED) {
      this.options.log.warn({ mediaId: id }, 'preview queue full; the sweep will make it');
      return;
    }
    this.queuedIds.add(id);
    void this.schedule(async () => {
      this.queuedIds.delete(id);
      const job = await this.claim(id);
      if (job) await this.make(job);
    }).finally(() => this.queuedIds.delete(id));
  }

  /**
   * One sweep now (or the one already running): records items out of attempts, then claims and
   * makes waiting previews one at a time through the queue until none is left. Resolves with the
   * number of items it handled (made, or failed and recorded).
   */
  runOnce(): Promise<number> {
    if (this.sweeping) return this.sweeping;
    const run = this.sweep();
    this.sweeping = run;
    const clear = () => {
      if (this.sweeping === run) this.sweeping = undefined;
    };
    run.then(clear, clear);
    return run;
  }

  /** Resolves once nothing is queued or running here (tests, the benchmark). */
  async idle(): Promise<void> {
    while (this.running.size > 0 || this.queue.length > 0 || this.sweeping) {
      await Promise.all([...this.running, this.sweeping?.catch(() => undefined)]);
      if (this.running.size === 0 && this.queue.length > 0) this.pump();
    }
  }

  /**
   * Stops sweeping and drops what is queued (unclaimed: another instance's sweep, or this one's
   * after a restart, makes those), then waits for the previews being made so the database and
   * the store are not closed under them.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const task of this.queue.splice(0)) task.drop();
    this.queuedIds.clear();
    await Promise.all([...this.running, this.sweeping?.catch(() => undefined)]);
  }

  private async sweep(): Promise<number> {
    const { media, now, log } = this.options;
    const gaveUp = await media.giveUpPreviews(
      now(),
      PREVIEW_MAX_ATTEMPTS,
      `No preview after ${PREVIEW_MAX_ATTEMPTS} attempts.`,
    );
    if (gaveUp.length > 0) {
      log.error({ mediaIds: gaveUp }, 'gave up making previews; the HD image is shown instead');
    }
    let handled = 0;
    while (!this.stopped && handled < SWEEP_BATCH) {
      const claimed = await this.schedule(async () => {
        const job = await this.claim();
        if (job) await this.make(job);
        return job !== undefined;
      });
      if (!claimed) break;
      handled += 1;
    }
    if (handled > 0) log.info({ handled }, 'preview sweep made waiting previews');
    return handled;
  }

  private claim(id?: number): Promise<PreviewJob | undefined> {
    const { media, now, leaseMs } = this.options;
    const at = now();
    return media.claimPreview({
      ...(id === undefined ? {} : { id }),
      at,
      leaseUntil: new Date(at.getTime() + leaseMs),
      maxAttempts: PREVIEW_MAX_ATTEMPTS,
    });
  }

  /** Makes, stores and saves one claimed preview; every outcome is logged, none is thrown. */
  private async make(job: PreviewJob): Promise<void> {
    const { media, storage, makePreview, log } = this.options;
    const context = { mediaId: job.id, key: job.s3Key, attempt: job.attempts };
    let original: Buffer;
    try {
      const object = await storage.get(job.s3Key);
      if (!object) {
        log.error(context, 'the uploaded file is missing; no preview');
        await media.failPreview(job.id, 'The uploaded file is missing.');
        return;
      }
      original = object.body;
    } catch (error) {
      await this.retryLater(job, error);
      return;
    }
    let preview: Buffer;
    try {
      preview = await makePreview(original);
    } catch (error) {
      // The header was checked at confirmation; the body is not a readable JPEG.
      log.error({ ...context, err: error }, 'could not make a preview; the HD image is shown');
      await media
        .failPreview(job.id, `Not a readable JPEG: ${messageOf(error)}`)
        .catch((failure: unknown) =>
          log.warn({ ...context, err: failure }, 'could not record a failed preview'),
        );
      return;
    }
    const lowresKey = newObjectKey(`media/${job.userId}/lowres`, 'jpg');
    try {
      await storage.put(lowresKey, preview, 'image/jpeg');
      if (await media.savePreview(job.id, lowresKey)) {
        log.debug({ ...context, lowresKey }, 'preview made');
        return;
      }
      // Another run (an instance that outlived its lease) saved one first; keep that one.
      await this.deleteQuietly(lowresKey);
    } catch (error) {
      await this.deleteQuietly(lowresKey);
      await this.retryLater(job, error);
    }
  }

  /** The claim stays until its lease runs out; then a sweep tries again (or gives up). */
  private async retryLater(job: PreviewJob, error: unknown): Promise<void> {
    const { media, log } = this.options;
    const context = { mediaId: job.id, attempt: job.attempts, err: error };
    if (job.attempts < PREVIEW_MAX_ATTEMPTS) {
      log.warn(context, 'preview failed; a sweep retries it when the claim runs out');
      return;
    }
    log.error(context, 'preview failed on its last attempt; the HD image is shown');
    await media
      .failPreview(job.id, `No preview after ${job.attempts} attempts: ${messageOf(error)}`)
      .catch((failure: unknown) =>
        log.warn({ mediaId: job.id, err: failure }, 'could not record a failed preview'),
      );
  }

  private async deleteQuietly(key: string): Promise<void> {
    await this.options.storage
      .delete(key)
      .catch((error: unknown) =>
        this.options.log.warn({ err: error, key }, 'could not delete an unused preview'),
      );
  }

  /** Runs `work` when a slot is free; resolves undefined when the worker stops first. */
  private schedule<T>(work: () => Promise<T>): Promise<T | undefined> {
    if (this.stopped) return Promise.resolve(undefined);
    return new Promise<T | undefined>((resolve) => {
      this.queue.push({
        run: async () => {
          try {
            resolve(await work());
          } catch (error) {
            this.options.log.warn({ err: error }, 'preview task failed');
            resolve(undefined);
          }
        },
        drop: () => resolve(undefined),
      });
      this.pump();
    });
  }

  private pump(): void {
    while (this.running.size < this.options.concurrency && this.queue.length > 0) {
      const task = this.queue.shift()!;
      const running: Promise<void> = task.run().finally(() => {
        this.running.delete(running);
        this.pump();
      });
      this.running.add(running);
    }
  }
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 300);
}
