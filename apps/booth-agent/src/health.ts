import { statfs } from 'node:fs/promises';
import { type DeviceHealth, PRINTER_STATES, type PrinterState } from '@flashbooth/contracts';
import { isDiskLow } from '@flashbooth/contracts/rules';
import type { Camera } from './camera/camera.js';
import type { DeliveryQueue } from './delivery/delivery-queue.js';
import type { AgentLog } from './log.js';
import type { Printer } from './printer/printer.js';
import { describeError } from './reports.js';
import { utcStamp, withTimeout } from './time.js';

/** The printer's queue is asked at most this often (lpstat is a process per question). */
export const PRINTER_POLL_MS = 30_000;
/** An lpstat that hangs is reported `unknown` after this. */
const PRINTER_TIMEOUT_MS = 5000;
/** Disk space is read at most this often. */
const DISK_POLL_MS = 5000;

export interface BoothHealthOptions {
  camera: Camera;
  printer: Printer;
  queue: DeliveryQueue;
  /** A folder on the disk the queue is written to (its free space is reported). */
  diskDir: string | undefined;
  /** When the server last confirmed an upload (UTC, from the state file). */
  lastDeliveryAt: () => string | null | undefined;
  /** How often the printer is asked at most (default PRINTER_POLL_MS). */
  printerPollMs?: number;
  now: () => Date;
  log: AgentLog;
}

/**
 * The booth's health, sent with every status (DeviceHealthSchema): the camera's last outcome,
 * the printer queue's state (polled at most every 30 s), free disk space, the delivery queue and
 * the last delivery. `snapshot()` never waits: `refresh()` brings the polled parts up to date
 * in the background.
 */
export class BoothHealth {
  private camera: NonNullable<DeviceHealth['camera']>;
  private printer: NonNullable<DeviceHealth['printer']> = { state: 'unknown', message: null };
  private disk: DeviceHealth['disk'];
  private printerAt = -Infinity;
  private diskAt = -Infinity;
  private refreshing: Promise<void> | undefined;

  constructor(private readonly options: BoothHealthOptions) {
    this.camera = {
      driver: cameraDriver(options.camera),
      ok: true,
      message: null,
      checked_at: null,
    };
  }

  /** A photo was taken (`error` undefined) or the camera failed. */
  cameraResult(error: unknown): void {
    const checked_at = utcStamp(this.options.now());
    this.camera =
      error === undefined
        ? { ...this.camera, ok: true, message: null, checked_at }
        : { ...this.camera, ok: false, message: describeError(error), checked_at };
  }

  snapshot(): DeviceHealth {
    return {
      camera: { ...this.camera },
      printer: { ...this.printer },
      ...(this.disk ? { disk: { ...this.disk } } : {}),
      queue: this.options.queue.stats(),
      last_delivery_at: this.options.lastDeliveryAt() ?? null,
    };
  }

  /** Polls the printer (at most every 30 s) and the disk; never rejects. */
  refresh(): Promise<void> {
    this.refreshing ??= this.poll().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async poll(): Promise<void> {
    const at = performance.now();
    const { diskDir, log } = this.options;
    if (diskDir && at - this.diskAt >= DISK_POLL_MS) {
      this.diskAt = at;
      try {
        const stats = await statfs(diskDir);
        this.disk = {
          free_bytes: Math.max(0, Number(stats.bavail) * Number(stats.bsize)),
          total_bytes: Math.max(0, Number(stats.blocks) * Number(stats.bsize)),
        };
      } catch (error) {
        log.debug({ err: error, dir: diskDir }, 'cannot read the disk space');
      }
    }
    if (at - this.printerAt >= (this.options.printerPollMs ?? PRINTER_POLL_MS)) {
      this.printerAt = at;
      this.printer = await printerHealth(this.options.printer);
    }
  }
}

/** The camera's driver name: its own, else its class's (SimulatedCamera: simulated). */
function cameraDriver(camera: Camera): string {
  if (camera.driver) return camera.driver.slice(0, 50);
  const name = camera.constructor?.name ?? '';
  const driver = name.replace(/Camera$/, '').toLowerCase();
  return driver && driver !== 'object' ? driver.slice(0, 50) : 'custom';
}

const isPrinterState = (value: unknown): value is PrinterState =>
  typeof value === 'string' && (PRINTER_STATES as readonly string[]).includes(value);

/** The printer's own report (`status()`), bounded in time; `unknown` when it has none. */
async function printerHealth(printer: Printer): Promise<NonNullable<DeviceHealth['printer']>> {
  if (!printer.status) return { state: 'unknown', message: null };
  try {
    const answer = await withTimeout(printer.status(), PRINTER_TIMEOUT_MS);
    if (!isPrinterState(answer.state)) {
      return { state: 'unknown', message: 'The printer gave an answer the booth cannot read.' };
    }
    return { state: answer.state, message: answer.message ? answer.message.slice(0, 500) : null };
  } catch (error) {
    return {
      state: 'unknown',
      message: `The printer's state could not be read (${describeError(error)}).`.slice(0, 500),
    };
  }
}

/**
 * What of the health the console shows as a state (not the times or byte counts that change on
 * their own): a report goes out between statuses when this changes.
 */
export function healthSignature(health: DeviceHealth): string {
  const lowDisk = health.disk ? isDiskLow(health.disk) : null;
  return JSON.stringify([
    health.camera?.ok,
    health.camera?.message,
    health.printer?.state,
    health.printer?.message,
    lowDisk,
    health.queue?.items === 0,
    health.queue?.over_limit,
  ]);
}
