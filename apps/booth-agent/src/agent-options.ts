// The booth agent's options and timers (agent.ts puts the agent together from them).
import type { composePrint } from '@flashbooth/print-composition';
import type { Camera } from './camera/camera.js';
import { DEFAULT_DELIVERY_RETRY } from './delivery/delivery-worker.js';
import type { AgentLog } from './log.js';
import type { MotionEncoder } from './motion/encoder.js';
import type { Printer } from './printer/printer.js';
import type { TransferTimers } from './transfers.js';
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
   * Composes a capture's print from its photos (default: composePrint). Load tests' fleets
   * (fleet.ts, BOOTH_FLEET_REUSE_PRINT) pass one that composes once and hands out the same print.
   */
  compose?: typeof composePrint;
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

export const DEFAULT_TIMERS: AgentTimers = {
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
