import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type Camera,
  FRAME_PATTERN,
  type MotionRecording,
  type MotionRequest,
  requestedFrames,
} from './camera.js';
import { checkJpeg, type PhotoSize } from './check-jpeg.js';
import { listFrames } from './motion-frames.js';
import { ProgramError, lastLines, runProgram, seconds, withScratchFolder } from './run-program.js';

export interface RpicamCameraOptions {
  /** The photo size (default 2028x1520: the HQ and v3 cameras' fast full-field mode). */
  size?: PhotoSize;
  /** JPEG quality 1 to 100 (default 93). */
  quality?: number;
  /** How long the camera runs before the photo, to settle exposure and white balance (default 1000 ms, at least 1). */
  warmupMs?: number;
  /** Which camera when several are attached (`rpicam-hello --list-cameras`); the first by default. */
  cameraIndex?: number;
  /** Deadline of one shot on top of the warm-up (default 15 s). */
  timeoutMs?: number;
  command?: string;
  /** The video program (default rpicam-vid). */
  videoCommand?: string;
}

export const DEFAULT_RPICAM_SIZE: PhotoSize = { width: 2028, height: 1520 };

/** The Raspberry Pi camera through `rpicam-still` (Raspberry Pi OS bookworm's rpicam-apps). */
export class RpicamCamera implements Camera {
  readonly driver = 'rpicam';
  private readonly size: PhotoSize;
  private readonly warmupMs: number;
  private readonly command: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: RpicamCameraOptions = {}) {
    this.size = options.size ?? DEFAULT_RPICAM_SIZE;
    // rpicam-still reads --timeout 0 as "run until stopped": the shortest warm-up is 1 ms.
    this.warmupMs = Math.max(1, options.warmupMs ?? 1000);
    this.command = options.command ?? 'rpicam-still';
    this.timeoutMs = this.warmupMs + (options.timeoutMs ?? 15_000);
  }

  /** rpicam-still's arguments for one photo written to `file`. */
  args(file: string): string[] {
    const camera =
      this.options.cameraIndex === undefined ? [] : ['--camera', String(this.options.cameraIndex)];
    return [
      ...camera,
      '--nopreview',
      '--width',
      String(this.size.width),
      '--height',
      String(this.size.height),
      '--quality',
      String(this.options.quality ?? 93),
      '--timeout',
      String(this.warmupMs),
      '--encoding',
      'jpg',
      '--output',
      file,
    ];
  }

  private cameraArgs(): string[] {
    return this.options.cameraIndex === undefined
      ? []
      : ['--camera', String(this.options.cameraIndex)];
  }

  /**
   * The arguments of a recording into `request.dir`: a clip with `rpicam-vid` in motion JPEG,
   * one file per frame (`--segment 1`); a burst with `rpicam-still --timelapse`, one still every
   * `intervalMs` after the warm-up. Frames are the size the encoding wants.
   */
  recordArgs(request: MotionRequest): { command: string; args: string[] } {
    const size = ['--width', String(request.size.width), '--height', String(request.size.height)];
    const output = ['--output', path.join(request.dir, FRAME_PATTERN)];
    if (request.mode === 'clip') {
      return {
        command: this.options.videoCommand ?? 'rpicam-vid',
        args: [
          ...this.cameraArgs(),
          '--nopreview',
          ...size,
          '--codec',
          'mjpeg',
          '--quality',
          String(this.options.quality ?? 90),
          '--segment',
          '1',
          '--framerate',
          String(request.fps),
          '--frames',
          String(requestedFrames(request)),
          '--timeout',
          String(Math.ceil(request.seconds * 1000) + this.warmupMs),
          ...output,
        ],
      };
    }
    return {
      command: this.command,
      args: [
        ...this.cameraArgs(),
        '--nopreview',
        ...size,
        '--quality',
        String(this.options.quality ?? 93),
        '--encoding',
        'jpg',
        '--timelapse',
        String(request.intervalMs),
        '--framestart',
        '1',
        '--timeout',
        // The last still is due at warm-up + (count - 1) intervals; half an interval of slack.
        String(this.warmupMs + Math.round((requestedFrames(request) - 0.5) * request.intervalMs)),
        ...output,
      ],
    };
  }

  async record(request: MotionRequest): Promise<MotionRecording> {
    const { command, args } = this.recordArgs(request);
    const seconds =
      request.mode === 'clip' ? request.seconds : (request.count * request.intervalMs) / 1000;
    try {
      await runProgram(command, args, { timeoutMs: this.timeoutMs + seconds * 1000 });
    } catch (error) {
      throw this.explain(error, command);
    }
    const frames = (await listFrames(request.dir)).slice(0, requestedFrames(request));
    if (frames.length === 0) throw new Error(`${command} finished without recording a frame`);
    return {
      frames,
      fps: request.mode === 'clip' ? request.fps : 1000 / request.intervalMs,
    };
  }

  capture(index: number): Promise<Buffer> {
    return withScratchFolder('flashbooth-rpicam-', async (dir) => {
      const file = path.join(dir, `shot-${index + 1}.jpg`);
      try {
        await runProgram(this.command, this.args(file), { timeoutMs: this.timeoutMs });
      } catch (error) {
        throw this.explain(error);
      }
      const photo = await readFile(file).catch((error: unknown) => {
        throw new Error('rpicam-still finished without writing a photo', { cause: error });
      });
      await checkJpeg(photo, { size: this.size }, 'The Raspberry Pi camera');
      return photo;
    });
  }

  private explain(error: unknown, command = 'rpicam-still'): Error {
    if (!(error instanceof ProgramError)) return error as Error;
    if (error.failure === 'not_found') {
      return new Error(
        `${command} is not installed: run \`sudo apt-get install rpicam-apps\` (Raspberry Pi OS bookworm)`,
        { cause: error },
      );
    }
    if (error.failure === 'timeout') {
      return new Error(
        `The Raspberry Pi camera gave no picture within ${seconds(this.timeoutMs)}: ` +
          'check its ribbon cable and restart the booth',
        { cause: error },
      );
    }
    const said = error.output;
    let advice: string;
    if (/no cameras available/i.test(said)) {
      advice =
        'No Raspberry Pi camera found: check that the ribbon cable is seated the right way round ' +
        'at both ends (`rpicam-hello --list-cameras` should list the camera)';
    } else if (/Device or resource busy|failed to acquire camera/i.test(said)) {
      advice = 'The Raspberry Pi camera is in use by another program: close it';
    } else if (/invalid camera|camera index/i.test(said)) {
      advice = `There is no Raspberry Pi camera number ${this.options.cameraIndex ?? 0}: check BOOTH_RPICAM_CAMERA`;
    } else {
      advice = `${command} could not take a photo: ${lastLines(said, 2) || 'no message'}`;
    }
    return new Error(advice, { cause: error });
  }
}
