import { readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { type Camera, FRAME_PATTERN, type MotionRecording, type MotionRequest } from './camera.js';
import { checkJpeg } from './check-jpeg.js';
import { listFrames, recordWithStills } from './motion-frames.js';
import { ProgramError, lastLines, runProgram, seconds, withScratchFolder } from './run-program.js';

export interface Gphoto2CameraOptions {
  /** gphoto2's --port, e.g. usb:001,004 (`gphoto2 --auto-detect` lists them); the first camera found when absent. */
  port?: string;
  /** gphoto2's --camera, the model name exactly as `gphoto2 --auto-detect` prints it. */
  model?: string;
  /** One shot: autofocus, exposure and the download of a full-size JPEG. */
  timeoutMs?: number;
  /** The least a photo may measure on its short side (default 1000 px: a 6×4 print slot). */
  minShortSide?: number;
  /** The program to run (tests put a fake one first on PATH instead). */
  command?: string;
  /** ffmpeg, which splits a live-view movie into frames. */
  ffmpegCommand?: string;
}

/** What went wrong, as gphoto2 tells it; `busy` failures are retried once after a USB reset. */
export type Gphoto2Failure =
  'not_found' | 'busy' | 'focus' | 'card_full' | 'no_card' | 'timeout' | 'other';

// The texts are libgphoto2's own (gphoto2-result.c, the PTP driver): gphoto2 prints them with
// LANG=C, which the driver sets.
const PATTERNS: [Gphoto2Failure, RegExp][] = [
  [
    'not_found',
    /Could not detect any camera|Unknown model|\(-105\b|Could not find the requested device|\(-52\b|No camera found/i,
  ],
  ['focus', /no focus|out of focus|focus(ing)? failed|autofocus|\bAF\b.*fail/i],
  ['card_full', /Store Full|Not enough space|\(-115\b|card (is )?full|no space/i],
  ['no_card', /Store Not Available|No memory card|Card not present/i],
  [
    'busy',
    /Could not claim the USB device|\(-53\b|Device or resource busy|Device Busy|I\/O in progress|\(-110\b|Could not lock the device|\(-60\b|I\/O problem|\(-7\b|Timeout reading from or writing to the port|\(-10\b|PTP I\/O Error|Error \(-3[1-7]\b/i,
  ],
];

/** gphoto2's words for a camera that has no live view to record. */
const NO_LIVE_VIEW = /not supported|Unsupported operation|\(-6\b|does not support/i;

/** Reads gphoto2's complaint; exported for the tests and the self-test. */
export function classifyGphoto2Error(output: string): Gphoto2Failure {
  for (const [failure, pattern] of PATTERNS) if (pattern.test(output)) return failure;
  return 'other';
}

/** The sentence the device's error log shows: what happened and what to do at the booth. */
export function gphoto2Advice(failure: Gphoto2Failure, port: string | undefined): string {
  const where = port ? ` on port ${port}` : '';
  switch (failure) {
    case 'not_found':
      return (
        `No camera found${where}: check that the camera is switched on, plugged in by USB and ` +
        'in PC/PTP mode (`gphoto2 --auto-detect` should list it)'
      );
    case 'busy':
      return (
        `The camera${where} is busy or held by another program, even after a USB reset: close ` +
        'other photo programs (`gio mount -s gphoto2` on a desktop) or switch the camera off and on'
      );
    case 'focus':
      return (
        'The camera could not focus: make sure there is light and a subject in front of the lens, ' +
        'or switch the lens to manual focus'
      );
    case 'card_full':
      return "The camera's memory card is full: empty it or insert another card";
    case 'no_card':
      return 'The camera has no usable memory card: insert one, or set its capture target to internal memory';
    case 'timeout':
      return 'The camera did not answer in time: check it, or switch it off and on';
    case 'other':
      return 'gphoto2 could not take the photo';
  }
}

/**
 * A DSLR or mirrorless camera through Debian's `gphoto2` command (libgphoto2, the field's
 * standard): each shot captures and downloads one image. A busy or stuck USB link is reset
 * (`gphoto2 --reset`) and the shot tried once more; every other failure is told in words.
 */
export class Gphoto2Camera implements Camera {
  readonly driver = 'gphoto2';
  private readonly command: string;
  private readonly timeoutMs: number;
  private readonly minShortSide: number;

  constructor(private readonly options: Gphoto2CameraOptions = {}) {
    this.command = options.command ?? 'gphoto2';
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.minShortSide = options.minShortSide ?? 1000;
  }

  /** --port and --camera when set: they come first, as gphoto2 expects. */
  private cameraArgs(): string[] {
    const args: string[] = [];
    if (this.options.port) args.push(`--port=${this.options.port}`);
    if (this.options.model) args.push(`--camera=${this.options.model}`);
    return args;
  }

  async capture(index: number): Promise<Buffer> {
    try {
      return await this.shoot(index);
    } catch (error) {
      if (!(error instanceof Gphoto2Error) || error.failure !== 'busy') throw error;
      await this.reset();
      return this.shoot(index);
    }
  }

  /**
   * A burst is that many stills, one after another (`capture`). A clip is the camera's live
   * view: `gphoto2 --capture-movie=<s>s` writes it as motion JPEG (movie.mjpg, in a scratch
   * folder), which ffmpeg splits into the frames; its rate is what the camera delivered (live
   * view often runs below 30 fps). A camera without live view records the clip as a few stills.
   */
  async record(request: MotionRequest): Promise<MotionRecording> {
    if (request.mode === 'burst') return recordWithStills(this, request);
    const seconds = Math.max(1, Math.ceil(request.seconds));
    return withScratchFolder('flashbooth-gphoto2-movie-', async (scratch) => {
      try {
        await runProgram(this.command, [...this.cameraArgs(), `--capture-movie=${seconds}s`], {
          timeoutMs: this.timeoutMs + seconds * 1000,
          env: { LANG: 'C', LC_ALL: 'C' },
          cwd: scratch,
        });
      } catch (error) {
        if (error instanceof ProgramError && NO_LIVE_VIEW.test(error.output)) {
          return recordWithStills(this, request);
        }
        throw this.explain(error);
      }
      const movie = (await readdir(scratch)).find((name) => /\.mjpe?g$/i.test(name));
      if (!movie) throw new Error('gphoto2 recorded no live-view movie: check the camera');
      try {
        await runProgram(
          this.options.ffmpegCommand ?? 'ffmpeg',
          [
            '-hide_banner',
            '-loglevel',
            'error',
            '-nostdin',
            '-f',
            'mjpeg',
            '-i',
            path.join(scratch, movie),
            '-c:v',
            'copy',
            '-f',
            'image2',
            path.join(request.dir, FRAME_PATTERN),
          ],
          { timeoutMs: 60_000 },
        );
      } catch (error) {
        const said = error instanceof ProgramError ? lastLines(error.output, 2) : '';
        throw new Error(`ffmpeg could not read the camera's live-view movie: ${said}`, {
          cause: error,
        });
      }
      const all = await listFrames(request.dir);
      if (all.length === 0) throw new Error("the camera's live-view movie has no frames");
      // gphoto2 records whole seconds: a 1.5-s burst keeps the first 1.5 s of a 2-s movie.
      const fps = all.length / seconds;
      const keep = Math.max(1, Math.round(fps * request.seconds));
      await Promise.all(all.slice(keep).map((file) => rm(file, { force: true })));
      return { frames: all.slice(0, keep), fps };
    });
  }

  private async reset(): Promise<void> {
    const args = this.options.port ? [`--port=${this.options.port}`, '--reset'] : ['--reset'];
    // A failed reset is no reason to skip the retry: the retry's own error is the one reported.
    await runProgram(this.command, args, {
      timeoutMs: 10_000,
      env: { LANG: 'C', LC_ALL: 'C' },
    }).catch(() => undefined);
  }

  private shoot(index: number): Promise<Buffer> {
    return withScratchFolder('flashbooth-gphoto2-', async (dir) => {
      // %C is the camera's own suffix: a camera set to RAW+JPEG downloads both, and the JPEG is used.
      const args = [
        ...this.cameraArgs(),
        '--capture-image-and-download',
        `--filename=${path.join(dir, `shot-${index + 1}-%n.%C`)}`,
        '--force-overwrite',
      ];
      try {
        await runProgram(this.command, args, {
          timeoutMs: this.timeoutMs,
          env: { LANG: 'C', LC_ALL: 'C' },
        });
      } catch (error) {
        throw this.explain(error);
      }
      const names = (await readdir(dir)).sort();
      const jpeg = names.find((name) => /\.jpe?g$/i.test(name));
      if (!jpeg) {
        throw new Error(
          names.length > 0
            ? `The camera saved no JPEG (only ${names.join(', ')}): set its image quality to JPEG or RAW+JPEG`
            : 'gphoto2 finished without downloading a photo: check the camera’s capture target',
        );
      }
      const photo = await readFile(path.join(dir, jpeg));
      await checkJpeg(photo, { minShortSide: this.minShortSide }, 'The camera');
      return photo;
    });
  }

  private explain(error: unknown): Error {
    if (!(error instanceof ProgramError)) return error as Error;
    if (error.failure === 'not_found') {
      return new Error('gphoto2 is not installed: run `sudo apt-get install gphoto2`', {
        cause: error,
      });
    }
    if (error.failure === 'timeout') {
      // Not retried: a camera hunting for focus in the dark would keep the visitor waiting twice.
      return new Gphoto2Error(
        `The camera did not take the photo within ${seconds(this.timeoutMs)}: ` +
          'it may be unable to focus or stuck; check it, or switch it off and on',
        'timeout',
        { cause: error },
      );
    }
    const failure = classifyGphoto2Error(error.output);
    const advice = gphoto2Advice(failure, this.options.port);
    const message = failure === 'other' ? `${advice}: ${lastGphoto2Error(error.output)}` : advice;
    return new Gphoto2Error(message, failure, { cause: error });
  }
}

/** gphoto2's error lines without its standard plea to run it with --debug. */
function lastGphoto2Error(output: string): string {
  const lines = output
    .split('\n')
    .filter((line) => /error/i.test(line) && !/debug|mailing list|gphoto2 as follows/i.test(line));
  return lastLines(lines.join('\n').replace(/\*\*\*/g, ''), 2) || 'no message';
}

export class Gphoto2Error extends Error {
  constructor(
    message: string,
    readonly failure: Gphoto2Failure,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'Gphoto2Error';
  }
}
