export interface PrintJob {
  /** The composed print (JPEG). */
  image: Buffer;
  copies: number;
  /** 2 when the template is cut into two strips (see printLayout). */
  strips: 1 | 2;
  /** Shown in the printer's queue; also part of the spool file name. */
  jobName: string;
}

export interface Printer {
  print(job: PrintJob): Promise<{ jobId: string }>;
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
