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
}

/**
 * Writes booth status reports in batches (issue 11's benchmark: one UPDATE per report could not
 * keep up with 1,000 booths a second on PGlite's single connection). A report is written at once
 * when nothing is being written; reports that arrive meanwhile wait for that write to finish and
 * then go together in one statement, at most `maxBatch` at a time. Of several reports of one
 * booth waiting together only the newest is written (it carries the booth's whole state); the
 * older ones are answered `superseded`. So under light load nothing changes, and under heavy load
 * the database sees one statement per batch.
 */
export class DeviceStatusWriter {
  private readonly pending = new Map<string, Pending>();
  private flushing = false;

  constructor(
    private readonly write: WriteReports,
    private readonly maxBatch = 500,
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
      } else {
        this.pending.set(thingName, { report, waiters: [{ resolve, reject }] });
      }
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
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
          const byThing = new Map(rows.map((row) => [row.thingName, row]));
          for (const [thingName, entry] of batch) {
            for (const waiter of entry.waiters) waiter.resolve(byThing.get(thingName));
          }
        } catch (error) {
          for (const [, entry] of batch) for (const waiter of entry.waiters) waiter.reject(error);
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}
