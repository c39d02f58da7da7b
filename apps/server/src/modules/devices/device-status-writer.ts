import { isDatabaseUnavailable } from '../../db/postgres-errors.js';
import type { DeviceReport, ReportedDevice } from './devices.repository.js';

/** One booth's status report, by thing name. */
export interface ThingReport {
  thingName: string;
  report: DeviceReport;
}

/** The write of one batch: the rows of the devices found (unknown thing names are absent). */
export type WriteReports = (reports: ThingReport[]) => Promise<ReportedDevice[]>;

/** Answered to a report that a newer one of the same booth replaced before it was written. */
export const SUPERSEDED = 'superseded';

interface Pending {
  report: DeviceReport;
  waiters: {
    resolve: (row: ReportedDevice | undefined | typeof SUPERSEDED) => void;
    reject: (error: unknown) => void;
  }[];
  /** When this report's write first failed (it is being retried). */
  failingSince?: number;
}

/** How a failed write is retried (the database restarting, a failover). */
export interface StatusWriteRetry {
  /** The pause after the first failure, doubled after each one up to `maxMs`. */
  firstMs: number;
  maxMs: number;
  /** A report still unwritten this long after its first failure is given up (rejected). */
  giveUpMs: number;
}

export const DEFAULT_STATUS_WRITE_RETRY: StatusWriteRetry = {
  firstMs: 250,
  maxMs: 4000,
  giveUpMs: 120_000,
};

/**
 * Writes booth status reports in batches (issue 11's benchmark: one UPDATE per report could not
 * keep up with 1,000 booths a second on PGlite's single connection). A report is written at once
 * when nothing is being written; reports that arrive meanwhile wait for that write to finish and
 * then go together in one statement, at most `maxBatch` at a time. Of several reports of one
 * booth waiting together only the newest is written (it carries the booth's whole state); the
 * older ones are answered `superseded`. So under light load nothing changes, and under heavy load
 * the database sees one statement per batch.
 *
 * A batch whose write fails because the database is away (PostgreSQL restarting) is written
 * again after a pause, each report unless a newer one of its booth came meanwhile, for up to
 * `giveUpMs`: a booth's last report (say, idle after an update) is otherwise lost until its next
 * one, minutes later, and the booth refuses visitors as "updating" all that time.
 */
export class DeviceStatusWriter {
  private readonly pending = new Map<string, Pending>();
  private flushing = false;

  constructor(
    private readonly write: WriteReports,
    private readonly maxBatch = 500,
    private readonly retry: StatusWriteRetry = DEFAULT_STATUS_WRITE_RETRY,
    private readonly now: () => number = Date.now,
  ) {}

  /** Resolves with the device's row once written, undefined for an unknown thing name. */
  record(
    thingName: string,
    report: DeviceReport,
  ): Promise<ReportedDevice | undefined | typeof SUPERSEDED> {
    return new Promise((resolve, reject) => {
      const entry = this.pending.get(thingName);
      if (entry) {
        for (const waiter of entry.waiters) waiter.resolve(SUPERSEDED);
        entry.report = report;
        entry.waiters = [{ resolve, reject }];
        entry.failingSince = undefined;
      } else {
        this.pending.set(thingName, { report, waiters: [{ resolve, reject }] });
      }
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    let failures = 0;
    try {
      while (this.pending.size > 0) {
        const batch: [string, Pending][] = [];
        for (const entry of this.pending) {
          batch.push(entry);
          this.pending.delete(entry[0]);
          if (batch.length >= this.maxBatch) break;
        }
        try {
          const rows = await this.write(
            batch.map(([thingName, entry]) => ({ thingName, report: entry.report })),
          );
          failures = 0;
          const byThing = new Map(rows.map((row) => [row.thingName, row]));
          for (const [thingName, entry] of batch) {
            for (const waiter of entry.waiters) waiter.resolve(byThing.get(thingName));
          }
        } catch (error) {
          failures += 1;
          if (this.requeue(batch, error)) await this.pause(failures);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /**
   * Puts a failed batch's reports back to be written again while the database is unavailable
   * (isDatabaseUnavailable; a newer report of the booth, come meanwhile, supersedes one; one
   * failing for `giveUpMs`, or with any other error, is rejected). True when any went back.
   */
  private requeue(batch: [string, Pending][], error: unknown): boolean {
    const at = this.now();
    // Only a database that is away is worth waiting for; any other failure would fail again.
    const transient = isDatabaseUnavailable(error);
    let again = false;
    for (const [thingName, entry] of batch) {
      if (this.pending.has(thingName)) {
        for (const waiter of entry.waiters) waiter.resolve(SUPERSEDED);
        continue;
      }
      entry.failingSince ??= at;
      if (!transient || at - entry.failingSince >= this.retry.giveUpMs) {
        for (const waiter of entry.waiters) waiter.reject(error);
        continue;
      }
      this.pending.set(thingName, entry);
      again = true;
    }
    return again;
  }

  private pause(failures: number): Promise<void> {
    const { firstMs, maxMs } = this.retry;
    const ms = Math.min(maxMs, firstMs * 2 ** Math.min(20, failures - 1));
    return new Promise((resolve) => setTimeout(resolve, ms).unref());
  }
}
