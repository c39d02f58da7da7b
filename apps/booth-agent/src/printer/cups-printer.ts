import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { lpstatArgs, lpstatFailure, parseLpstat, printerStatusFromLpstat } from './lpstat.js';
import { assertValidJob, type PrintJob, type Printer, type PrinterStatus } from './printer.js';

export interface CupsPrinterOptions {
  /** CUPS queue name (`lpstat -p` lists them). */
  printerName: string;
  lpPath?: string;
  /** `lpstat`, which reads the queue's state for the booth's health. */
  lpstatPath?: string;
  /**
   * CUPS media name per finish. The default suits 6×4 in dye-sublimation printers (DNP, Citizen),
   * whose drivers cut a print in two strips when given the "-div2" media.
   */
  media?: (strips: 1 | 2) => string;
  /** lp only hands the file to the CUPS daemon, so a slow answer means something is wrong. */
  timeoutMs?: number;
}

const defaultMedia = (strips: 1 | 2): string => (strips === 2 ? 'w288h432-div2' : 'w288h432');

// CUPS queue names exclude white space, '/', '\\', '#' and quotes; a leading '-' would read as an option.
const PRINTER_NAME = /^[^\s/\\#'"-][^\s/\\#'"]*$/;
// lp splits an -o value on spaces into several options, so media must be a single plain token.
const MEDIA_NAME = /^[A-Za-z0-9._-]+$/;

interface LpResult {
  stdout: string;
  stderr: string;
}

function runLp(
  lpPath: string,
  args: string[],
  timeout: number,
  env?: NodeJS.ProcessEnv,
): Promise<LpResult> {
  return new Promise((resolve, reject) => {
    // execFile passes each argument as is, with no shell: names cannot smuggle in commands.
    execFile(lpPath, args, { timeout, encoding: 'utf8', env }, (error, stdout, stderr) => {
      if (!error) return resolve({ stdout, stderr });
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return reject(
          new Error(`${path.basename(lpPath)} not found at "${lpPath}"`, { cause: error }),
        );
      }
      reject(new Error(stderr.trim() || error.message, { cause: error }));
    });
  });
}

/** Prints through CUPS with `lp`, the way a booth with a real printer does. */
export class CupsPrinter implements Printer {
  private readonly printerName: string;
  private readonly lpPath: string;
  private readonly lpstatPath: string;
  private readonly media: (strips: 1 | 2) => string;
  private readonly timeoutMs: number;

  constructor(options: CupsPrinterOptions) {
    if (!PRINTER_NAME.test(options.printerName)) {
      throw new Error(`Invalid CUPS printer name "${options.printerName}"`);
    }
    this.printerName = options.printerName;
    this.lpPath = options.lpPath ?? 'lp';
    this.lpstatPath = options.lpstatPath ?? 'lpstat';
    this.media = options.media ?? defaultMedia;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  async print(job: PrintJob): Promise<{ jobId: string }> {
    assertValidJob(job);
    const media = this.media(job.strips);
    if (!MEDIA_NAME.test(media)) throw new Error(`Invalid CUPS media name "${media}"`);

    const dir = await mkdtemp(path.join(os.tmpdir(), 'flashbooth-print-'));
    try {
      // An absolute path never starts with '-', so lp cannot take the file for an option.
      const file = path.join(dir, 'print.jpg');
      await writeFile(file, job.image);
      const args = [
        '-d',
        this.printerName,
        '-n',
        String(job.copies),
        '-t',
        job.jobName,
        '-o',
        `media=${media}`,
        file,
      ];
      const { stdout } = await runLp(this.lpPath, args, this.timeoutMs);
      // "request id is Booth-123 (1 file(s))"
      const match = /request id is (\S+)/.exec(stdout);
      if (!match?.[1]) throw new Error(`Unexpected answer from lp: ${stdout.trim() || '(none)'}`);
      return { jobId: match[1] };
    } finally {
      // lp has copied the file into the CUPS spool by the time it exits.
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** The queue's state from `lpstat` (CUPS): idle, printing, paper or ink out, stopped. */
  async status(): Promise<PrinterStatus> {
    const queue = this.printerName;
    try {
      // lpstat's sentences are translated; the parser reads the C locale's.
      const env = { ...process.env, LC_ALL: 'C', LANG: 'C' };
      const { stdout } = await runLp(this.lpstatPath, lpstatArgs(queue), 10_000, env);
      return printerStatusFromLpstat(parseLpstat(stdout, queue), queue);
    } catch (error) {
      const cause = (error as Error).cause as NodeJS.ErrnoException | undefined;
      if (cause?.code === 'ENOENT') {
        return {
          state: 'unknown',
          message: 'lpstat is not installed: sudo apt-get install cups-client',
        };
      }
      if ((cause as { killed?: boolean } | undefined)?.killed) {
        return {
          state: 'unknown',
          message: 'CUPS did not answer within 10 s: restart it (sudo systemctl restart cups)',
        };
      }
      return lpstatFailure((error as Error).message, queue);
    }
  }
}
