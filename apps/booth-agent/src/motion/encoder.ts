import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { ProgramError, lastLines, runProgram, withScratchFolder } from '../camera/run-program.js';
import {
  type Aspect,
  even,
  type MotionKind,
  OUTPUT_FPS,
  PREVIEW_FPS,
  PREVIEW_MAX_WIDTH,
  middleFrames,
  playOrder,
  timeline,
  videoSize,
} from './timeline.js';

/** The files an encoding writes into its folder. */
export const MOTION_FILES = {
  video: 'motion.mp4',
  poster: 'poster.jpg',
  preview: 'preview.webp',
  gif: 'motion.gif',
} as const;

export interface EncodeRequest {
  kind: MotionKind;
  /** Playback speed, 0.5 to 2. */
  speed: number;
  /** The recorded frames (JPEG files), in recording order. */
  frames: readonly string[];
  /** The rate they were recorded at (a burst's 1000 / interval). */
  fps: number;
  /** The template's foreground PNG, drawn over every frame; null when it has none. */
  foreground: Buffer | null;
  /**
   * The clip's shape: the template's first print slot (`clipAspect`), cropped to it in the
   * middle as the print crops a photo into that slot; null for the frames' own shape.
   */
  aspect: Aspect | null;
  /** Where the files go (MOTION_FILES); each appears whole or not at all. */
  outDir: string;
  /** Whether to make the .gif as well (the gif kind). */
  gif: boolean;
}

export interface EncodeResult {
  video: string;
  poster: string;
  preview: string;
  gif: string | null;
  width: number;
  height: number;
  /** The MP4's length in seconds. */
  seconds: number;
  /** Milliseconds spent on each file (the overlays' fitting counts with the video). */
  ms: { video: number; poster: number; preview: number; gif: number };
}

/** Turns recorded frames into the MP4, its poster, the animated WebP and for a GIF the .gif. */
export interface MotionEncoder {
  encode(request: EncodeRequest): Promise<EncodeResult>;
}

export interface FfmpegEncoderOptions {
  /** ffmpeg's `-threads` (default 0: ffmpeg chooses); the benchmark uses 1. */
  threads?: number;
  /** libx264's preset (default veryfast: a booth's CPU is small and the clips are short). */
  preset?: string;
  /** libx264's quality, lower is better (default 23). */
  crf?: number;
  /** 1920 on the long side when the camera's frames are that large (default true). */
  allowFullHd?: boolean;
  /** ffmpeg's nice value (default 10: below the camera and the agent, so captures go first). */
  niceness?: number;
  /** One ffmpeg run's deadline (default 180 s). */
  timeoutMs?: number;
  command?: string;
}

/**
 * The encoder of a booth: Debian's `ffmpeg` (spawned with argument arrays) for the MP4 and the
 * .gif, sharp for the poster and the animated WebP. The MP4 is H.264 High, yuv420p, 30 fps,
 * `+faststart` (a phone starts playing before the end arrives), one loop encoded and then
 * repeated without re-encoding until it lasts at least 3 s.
 */
export class FfmpegMotionEncoder implements MotionEncoder {
  private readonly command: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: FfmpegEncoderOptions = {}) {
    this.command = options.command ?? 'ffmpeg';
    this.timeoutMs = options.timeoutMs ?? 180_000;
  }

  async encode(request: EncodeRequest): Promise<EncodeResult> {
    if (request.frames.length === 0) throw new Error('there are no frames to encode');
    const first = await sharp(request.frames[0]).metadata();
    if (!first.width || !first.height) throw new Error('the first frame is not an image');
    const size = videoSize(request.aspect, first, this.options.allowFullHd ?? true);
    const plan = timeline(request.kind, request.frames.length, request.fps, request.speed);
    await mkdir(request.outDir, { recursive: true });
    return withScratchFolder('flashbooth-encode-', async (scratch) => {
      const ms: EncodeResult['ms'] = { video: 0, poster: 0, preview: 0, gif: 0 };
      let lap = performance.now();
      const took = (part: keyof EncodeResult['ms']) => {
        const at = performance.now();
        ms[part] += Math.round(at - lap);
        lap = at;
      };
      const overlay = request.foreground
        ? await fitOverlay(request.foreground, size, path.join(scratch, 'overlay.png'))
        : null;
      const previewSize = {
        width: PREVIEW_MAX_WIDTH,
        height: even((PREVIEW_MAX_WIDTH * size.height) / size.width),
      };
      const smallOverlay = request.foreground
        ? await fitOverlay(request.foreground, previewSize, path.join(scratch, 'overlay-small.png'))
        : null;

      // One loop as numbered links to the recorded frames: ffmpeg reads a plain image sequence.
      const loopDir = path.join(scratch, 'loop');
      await linkSequence(
        loopDir,
        plan.frames.map((index) => request.frames[index] as string),
      );
      const video = path.join(request.outDir, MOTION_FILES.video);
      await this.writeVideo(loopDir, overlay, size, plan.loops, scratch, video);
      took('video');

      const poster = path.join(request.outDir, MOTION_FILES.poster);
      const posterFrame = await sharpestFrame(
        middleFrames(request.frames.length).map((i) => request.frames[i] as string),
      );
      await writeAtomically(poster, await stillWithOverlay(posterFrame, size, overlay));
      took('poster');

      const preview = path.join(request.outDir, MOTION_FILES.preview);
      const previewPlan = timeline(
        request.kind,
        request.frames.length,
        request.fps,
        request.speed,
        Math.min(PREVIEW_FPS, request.fps * request.speed),
      );
      await writeAtomically(
        preview,
        await animatedWebp(
          request.frames,
          previewPlan.frames,
          1000 / Math.min(PREVIEW_FPS, request.fps * request.speed),
          previewSize,
          smallOverlay,
        ),
      );
      took('preview');

      let gif: string | null = null;
      if (request.gif) {
        gif = path.join(request.outDir, MOTION_FILES.gif);
        const order = playOrder(request.kind, request.frames.length);
        const gifDir = path.join(scratch, 'gif');
        await linkSequence(
          gifDir,
          order.map((index) => request.frames[index] as string),
        );
        await this.writeGif(
          gifDir,
          request.fps * request.speed,
          smallOverlay,
          previewSize,
          scratch,
          gif,
        );
        took('gif');
      }
      return {
        video,
        poster,
        preview,
        gif,
        width: size.width,
        height: size.height,
        seconds: plan.loopSeconds * plan.loops,
        ms,
      };
    });
  }

  /** Threads of the decoder (before an input), the filters (global) and the encoder (output). */
  private threads(where: 'input' | 'output'): string[] {
    const threads = String(this.options.threads ?? 0);
    return where === 'input'
      ? ['-filter_complex_threads', threads, '-threads', threads]
      : ['-threads', threads];
  }

  /** Encodes one loop, then repeats it (stream copy) into the MP4 when one loop is too short. */
  private async writeVideo(
    loopDir: string,
    overlay: string | null,
    size: { width: number; height: number },
    loops: number,
    scratch: string,
    target: string,
  ): Promise<void> {
    const cover = coverFilter(size);
    const graph = overlay
      ? // Blended in yuv420p, the MP4's own format: no conversion to RGB and back per frame.
        `[0:v]${cover},format=yuv420p[bg];[bg][1:v]overlay=0:0:format=yuv420[v]`
      : `[0:v]${cover},format=yuv420p[v]`;
    const loop = path.join(scratch, 'loop.mp4');
    await this.run(
      [
        ...COMMON,
        ...this.threads('input'),
        '-framerate',
        String(OUTPUT_FPS),
        '-i',
        path.join(loopDir, SEQUENCE_PATTERN),
        ...(overlay ? ['-i', overlay] : []),
        '-filter_complex',
        graph,
        '-map',
        '[v]',
        ...this.threads('output'),
        '-an',
        '-c:v',
        'libx264',
        '-preset',
        this.options.preset ?? 'veryfast',
        '-crf',
        String(this.options.crf ?? 23),
        '-profile:v',
        'high',
        '-pix_fmt',
        'yuv420p',
        '-r',
        String(OUTPUT_FPS),
        '-movflags',
        '+faststart',
        loops > 1 ? loop : tempBeside(target),
      ],
      'encode the video',
    );
    if (loops > 1) {
      await this.run(
        [
          ...COMMON,
          '-stream_loop',
          String(loops - 1),
          '-i',
          loop,
          '-c',
          'copy',
          '-movflags',
          '+faststart',
          tempBeside(target),
        ],
        'loop the video',
      );
    }
    await renameInto(tempBeside(target), target);
  }

  /** The .gif with a palette made for its own frames (palettegen, then paletteuse). */
  private async writeGif(
    dir: string,
    fps: number,
    overlay: string | null,
    size: { width: number; height: number },
    scratch: string,
    target: string,
  ): Promise<void> {
    const cover = coverFilter(size);
    const framed = overlay ? `[0:v]${cover}[bg];[bg][1:v]overlay=0:0[f]` : `[0:v]${cover}[f]`;
    const temp = path.join(scratch, 'motion.gif');
    await this.run(
      [
        ...COMMON,
        ...this.threads('input'),
        '-framerate',
        fps.toFixed(4),
        '-i',
        path.join(dir, SEQUENCE_PATTERN),
        ...(overlay ? ['-i', overlay] : []),
        '-filter_complex',
        `${framed};[f]split[a][b];[a]palettegen=stats_mode=full[p];[b][p]paletteuse=dither=bayer:bayer_scale=4`,
        ...this.threads('output'),
        '-loop',
        '0',
        temp,
      ],
      'make the GIF',
    );
    await writeAtomically(target, await readFile(temp));
  }

  private async run(args: string[], what: string): Promise<void> {
    try {
      await runProgram(this.command, args, {
        timeoutMs: this.timeoutMs,
        niceness: this.options.niceness ?? 10,
      });
    } catch (error) {
      if (error instanceof ProgramError && error.failure === 'not_found') {
        throw new Error('ffmpeg is not installed: run `sudo apt-get install ffmpeg`', {
          cause: error,
        });
      }
      const said = error instanceof ProgramError ? lastLines(error.output, 2) : '';
      throw new Error(`ffmpeg could not ${what}${said ? `: ${said}` : ''}`, { cause: error });
    }
  }
}

/**
 * ffmpeg's filters that scale a frame to cover `size` and cut what is over from both sides
 * equally (the print's `cover` of a photo into its slot), never from one side only.
 */
export function coverFilter(size: { width: number; height: number }): string {
  const { width, height } = size;
  return (
    `scale=${width}:${height}:force_original_aspect_ratio=increase,` +
    `crop=${width}:${height}:(in_w-${width})/2:(in_h-${height})/2,setsar=1`
  );
}

const COMMON = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'];
const SEQUENCE_PATTERN = '%05d.jpg';

/** `dir` with 00001.jpg, 00002.jpg, … linking to `files` in that order (a file may recur). */
async function linkSequence(dir: string, files: readonly string[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  await Promise.all(
    files.map((file, index) =>
      symlink(path.resolve(file), path.join(dir, `${String(index + 1).padStart(5, '0')}.jpg`)),
    ),
  );
}

/** The foreground scaled to cover `size` (cropped in the middle), as a PNG file. */
async function fitOverlay(
  foreground: Buffer,
  size: { width: number; height: number },
  file: string,
): Promise<string> {
  await sharp(foreground)
    .ensureAlpha()
    .resize(size.width, size.height, { fit: 'cover' })
    .png({ compressionLevel: 1 })
    .toFile(file);
  return file;
}

/**
 * How sharp a frame is: the variance of its Laplacian (edges' strength) on a small grey copy.
 * A blurred frame (someone moving fast) scores low.
 */
export async function sharpness(file: string): Promise<number> {
  const { data, info } = await sharp(file)
    .resize({ width: 320 })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  let sum = 0;
  let squares = 0;
  let count = 0;
  for (let y = 1; y < height - 1; y += 1) {
    for (let x = 1; x < width - 1; x += 1) {
      const i = y * width + x;
      const laplacian =
        (data[i - 1] as number) +
        (data[i + 1] as number) +
        (data[i - width] as number) +
        (data[i + width] as number) -
        4 * (data[i] as number);
      sum += laplacian;
      squares += laplacian * laplacian;
      count += 1;
    }
  }
  if (count === 0) return 0;
  const mean = sum / count;
  return squares / count - mean * mean;
}

/** The sharpest of `files` (the first of equals). */
export async function sharpestFrame(files: readonly string[]): Promise<string> {
  let best = files[0] as string;
  let bestScore = -1;
  for (const file of files) {
    const score = await sharpness(file);
    if (score > bestScore) {
      best = file;
      bestScore = score;
    }
  }
  return best;
}

/** A frame cropped to `size` with the overlay (already that size) over it, as a JPEG. */
async function stillWithOverlay(
  frame: string,
  size: { width: number; height: number },
  overlay: string | null,
): Promise<Buffer> {
  const image = sharp(frame).resize(size.width, size.height, { fit: 'cover' });
  if (overlay) image.composite([{ input: overlay }]);
  return image.jpeg({ quality: 88, mozjpeg: false }).toBuffer();
}

/** The animated WebP: `order` (indices into `frames`) at `delayMs` a frame, looping forever. */
async function animatedWebp(
  frames: readonly string[],
  order: readonly number[],
  delayMs: number,
  size: { width: number; height: number },
  overlay: string | null,
): Promise<Buffer> {
  // Each recorded frame is scaled once, however often the loop shows it.
  const scaled = new Map<number, Buffer>();
  for (const index of new Set(order)) {
    const image = sharp(frames[index] as string).resize(size.width, size.height, { fit: 'cover' });
    scaled.set(index, await image.removeAlpha().raw().toBuffer());
  }
  const pages = order.map((index) => scaled.get(index) as Buffer);
  const animation = sharp(Buffer.concat(pages), {
    raw: {
      width: size.width,
      height: size.height * pages.length,
      channels: 3,
      pageHeight: size.height,
    },
  });
  // The overlay is the size of one page: tiled down the pages, it is drawn once on each, in one
  // operation rather than one per frame.
  if (overlay) animation.composite([{ input: overlay, tile: true, gravity: 'northwest' }]);
  return animation
    .webp({
      quality: 70,
      effort: 2,
      loop: 0,
      delay: pages.map(() => Math.round(delayMs)),
    })
    .toBuffer();
}

/** A name beside `target` that the queue clears at start-up if a crash leaves it behind. */
function tempBeside(target: string): string {
  return path.join(path.dirname(target), `.tmp-encoding-${path.basename(target)}`);
}

/** fsyncs `file`, then renames it to `target` (whole or not at all, after a power cut too). */
async function renameInto(file: string, target: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(file, target);
}

/** Writes `data` to `target` through a temporary file and a rename. */
export async function writeAtomically(target: string, data: Buffer): Promise<void> {
  const temp = path.join(
    path.dirname(target),
    `.tmp-${randomUUID().slice(0, 8)}-${path.basename(target)}`,
  );
  try {
    await writeFile(temp, data);
    await renameInto(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * For tests: writes small stand-in files with the right signatures (an MP4 `ftyp` box, a JPEG,
 * a WebP, a GIF) without running anything, and counts its calls.
 */
export class FakeMotionEncoder implements MotionEncoder {
  readonly requests: EncodeRequest[] = [];
  /** The next encode fails with this error. */
  failNext: Error | undefined;

  async encode(request: EncodeRequest): Promise<EncodeResult> {
    this.requests.push(request);
    const error = this.failNext;
    this.failNext = undefined;
    if (error) throw error;
    await mkdir(request.outDir, { recursive: true });
    const file = (name: string) => path.join(request.outDir, name);
    const mp4 = Buffer.concat([
      Buffer.from([0, 0, 0, 0x18]),
      Buffer.from('ftypisom'),
      Buffer.alloc(12),
    ]);
    const jpeg = await sharp({
      create: { width: 16, height: 9, channels: 3, background: '#336699' },
    })
      .jpeg()
      .toBuffer();
    const webp = await sharp({
      create: { width: 16, height: 9, channels: 3, background: '#336699' },
    })
      .webp()
      .toBuffer();
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    await writeAtomically(file(MOTION_FILES.video), mp4);
    await writeAtomically(file(MOTION_FILES.poster), jpeg);
    await writeAtomically(file(MOTION_FILES.preview), webp);
    if (request.gif) await writeAtomically(file(MOTION_FILES.gif), gif);
    return {
      video: file(MOTION_FILES.video),
      poster: file(MOTION_FILES.poster),
      preview: file(MOTION_FILES.preview),
      gif: request.gif ? file(MOTION_FILES.gif) : null,
      ...videoSize(request.aspect, { width: 1280, height: 720 }, false),
      seconds: 3,
      ms: { video: 0, poster: 0, preview: 0, gif: 0 },
    };
  }
}
