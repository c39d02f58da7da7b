import type { FastifyBaseLogger } from 'fastify';
import type { CaptureService } from './capture.service.js';

export interface CaptureSweepOptions {
  captures: Pick<CaptureService, 'sweepUndelivered'>;
  intervalMs: number;
  log: FastifyBaseLogger;
}

/**
 * Runs `CaptureService.sweepUndelivered` on an interval (DESIGN.md 2b step 4: a capture that
 * never delivers gives the entitlement back). Every server instance runs one; the sweep locks
 * each capture it closes, so instances never give one back twice. One run at a time per
 * instance; `stop()` waits for a run in progress so the database is not closed under it.
 */
export class CaptureSweep {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(private readonly options: CaptureSweepOptions) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.runOnce().catch((error: unknown) =>
        this.options.log.warn({ err: error }, 'capture sweep failed; retrying next interval'),
      );
    }, this.options.intervalMs);
    this.timer.unref();
  }

  /** One sweep now (or the one already running): how many captures were given back. */
  runOnce(): Promise<number> {
    if (this.running) return this.running;
    const run = this.options.captures.sweepUndelivered().then((released) => {
      if (released > 0) {
        this.options.log.info({ released }, 'capture sweep gave back undelivered captures');
      }
      return released;
    });
    this.running = run;
    const clear = () => {
      if (this.running === run) this.running = undefined;
    };
    run.then(clear, clear);
    return run;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }
}
