import type { PrinterState } from '@flashbooth/contracts';

export interface PrintJob {
  /** The composed print (JPEG). */
  image: Buffer;
  copies: number;
  /** 2 when the template is cut into two strips (see printLayout). */
  strips: 1 | 2;
  /** Shown in the printer's queue; also part of the spool file name. */
  jobName: string;
}

/** The print queue as the booth's health reports it (DeviceHealth.printer). */
export interface PrinterStatus {
  state: PrinterState;
  /** What is wrong and what to do, in words (absent or null when all is well). */
  message?: string | null;
}

export interface Printer {
  print(job: PrintJob): Promise<{ jobId: string }>;
  /** The queue's state; never rejects (a printer that cannot tell says `unknown`). Optional: a driver may not know. */
  status?(): Promise<PrinterStatus>;
}

/** Copies the printer accepts in one job; more than a roll section is a caller bug. */
export const MAX_COPIES = 99;

export function assertValidJob(job: PrintJob): void {
  if (!Number.isInteger(job.copies) || job.copies < 1 || job.copies > MAX_COPIES) {
    throw new Error(
      `Print job "${job.jobName}": copies must be 1 to ${MAX_COPIES}, got ${job.copies}`,
    );
  }
  if (job.image.length === 0) throw new Error(`Print job "${job.jobName}": the image is empty`);
}
