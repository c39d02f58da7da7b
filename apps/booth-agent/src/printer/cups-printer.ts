import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import {
  CUPS_NOT_RUNNING,
  lpstatArgs,
  lpstatFailure,
  parseLpstat,
  printerStatusFromLpstat,
  schedulerArgs,
  schedulerRunning,
} from './lpstat.js';
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
  /**
   * The environment lp and lpstat run with (default this process's); CUPS_SERVER in it names
   * the scheduler (tests start their own).
   */
  env?: NodeJS.ProcessEnv;
}

const defaultMedia = (strips: 1 | 2): string => (strips === 2 ? 'w288h432-div2' : 'w288h432');

/** A print's long side, in inches: the booth prints 6×4 in (staff spec, section 9). */
export const PRINT_LONG_SIDE_IN = 6;

/** The dots per inch that make an image of this size 6 in on its long side (600 for 3600×2400). */
export function printDpi(width: number, height: number): number {
  const dpi = Math.round(Math.max(width, height) / PRINT_LONG_SIDE_IN);
  return Math.min(Math.max(dpi, 1), 0xffff);
}

/**
 * The JPEG with a JFIF header (APP0, `dpi` dots per inch) when its first segment after the start
 * of image is not an application segment. CUPS's image filters (imagetopdf, imagetoraster in
 * cups-filters) recognize a JPEG only by an APPn marker right after SOI and refuse one without
 * ("Unable to open image file for printing!"), which is what sharp writes when no metadata is
 * kept; the density (printDpi) also makes the print exactly 6×4 in.
 */
export function withJfifHeader(jpeg: Buffer, dpi: number): Buffer {
  const isJpeg = jpeg.length >= 4 && jpeg[0] === 0xff && jpeg[1] === 0xd8 && jpeg[2] === 0xff;
  if (!isJpeg || (jpeg[3]! >= 0xe0 && jpeg[3]! <= 0xef)) return jpeg;
  const app0 = Buffer.alloc(18);
  app0.writeUInt16BE(0xffe0, 0); // APP0
  app0.writeUInt16BE(16, 2); // its length, without the marker
  app0.write('JFIF\0', 4, 'latin1');
  app0.writeUInt16BE(0x0101, 9); // version 1.01
  app0.writeUInt8(1, 11); // density in dots per inch
  app0.writeUInt16BE(dpi, 12);
  app0.writeUInt16BE(dpi, 14);
  // No thumbnail: bytes 16 and 17 stay 0.
  return Buffer.concat([jpeg.subarray(0, 2), app0, jpeg.subarray(2)]);
}

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
      // What it printed before failing goes with the error (`lpstat -r` says "not running" there).
      reject(
        Object.assign(new Error(stderr.trim() || error.message, { cause: error }), { stdout }),
      );
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
  private readonly env: NodeJS.ProcessEnv | undefined;

  constructor(options: CupsPrinterOptions) {
    if (!PRINTER_NAME.test(options.printerName)) {
      throw new Error(`Invalid CUPS printer name "${options.printerName}"`);
    }
    this.printerName = options.printerName;
    this.lpPath = options.lpPath ?? 'lp';
    this.lpstatPath = options.lpstatPath ?? 'lpstat';
    this.media = options.media ?? defaultMedia;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.env = options.env;
  }

  async print(job: PrintJob): Promise<{ jobId: string }> {
    assertValidJob(job);
    const media = this.media(job.strips);
    if (!MEDIA_NAME.test(media)) throw new Error(`Invalid CUPS media name "${media}"`);

    const dir = await mkdtemp(path.join(os.tmpdir(), 'flashbooth-print-'));
    try {
      // An absolute path never starts with '-', so lp cannot take the file for an option.
      const file = path.join(dir, 'print.jpg');
      const { width = 0, height = 0 } = await sharp(job.image)
        .metadata()
        .catch(() => ({ width: 0, height: 0 }));
      await writeFile(file, withJfifHeader(job.image, printDpi(width, height)));
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
      let stdout: string;
      try {
        ({ stdout } = await runLp(this.lpPath, args, this.timeoutMs, this.env));
      } catch (error) {
        throw await this.explainLpFailure(error as Error);
      }
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
      const env = this.cEnv();
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
      return lpstatFailure((error as Error).message, queue, await this.schedulerRunning());
    }
  }

  private cEnv(): NodeJS.ProcessEnv {
    return { ...(this.env ?? process.env), LC_ALL: 'C', LANG: 'C' };
  }

  /** `lpstat -r`: true or false, undefined when it could not tell. */
  private async schedulerRunning(): Promise<boolean | undefined> {
    try {
      const { stdout } = await runLp(this.lpstatPath, schedulerArgs, 10_000, this.cEnv());
      return schedulerRunning(stdout);
    } catch (error) {
      // lpstat -r exits 1 when the scheduler is not running, saying so on stdout.
      const { stdout } = error as { stdout?: unknown };
      if (typeof stdout === 'string' && /not running/i.test(stdout)) return false;
      return undefined;
    }
  }

  /**
   * lp says "The printer or class does not exist" when no scheduler answers too: the error
   * says which it is, and what to do.
   */
  private async explainLpFailure(error: Error): Promise<Error> {
    if ((error.cause as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return error;
    if ((await this.schedulerRunning()) === false) {
      return new Error(CUPS_NOT_RUNNING, { cause: error });
    }
    if (/does not exist|Invalid destination|Unknown destination/i.test(error.message)) {
      return new Error(
        `CUPS has no print queue named ${this.printerName} (lp: ${error.message.replace(/^lp:\s*/, '')}): lpstat -p lists the queues; check BOOTH_PRINTER`,
        { cause: error },
      );
    }
    return error;
  }
}
