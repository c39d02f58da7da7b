import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assertValidJob, type PrintJob, type Printer, type PrinterStatus } from './printer.js';

/** Keeps job names usable as file names on any file system. */
export function safeFileName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '');
  return safe.slice(0, 80) || 'job';
}

/** Writes `data` under its final name only once it is complete, so a spool reader never sees half a file. */
async function writeAtomically(file: string, data: Buffer | string): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, data);
  await rename(temp, file);
}

/**
 * The default printer of a booth without hardware (DESIGN 1): each job becomes
 * `<timestamp>-<jobName>.jpg` in the spool folder, with a `.json` ticket beside it
 * (copies, strips) so tests and the demo can see what would have been printed.
 */
export class SimulatedPrinter implements Printer {
  private lastStamp = 0;

  constructor(private readonly spoolDir: string) {}

  /** Milliseconds, strictly increasing within this printer, so two jobs never share a file name. */
  private stamp(): string {
    this.lastStamp = Math.max(Date.now(), this.lastStamp + 1);
    return new Date(this.lastStamp).toISOString().replace(/[:.]/g, '-');
  }

  async print(job: PrintJob): Promise<{ jobId: string }> {
    assertValidJob(job);
    await mkdir(this.spoolDir, { recursive: true });
    const jobId = `${this.stamp()}-${safeFileName(job.jobName)}`;
    const ticket = {
      job_id: jobId,
      job_name: job.jobName,
      copies: job.copies,
      strips: job.strips,
      bytes: job.image.length,
    };
    // Ticket first: whoever watches for the .jpg finds its ticket already there.
    await writeAtomically(
      path.join(this.spoolDir, `${jobId}.json`),
      JSON.stringify(ticket, null, 2),
    );
    await writeAtomically(path.join(this.spoolDir, `${jobId}.jpg`), job.image);
    return { jobId };
  }

  /** A spool folder never runs out of paper. */
  status(): Promise<PrinterStatus> {
    return Promise.resolve({ state: 'idle', message: null });
  }
}
