import { type DeviceErrorReport, PRINTS_LEFT_MAX } from '@flashbooth/contracts';
import path from 'node:path';
import {
  type AgentTimers,
  type BoothAgentOptions,
  DEFAULT_TIMERS,
  QUEUE_WARN_ITEMS,
} from './agent-options.js';
import { BoothStateStore } from './booth-state.js';
import type { Camera } from './camera/camera.js';
import { CaptureSession } from './capture-session.js';
import { CommandIntake } from './command-intake.js';
import { BoothConnection } from './connection.js';
import {
  answerPing,
  type ConnectionHandlerParts,
  whenOnline,
  whenSettings,
} from './connection-handlers.js';
import { DeliveryQueue } from './delivery/delivery-queue.js';
import type { DeliveryWorker } from './delivery/delivery-worker.js';
import { DiskQueueFolder, MemoryQueueFolder } from './delivery/queue-folder.js';
import { recoverInterrupted } from './delivery/recover.js';
import { wireDelivery } from './delivery-wiring.js';
import { BoothHealth } from './health.js';
import { HealthWatch } from './health-watch.js';
import { type AgentLog, consoleLog } from './log.js';
import { FfmpegMotionEncoder } from './motion/encoder.js';
import type { Printer } from './printer/printer.js';
import { ReportOutbox, type ReportedSession } from './report-outbox.js';
import { SoftwareUpdate } from './software-update.js';
import { type BoothStatus, StatusBoard } from './status.js';
import { Transfers } from './transfers.js';

export {
  type AgentTimers,
  type BoothAgentOptions,
  DEFAULT_TIMERS,
  QUEUE_WARN_ITEMS,
} from './agent-options.js';

/**
 * The program inside a booth, put together from its parts:
 * - `connection.ts`: the MQTT login, last will, subscriptions and reconnection;
 * - `command-intake.ts`: commands checked, duplicates and expired ones dropped;
 * - `capture-session.ts`: `capture` (countdown, photos, composition, print, into the queue);
 * - `delivery/`: the on-disk delivery queue and the worker that uploads and confirms it in the
 *   background, resuming after a restart (`recover.ts` finishes interrupted sessions);
 * - `software-update.ts`: `update` (download, verify, install; `updater.ts`);
 * - `transfers.ts`: HTTP downloads, uploads, confirmations and fresh upload links;
 * - `health.ts`: camera, printer, disk, queue and last delivery, sent with every status, and
 *   `health-watch.ts`, which reports a change between statuses;
 * - `delivery-wiring.ts`: the delivery worker and what the queue's changes cause;
 * - `agent-options.ts`: the options and timers;
 * - `report-outbox.ts`: the device's error log, queued while the broker is away;
 * - `settings.ts`: restocks from the retained settings; `status.ts`: the status and the one
 *   job slot; `booth-state.ts`: what is kept across restarts.
 * - `connection-handlers.ts`: what a (re)connection, the settings and `ping` do.
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
  private readonly healthWatch: HealthWatch;

  constructor(options: BoothAgentOptions) {
    const { thingName, camera, printer } = options;
    this.thingName = thingName;
    this.camera = camera;
    this.printer = printer;
    const log = options.log ?? consoleLog();
    const now = options.now ?? (() => new Date());
    const timers: AgentTimers = { ...DEFAULT_TIMERS, ...options.timers };
    this.log = log;
    this.store = new BoothStateStore({
      printsLeft: options.printsLeft ?? PRINTS_LEFT_MAX,
      buildVersion: options.softwareVersion,
      stateFile: options.stateFile,
      releasesDir: options.releasesDir,
      log,
    });
    const { mqttUrl, secret, serverUrl, reconnectPeriodMs, connectTimeoutMs } = options;
    const boot = () => this.store.boot;
    const login = { mqttUrl, thingName, secret, reconnectPeriodMs, connectTimeoutMs, boot, log };
    this.connection = new BoothConnection(login, {
      online: (channel) => whenOnline(this.parts, channel),
      command: (payload, channel) => this.intake.receive(payload, channel),
      settings: (payload) => whenSettings(this.parts, payload),
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
    this.worker = wireDelivery({
      queue,
      transfers,
      encoder: options.encoder ?? new FfmpegMotionEncoder(),
      store,
      outbox: this.outbox,
      board: this.board,
      retry: { firstMs: timers.deliveryRetryMs, maxMs: timers.deliveryRetryMaxMs },
      now,
      log,
    });
    this.healthWatch = new HealthWatch({
      health: this.health,
      board: this.board,
      connected: () => this.connection.connected,
      watchMs: timers.healthWatchMs,
      reportMs: timers.healthReportMs,
      log,
    });
    const common = { board: this.board, store, outbox: this.outbox, now, log };
    const capture = new CaptureSession({
      ...common,
      thingName,
      camera,
      printer,
      ...(options.compose ? { compose: options.compose } : {}),
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
        ping: (_command, reply) => answerPing(this.parts, reply),
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

  /** Status reports the broker took since the start (health reports included). */
  get statusReportsSent(): number {
    return this.board.reportsSent;
  }

  /**
   * Load tests only (fleet.ts, BOOTH_FLEET_STATUS_CHANGE_MS): the status change a busy booth
   * makes, without a session: `idle` → `processing`, and back to `idle` with a print taken from
   * the roll (not saved). Reported as any status is; resolves with what was reported, or
   * undefined while a job holds the booth or it is not connected.
   */
  async simulateStatusChange(): Promise<{ status: BoothStatus; printsLeft: number } | undefined> {
    if (this.board.busy || !this.connection.connected) return undefined;
    const current = this.board.current;
    if (current !== 'idle' && current !== 'processing') return undefined;
    if (current === 'processing') {
      this.store.state.prints_left = Math.max(0, this.store.state.prints_left - 1);
    }
    const status = current === 'idle' ? 'processing' : 'idle';
    await this.board.set(status);
    return { status, printsLeft: this.store.state.prints_left };
  }

  /**
   * Load tests only (fleet.ts): holds the status reports (StatusBoard.hold) until
   * `releaseReports`; resolves once those on their way are counted in `statusReportsSent`.
   */
  holdReports(): Promise<void> {
    return this.board.hold();
  }

  releaseReports(): void {
    this.board.release();
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
    this.healthWatch.start();
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
    this.healthWatch.stop();
    try {
      await this.worker.stop();
      await this.connection.stop(timeoutMs, () => this.board.message());
    } finally {
      // The last state write lands before the process (or the next agent on this file) goes on.
      if (active) await this.store.settled();
    }
  }

  /** The parts the connection's and the intake's handlers use (connection-handlers.ts). */
  private get parts(): ConnectionHandlerParts {
    const { thingName, store, board, health, worker, outbox, log } = this;
    return { thingName, store, board, health, worker, outbox, log };
  }
}
