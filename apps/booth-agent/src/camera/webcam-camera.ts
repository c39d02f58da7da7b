import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type Camera,
  FRAME_PATTERN,
  type MotionRecording,
  type MotionRequest,
  requestedFrames,
} from './camera.js';
import { checkJpeg, formatSize, type PhotoSize } from './check-jpeg.js';
import { listFrames } from './motion-frames.js';
import { ProgramError, lastLines, runProgram, seconds } from './run-program.js';

export interface WebcamCameraOptions {
  /**
   * What ffmpeg opens: the V4L2 device (default /dev/video0), or with `format: 'lavfi'` a
   * test source such as `testsrc2=size=1280x720:rate=30`.
   */
  device?: string;
  /** ffmpeg's input format: `v4l2` (default) for a USB camera, `lavfi` for ffmpeg's test sources. */
  format?: string;
  /** The photo size asked of the camera and checked on every photo (default 1920x1080). */
  size?: PhotoSize;
  /** The camera's pixel format (v4l2 only, default mjpeg: most USB cameras give large sizes only in MJPEG). */
  inputFormat?: string;
  /** Frames dropped before the photo, while the camera settles its exposure and white balance. */
  warmupFrames?: number;
  /** JPEG quality as ffmpeg's -q:v, 2 (best) to 31 (default 2). */
  quality?: number;
  timeoutMs?: number;
  command?: string;
}

export const DEFAULT_WEBCAM_SIZE: PhotoSize = { width: 1920, height: 1080 };

/**
 * A USB (UVC/V4L2) camera through Debian's `ffmpeg`: each shot opens the device, drops the
 * warm-up frames and encodes the next one as a JPEG. Opening the device per shot keeps it free
 * between sessions (and lets a replugged camera work again without a restart).
 */
export class WebcamCamera implements Camera {
  readonly driver = 'webcam';
  private readonly device: string;
  private readonly format: string;
  private readonly size: PhotoSize;
  private readonly command: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: WebcamCameraOptions = {}) {
    this.device = options.device ?? '/dev/video0';
    this.format = options.format ?? 'v4l2';
    this.size = options.size ?? DEFAULT_WEBCAM_SIZE;
    this.command = options.command ?? 'ffmpeg';
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  private get warmup(): number {
    return Math.max(0, Math.floor(this.options.warmupFrames ?? 15));
  }

  /** ffmpeg's input: the device with its size and pixel format. */
  private input(): string[] {
    // -video_size and -input_format are options of the v4l2 input only: a lavfi source takes its
    // size from its own description and refuses them.
    const input =
      this.format === 'v4l2'
        ? [
            '-video_size',
            formatSize(this.size),
            '-input_format',
            this.options.inputFormat ?? 'mjpeg',
          ]
        : [];
    return [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      '-f',
      this.format,
      ...input,
      '-i',
      this.device,
    ];
  }

  /**
   * ffmpeg's arguments for a recording into `dir` as numbered JPEGs: after the warm-up, a clip
   * resampled to a steady `fps` (a camera in dim light slows down; its frames are then repeated
   * rather than played fast), or a burst of one frame every `intervalMs`.
   */
  recordArgs(request: MotionRequest): string[] {
    const rate =
      request.mode === 'clip' ? String(request.fps) : (1000 / request.intervalMs).toFixed(4);
    return [
      ...this.input(),
      '-vf',
      `select=gte(n\\,${this.warmup}),fps=fps=${rate}`,
      '-frames:v',
      String(requestedFrames(request)),
      '-c:v',
      'mjpeg',
      '-q:v',
      String(Math.max(3, this.options.quality ?? 3)),
      '-f',
      'image2',
      path.join(request.dir, FRAME_PATTERN),
    ];
  }

  async record(request: MotionRequest): Promise<MotionRecording> {
    const seconds =
      request.mode === 'clip' ? request.seconds : (request.count * request.intervalMs) / 1000;
    try {
      await runProgram(this.command, this.recordArgs(request), {
        timeoutMs: this.timeoutMs + seconds * 1000,
      });
    } catch (error) {
      throw this.explain(error);
    }
    const frames = await listFrames(request.dir);
    if (frames.length === 0) {
      throw new Error(`The webcam ${this.device} recorded nothing: check that it is plugged in`);
    }
    await checkJpeg(
      await readFile(frames[0] as string),
      { size: this.size },
      `The webcam ${this.device}`,
    );
    return {
      frames,
      fps: request.mode === 'clip' ? request.fps : 1000 / request.intervalMs,
    };
  }

  /** ffmpeg's arguments for one photo, written to standard output. */
  args(): string[] {
    return [
      ...this.input(),
      '-vf',
      // The comma is escaped for the filter graph parser (this is no shell).
      `select=gte(n\\,${this.warmup})`,
      '-frames:v',
      '1',
      '-c:v',
      'mjpeg',
      '-q:v',
      String(this.options.quality ?? 2),
      '-f',
      'image2pipe',
      'pipe:1',
    ];
  }

  async capture(_index: number): Promise<Buffer> {
    let stdout: Buffer;
    try {
      ({ stdout } = await runProgram(this.command, this.args(), { timeoutMs: this.timeoutMs }));
    } catch (error) {
      throw this.explain(error);
    }
    if (stdout.length === 0) {
      throw new Error(`The webcam ${this.device} gave no picture: check that it is plugged in`);
    }
    await checkJpeg(stdout, { size: this.size }, `The webcam ${this.device}`);
    return stdout;
  }

  private explain(error: unknown): Error {
    if (!(error instanceof ProgramError)) return error as Error;
    const device = this.device;
    if (error.failure === 'not_found') {
      return new Error('ffmpeg is not installed: run `sudo apt-get install ffmpeg`', {
        cause: error,
      });
    }
    if (error.failure === 'timeout') {
      return new Error(
        `The webcam ${device} gave no picture within ${seconds(this.timeoutMs)}: ` +
          'unplug it and plug it in again',
        { cause: error },
      );
    }
    const said = error.output;
    let advice: string;
    if (/No such file or directory/i.test(said)) {
      advice = `No webcam at ${device}: check that it is plugged in (\`v4l2-ctl --list-devices\` lists the devices)`;
    } else if (/Device or resource busy/i.test(said)) {
      advice = `The webcam ${device} is in use by another program: close it`;
    } else if (/Permission denied/i.test(said)) {
      advice = `The booth may not open ${device}: add its user to the video group`;
    } else if (/Not a video capture device|Inappropriate ioctl/i.test(said)) {
      advice = `${device} is not a camera: choose another /dev/videoN (\`v4l2-ctl --list-devices\`)`;
    } else {
      advice = `ffmpeg could not take a photo with ${device}: ${lastLines(said, 2) || 'no message'}`;
    }
    return new Error(advice, { cause: error });
  }
}
