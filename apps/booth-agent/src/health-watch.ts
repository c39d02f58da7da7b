// Between statuses, the booth's health is looked at on a timer (agent.ts starts and stops it).
import { type BoothHealth, healthSignature } from './health.js';
import type { AgentLog } from './log.js';
import type { StatusBoard } from './status.js';

export interface HealthWatchOptions {
  health: Pick<BoothHealth, 'snapshot' | 'refresh'>;
  board: Pick<StatusBoard, 'busy' | 'publishQuietly'>;
  /** Whether the broker is there: nothing is refreshed or reported without it. */
  connected: () => boolean;
  /** How often the health is looked at (AgentTimers.healthWatchMs). */
  watchMs: number;
  /** The health is reported at least this often (AgentTimers.healthReportMs). */
  reportMs: number;
  log: AgentLog;
}

/**
 * Every `watchMs`, while connected and between jobs: refreshes the health and reports the status
 * when what the console shows changed (camera, printer, disk running low, the queue's limit), or
 * when the last report is `reportMs` old, so a printer out of paper while nobody uses the booth
 * reaches Booth Health and its "Reported … ago" stays fresh.
 */
export class HealthWatch {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: HealthWatchOptions) {}

  start(): void {
    if (this.timer) return;
    const { health, board, connected, watchMs, reportMs, log } = this.options;
    let reported = healthSignature(health.snapshot());
    let reportedAt = performance.now();
    this.timer = setInterval(() => {
      void (async () => {
        if (!connected() || board.busy) return;
        await health.refresh();
        const now = healthSignature(health.snapshot());
        const stale = performance.now() - reportedAt >= reportMs;
        if (now === reported && !stale) return;
        reported = now;
        reportedAt = performance.now();
        await board.publishQuietly();
      })().catch((error: unknown) => log.warn({ err: error }, 'health check failed'));
    }, watchMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
