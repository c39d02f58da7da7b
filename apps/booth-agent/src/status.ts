import type { DeviceHealth, DeviceStatusMessage } from '@flashbooth/contracts';
import type { BoothChannel } from './connection.js';
import type { AgentLog } from './log.js';
import type { BoothState } from './state.js';
import { utcStamp, withTimeout } from './time.js';

/**
 * `idle` between sessions; `ready` from the accepted capture through the countdowns and photos
 * (the visitor's screen polls for it); `processing` while composing and printing; `updating`
 * while a release downloads and installs (the visitor's screen treats every status but `idle` as
 * busy); `offline` once stopped (and, through the last will, after a crash). `uploading` is no
 * longer reported: uploads run in the background from the delivery queue and never hold the
 * booth (the server and the web app still read it as busy, for older booths).
 */
export type BoothStatus = 'idle' | 'ready' | 'processing' | 'uploading' | 'updating' | 'offline';

/** How long a status report may take before the session goes on without it. */
const STATUS_REPORT_TIMEOUT_MS = 5000;

export interface StatusBoardOptions {
  /** The channel in use, if any. */
  link: { current(): BoothChannel | undefined };
  /** The state reported with the status (version, prints left, settings revision). */
  store: { readonly state: BoothState };
  /** The health sent with every status (health.ts); none: no `health` member. */
  health?: { snapshot(): DeviceHealth; refresh(): Promise<void> };
  /** The shortest time between two reports made by `reportSoon` (default 5 s). */
  reportSoonMs?: number;
  now: () => Date;
  log: AgentLog;
}

/**
 * The booth's status and its one job slot: a capture session or a software update, never two at
 * once. Status reports made during a job never fail it (the broker may be away for a moment).
 */
export class StatusBoard {
  private value: BoothStatus = 'offline';
  /** The capture session or software update in progress, if any. */
  private job: Promise<void> | undefined;
  /** When the last report was made (performance.now()), and the one `reportSoon` scheduled. */
  private reportedAt = -Infinity;
  private soon: NodeJS.Timeout | undefined;
  private sent = 0;
  /** Load tests' hold (`hold`): reports wait; one made meanwhile goes out on `release`. */
  private held = false;
  private deferred = false;
  private readonly onTheWay = new Set<Promise<void>>();

  constructor(private readonly options: StatusBoardOptions) {}

  /** Status reports the broker took since the start (load tests count them). */
  get reportsSent(): number {
    return this.sent;
  }

  get current(): BoothStatus {
    return this.value;
  }

  /** A job holds the slot. */
  get busy(): boolean {
    return this.job !== undefined;
  }

  /** Idle with no job: a capture or an update may start. */
  get free(): boolean {
    return this.job === undefined && this.value === 'idle';
  }

  /** Resolves when the job in progress (if any) has ended. */
  async idle(): Promise<void> {
    await this.job;
  }

  message(): DeviceStatusMessage {
    const { state } = this.options.store;
    return {
      status: this.value,
      software_version: state.software_version,
      prints_left: state.prints_left,
      settings_revision: state.settings_revision,
      at: utcStamp(this.options.now()),
      ...(this.options.health ? { health: this.options.health.snapshot() } : {}),
    };
  }

  /** Connected: `idle`, unless a job's status is still current. */
  online(): void {
    if (this.value === 'offline') this.value = 'idle';
  }

  /** Stopped: stays `offline` until the next connection. */
  offline(): void {
    this.value = 'offline';
    clearTimeout(this.soon);
    this.soon = undefined;
  }

  /**
   * Something the console should see soon but not at once (the delivery queue grew or
   * drained): reported at most once per `reportSoonMs`; changes meanwhile go out together.
   */
  reportSoon(): void {
    if (this.soon || this.value === 'offline') return;
    const gap = this.options.reportSoonMs ?? 5000;
    const wait = Math.max(0, this.reportedAt + gap - performance.now());
    this.soon = setTimeout(() => {
      this.soon = undefined;
      void this.publishQuietly();
    }, wait);
    this.soon.unref();
  }

  /**
   * Takes the job slot with `status` (not reported yet); synchronous, so a second command
   * arriving meanwhile finds the booth busy. The returned function ends the job: `idle` (unless
   * stopped meanwhile) and the slot free.
   */
  claim(status: Exclude<BoothStatus, 'idle' | 'offline'>): () => void {
    let release!: () => void;
    this.job = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.value = status;
    return () => {
      if (this.value !== 'offline') this.value = 'idle';
      this.job = undefined;
      release();
    };
  }

  /** Moves on to `status` and reports it; once stopped the booth stays `offline`. */
  async set(status: BoothStatus): Promise<void> {
    if (this.value === 'offline') return;
    this.value = status;
    await this.publishQuietly();
  }

  /** A status report that cannot fail the caller; skipped while disconnected. */
  async publishQuietly(): Promise<void> {
    const channel = this.options.link.current();
    // The polled parts of the health (printer, disk) are brought up to date for the next one.
    void this.options.health?.refresh();
    if (!channel?.connected) return;
    if (this.held) {
      this.deferred = true;
      return;
    }
    this.reportedAt = performance.now();
    const report = (async () => {
      try {
        await withTimeout(channel.publishStatus(this.message()), STATUS_REPORT_TIMEOUT_MS);
        this.sent += 1;
      } catch (error) {
        this.options.log.warn({ err: error }, 'status report failed');
      }
    })();
    this.onTheWay.add(report);
    try {
      await report;
    } finally {
      this.onTheWay.delete(report);
    }
  }

  /**
   * Load tests only (fleet.ts, `npm run bench:status`'s exact count): no report leaves until
   * `release`; resolves once the reports already on their way have been taken by the broker (or
   * failed), so `reportsSent` then counts every report the server will get.
   */
  async hold(): Promise<void> {
    this.held = true;
    await Promise.all([...this.onTheWay]);
  }

  /** Ends `hold`: a report asked for meanwhile (the latest state) goes out now. */
  release(): void {
    this.held = false;
    if (!this.deferred) return;
    this.deferred = false;
    void this.publishQuietly();
  }
}
