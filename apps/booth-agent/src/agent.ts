import {
  type DeviceErrorReport,
  PRINTS_LEFT_MAX,
  PRINTS_LEFT_WARNING,
} from '@flashbooth/contracts';
import path from 'node:path';
import { BoothStateStore } from './booth-state.js';
import type { Camera } from './camera/camera.js';
import { CaptureSession } from './capture-session.js';
import { CommandIntake } from './command-intake.js';
import { type BoothChannel, BoothConnection } from './connection.js';
import { DeliveryQueue } from './delivery/delivery-queue.js';
import { DEFAULT_DELIVERY_RETRY, DeliveryWorker } from './delivery/delivery-worker.js';
import { DiskQueueFolder, MemoryQueueFolder } from './delivery/queue-folder.js';
import { recoverInterrupted } from './delivery/recover.js';
import { BoothHealth, healthSignature } from './health.js';
import { type AgentLog, consoleLog } from './log.js';
import { FfmpegMotionEncoder, type MotionEncoder } from './motion/encoder.js';
import type { Printer } from './printer/printer.js';
import type { Reply } from './replies.js';
import { ReportOutbox, type ReportedSession } from './report-outbox.js';
import { undeliverableMessage } from './reports.js';
import { applySettings } from './settings.js';
import { SoftwareUpdate } from './software-update.js';
import { type BoothStatus, StatusBoard } from './status.js';
import { utcStamp, withTimeout } from './time.js';
import { type TransferTimers, Transfers } from './transfers.js';
import type { InstalledRelease } from './updater.js';

export interface BoothAgentOptions {
  /** The broker: the server's embedded one (mqtt://host:1884) or the fleet's (MQTT_URL). */
  mqttUrl: string;
  /** The device's serial: its MQTT user name and client id. */
  thingName: string;
  /** The broker password shown once when the device was registered. */
  secret: string;
  camera: Camera;
  printer: Printer;
  /**
   * Makes a motion capture's MP4, poster, animated preview and .gif from its frames, in the
   * background before they are uploaded (default: Debian's ffmpeg with sharp).
   */
  encoder?: MotionEncoder;
  /**
   * This build's version. Reported in every status and ping reply unless an installed release
   * (`<releasesDir>/current.json`) names another.
   */
  softwareVersion: string;
  /**
   * Prints left on the roll on the first run (a full roll, 700, when not given); afterwards the
   * state file's count wins.
   */
  printsLeft?: number;
  /**
   * The JSON file that keeps prints left, the applied settings revision, the installed version
   * and unsent error reports across restarts. Without it all of that lives in memory only.
   */
  stateFile?: string;
  /**
   * Where the `update` command installs releases (`<version>/<file>` and `current.json`).
   * Without it the booth refuses updates.
   */
  releasesDir?: string;
  /**
   * The delivery queue's folder (docs/delivery-queue.md): every capture's photos and print wait
   * there until the server confirms them, across restarts and power cuts. Without it the queue
   * lives in memory only (tests; a booth that restarts then loses what was waiting).
   */
  queueDir?: string;
  /** Waiting items beyond which the booth's status says the queue is over its limit (200). */
  queueWarnItems?: number;
  /**
   * Called once a release is installed and `current.json` names it. The running process keeps
   * the old code until its supervisor restarts it (README, "Software updates").
   */
  onUpdated?: (release: InstalledRelease) => void;
  log?: AgentLog;
  /** Clock for command expiry (tests pin it). */
  now?: () => Date;
  /** Wait between reconnection attempts after the broker is lost (default 2 s). */
  reconnectPeriodMs?: number;
  /** How long one connection attempt may take (default 10 s). */
  connectTimeoutMs?: number;
  /**
   * The server's base URL (http://host:port), against which relative upload and foreground URLs
   * are resolved (the local object store hands out relative ones unless PUBLIC_URL is set).
   */
  serverUrl?: string;
  /** Session timings; tests shorten them. */
  timers?: Partial<AgentTimers>;
}

export interface AgentTimers extends TransferTimers {
  /** The visitor's countdown before each photo (DESIGN 2b: 10 s). */
  countdownMs: number;
  /** Downloading a release file, body included. */
  releaseDownloadMs: number;
  /** The delivery worker's first pause after a failure (2 s), doubled after each one… */
  deliveryRetryMs: number;
  /** …up to this (5 min). */
  deliveryRetryMaxMs: number;
  /** The shortest time between two status reports about the delivery queue (5 s). */
  queueReportMs: number;
  /**
   * How often the health is looked at between statuses (printer, disk, camera): a change is
   * reported then (a printer out of paper while nobody uses the booth), and the health at least
   * every `healthReportMs` so the console's "Reported … ago" stays fresh.
   */
  healthWatchMs: number;
  healthReportMs: number;
}

const DEFAULT_TIMERS: AgentTimers = {
  countdownMs: 10_000,
  httpTimeoutMs: 30_000,
  releaseDownloadMs: 15 * 60_000,
  deliveryRetryMs: DEFAULT_DELIVERY_RETRY.firstMs,
  deliveryRetryMaxMs: DEFAULT_DELIVERY_RETRY.maxMs,
  queueReportMs: 5000,
  healthWatchMs: 30_000,
  healthReportMs: 5 * 60_000,
};

/** BOOTH_QUEUE_WARN_ITEMS' default. */
export const QUEUE_WARN_ITEMS = 200;

/**
 * The program inside a booth, put together from its parts:
 * - `connection.ts`: the MQTT login, last will, subscriptions and reconnection;
 * - `command-intake.ts`: commands checked, duplicates and expired ones dropped;
 * - `capture-session.ts`: `capture` (countdown, photos, composition, print, into the queue);
 * - `delivery/`: the on-disk delivery queue and the worker that uploads and confirms it in the
 *   background, resuming after a restart (`recover.ts` finishes interrupted sessions);
 * - `software-update.ts`: `update` (download, verify, install; `updater.ts`);
 * - `transfers.ts`: HTTP downloads, uploads, confirmations and fresh upload links;
 * - `health.ts`: camera, printer, disk, queue and last delivery, sent with every status;
 * - `report-outbox.ts`: the device's error log, queued while the broker is away;
 * - `settings.ts`: restocks from the retained settings; `status.ts`: the status and the one
 *   job slot; `booth-state.ts`: what is kept across restarts.
 * `ping` is answered here with the current status.
 */
export class BoothAgent {
  readonly thingName: string;
  readonly camera: Camera;
  readonly printer: Printer;
  private readonly log: AgentLog;
  private readonly store: BoothStateStore;
  private readonly connection: BoothConnection;
  private readonly board: StatusBoard;
  private readonly outbox: ReportOutbox;
  private readonly intake: CommandIntake;
  private readonly queue: DeliveryQueue;
  private readonly worker: DeliveryWorker;
  private readonly health: BoothHealth;
  private readonly timers: AgentTimers;
  private healthTimer: NodeJS.Timeout | undefined;

  constructor(options: BoothAgentOptions) {
    const { thingName, camera, printer } = options;
    this.thingName = thingName;
    this.camera = camera;
    this.printer = printer;
    const log = options.log ?? consoleLog();
    const now = options.now ?? (() => new Date());
    const timers: AgentTimers = { ...DEFAULT_TIMERS, ...options.timers };
    this.timers = timers;
    this.log = log;
    this.store = new BoothStateStore({
      printsLeft: options.printsLeft ?? PRINTS_LEFT_MAX,
      buildVersion: options.softwareVersion,
      stateFile: options.stateFile,
      releasesDir: options.releasesDir,
      log,
    });
    const { mqttUrl, secret, serverUrl, reconnectPeriodMs, connectTimeoutMs } = options;
    const login = {
      mqttUrl,
      thingName,
      secret,
      reconnectPeriodMs,
      connectTimeoutMs,
      boot: () => this.store.boot,
      log,
    };
    this.connection = new BoothConnection(login, {
      online: (channel) => this.online(channel),
      command: (payload, channel) => this.intake.receive(payload, channel),
      settings: (payload) => this.applySettings(payload),
    });
    const link = this.connection;
    const store = this.store;
    const queue = new DeliveryQueue({
      folder: options.queueDir ? new DiskQueueFolder(options.queueDir) : new MemoryQueueFolder(),
      warnItems: options.queueWarnItems ?? QUEUE_WARN_ITEMS,
      log,
    });
    this.queue = queue;
    this.health = new BoothHealth({
      camera,
      printer,
      queue,
      diskDir:
        options.queueDir ?? (options.stateFile ? path.dirname(options.stateFile) : undefined),
      lastDeliveryAt: () => store.state.last_delivery_at,
      printerPollMs: timers.healthWatchMs,
      now,
      log,
    });
    this.board = new StatusBoard({
      link,
      store,
      health: this.health,
      reportSoonMs: timers.queueReportMs,
      now,
      log,
    });
    this.outbox = new ReportOutbox({ link, store, now, log });
    const transfers = new Transfers({ serverUrl, thingName, secret, timers });
    this.worker = new DeliveryWorker({
      queue,
      transfers,
      encoder: options.encoder ?? new FfmpegMotionEncoder(),
      log,
      now,
      retry: { firstMs: timers.deliveryRetryMs, maxMs: timers.deliveryRetryMaxMs },
      onDelivered: (_item, at) => {
        store.state.last_delivery_at = utcStamp(at);
        void store.persist();
      },
      onRejected: (item, error, delivered) => {
        this.outbox.report(
          undeliverableMessage(item.captureId, item.upload.media_id, error, delivered),
          { captureId: item.captureId, delivered },
        );
      },
    });
    let overLimit = false;
    queue.onChange((change) => {
      if (change === 'added') this.worker.kick();
      const { over_limit: over = false } = queue.stats();
      // Every delivery is not worth a status; a new capture, an empty queue or the limit are.
      if (change !== 'delivered' || over !== overLimit) this.board.reportSoon();
      if (over && !overLimit) {
        log.warn({ items: queue.stats().items }, 'the delivery queue is over its warning limit');
      }
      overLimit = over;
    });
    const common = { board: this.board, store, outbox: this.outbox, now, log };
    const capture = new CaptureSession({
      ...common,
      thingName,
      camera,
      printer,
      countdownMs: timers.countdownMs,
      transfers,
      queue,
      onCameraResult: (error) => this.health.cameraResult(error),
    });
    const update = new SoftwareUpdate({
      ...common,
      releasesDir: options.releasesDir,
      releaseDownloadMs: timers.releaseDownloadMs,
      onUpdated: options.onUpdated,
      resolveUrl: (url) => transfers.resolveUrl(url),
    });
    this.intake = new CommandIntake({
      thingName,
      now,
      log,
      handlers: {
        ping: (_command, reply) => this.ping(reply),
        capture: (command, reply) => capture.handle(command, reply),
        update: (command, reply) => update.handle(command, reply),
      },
    });
  }

  get status(): BoothStatus {
    return this.board.current;
  }

  get printsLeft(): number {
    return this.store.state.prints_left;
  }

  /** The newest settings revision applied (0: none yet). */
  get settingsRevision(): number {
    return this.store.state.settings_revision;
  }

  /** The version reported to the server: the installed release's, else this build's. */
  get softwareVersion(): string {
    return this.store.state.software_version;
  }

  /** Error reports not yet acknowledged by the broker. */
  get pendingReports(): readonly DeviceErrorReport[] {
    return this.outbox.pending;
  }

  get connected(): boolean {
    return this.connection.connected;
  }

  /** Resolves when the capture session or update in progress (if any) has ended. */
  async idle(): Promise<void> {
    await this.board.idle();
  }

  /** Resolves once nothing waits in the delivery queue that could be delivered now. */
  async delivered(): Promise<void> {
    await this.worker.idle();
  }

  /** The delivery queue's size and oldest item, as the status reports them. */
  get deliveryQueue() {
    return this.queue.stats();
  }

  /**
   * Loads the state and the delivery queue (finishing sessions a restart interrupted), starts
   * delivering, connects and resolves once the booth is subscribed to its commands and has
   * reported `idle`. A broker that is down is retried; a refused login rejects.
   */
  async start(): Promise<void> {
    await this.connection.start(async () => {
      await this.store.load();
      const manifests = await this.queue.load();
      await recoverInterrupted(manifests, {
        queue: this.queue,
        outbox: this.outbox,
        log: this.log,
      });
      this.worker.start();
    });
    this.watchHealth();
  }

  /**
   * Between statuses, every `healthWatchMs`: refreshes the health and reports the status when
   * what the console shows changed (camera, printer, disk running low, the queue's limit), or
   * when the last report is `healthReportMs` old. Stopped by `stop()`.
   */
  private watchHealth(): void {
    if (this.healthTimer) return;
    let reported = healthSignature(this.health.snapshot());
    let reportedAt = performance.now();
    this.healthTimer = setInterval(() => {
      void (async () => {
        if (!this.connection.connected || this.board.busy) return;
        await this.health.refresh();
        const now = healthSignature(this.health.snapshot());
        const stale = performance.now() - reportedAt >= this.timers.healthReportMs;
        if (now === reported && !stale) return;
        reported = now;
        reportedAt = performance.now();
        await this.board.publishQuietly();
      })().catch((error: unknown) => this.log.warn({ err: error }, 'health check failed'));
    }, this.timers.healthWatchMs);
    this.healthTimer.unref();
  }

  /**
   * Adds an entry to the device's error log; kept (in the state file too) until the broker
   * acknowledges it (report-outbox.ts).
   */
  reportError(message: string, session?: ReportedSession): DeviceErrorReport {
    return this.outbox.report(message, session);
  }

  /**
   * Reports `offline` (retained; a clean DISCONNECT does not fire the last will) and
   * disconnects. Safe to call more than once.
   */
  async stop(timeoutMs = 3000): Promise<void> {
    const active = this.connection.started;
    if (active) {
      this.board.offline();
      if (this.board.busy)
        this.log.warn({ thingName: this.thingName }, 'stopping during a session');
    }
    clearInterval(this.healthTimer);
    this.healthTimer = undefined;
    try {
      await this.worker.stop();
      await this.connection.stop(timeoutMs, () => this.board.message());
    } finally {
      // The last state write lands before the process (or the next agent on this file) goes on.
      if (active) await this.store.settled();
    }
  }

  /**
   * On every (re)connection, once subscribed: report the current status, then send the error
   * reports kept meanwhile.
   */
  private async online(channel: BoothChannel): Promise<void> {
    this.board.online();
    // The broker is back, so the network probably is: deliveries stop waiting out their pause.
    this.worker.networkBack();
    await withTimeout(this.health.refresh(), 2000).catch(() => undefined);
    await channel.publishStatus(this.board.message());
    const printsLeft = this.store.state.prints_left;
    if (printsLeft < PRINTS_LEFT_WARNING) {
      this.log.warn({ thingName: this.thingName, printsLeft }, 'the paper roll is nearly empty');
    }
    void this.outbox.flush();
  }

  private async applySettings(payload: Buffer): Promise<void> {
    const applied = applySettings(this.store.state, payload, {
      thingName: this.thingName,
      log: this.log,
    });
    if (!applied) return;
    await this.store.persist();
    await this.board.publishQuietly();
  }

  private async ping(reply: Reply): Promise<void> {
    const { state } = this.store;
    await reply({
      status: this.board.current,
      software_version: state.software_version,
      prints_left: state.prints_left,
      // As in the status: whoever stores prints_left can tell a pre-restock count.
      settings_revision: state.settings_revision,
    });
  }
}
