import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MotionRequest } from '../src/camera/camera.js';
import { FolderCamera } from '../src/camera/folder-camera.js';
import { Gphoto2Camera } from '../src/camera/gphoto2-camera.js';
import { RpicamCamera } from '../src/camera/rpicam-camera.js';
import { SimulatedCamera } from '../src/camera/simulated-camera.js';
import { WebcamCamera } from '../src/camera/webcam-camera.js';
import { FfmpegMotionEncoder, sharpestFrame } from '../src/motion/encoder.js';

// Motion with the real ffmpeg and sharp: the encoder's MP4 read back with ffprobe and decoded
// with ffmpeg, and the cameras' recordings (ffmpeg's test source for the webcam, stand-in
// gphoto2 and rpicam programs that write what the real ones do). Frame counts are small so the
// encodings take a second or two.

let root: string;
/** The overlay's band: opaque magenta along the bottom tenth of the foreground. */
const BAND = { r: 255, g: 0, b: 200 };

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'flashbooth-motion-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

let counter = 0;
async function folder(name: string): Promise<string> {
  counter += 1;
  const dir = path.join(root, `${name}-${counter}`);
  await mkdir(dir, { recursive: true });
  return dir;
}

/** `count` frames of a grey picture with a dark box moving across it. */
async function syntheticFrames(count: number, width: number, height: number): Promise<string[]> {
  const dir = await folder('frames');
  const box = Math.round(height / 4);
  const files: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const file = path.join(dir, `frame-${String(i + 1).padStart(4, '0')}.jpg`);
    await sharp({ create: { width, height, channels: 3, background: { r: 90, g: 140, b: 90 } } })
      .composite([
        {
          input: { create: { width: box, height: box, channels: 3, background: '#202020' } },
          left: Math.round(((width - box) * i) / Math.max(1, count - 1)),
          top: Math.round(height / 3),
        },
      ])
      .jpeg()
      .toFile(file);
    files.push(file);
  }
  return files;
}

/** A print-sized foreground: transparent, with the opaque band along its bottom edge. */
function foreground(width: number, height: number): Promise<Buffer> {
  const band = Math.round(height / 10);
  return sharp({
    create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .composite([
      {
        input: { create: { width, height: band, channels: 4, background: { ...BAND, alpha: 1 } } },
        top: height - band,
        left: 0,
      },
    ])
    .png()
    .toBuffer();
}

function probe(file: string) {
  const json = execFileSync('ffprobe', [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_streams',
    '-show_format',
    file,
  ]).toString();
  const data = JSON.parse(json) as {
    streams: Record<string, string | number>[];
    format: { duration: string; format_name: string };
  };
  return { stream: data.streams[0] as Record<string, string | number>, format: data.format };
}

/** The RGB pixel at (x, y) of the frame playing at `seconds`. */
function pixelAt(file: string, seconds: number, x: number, y: number) {
  const raw = execFileSync('ffmpeg', [
    ...['-v', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1'],
    ...['-vf', `crop=2:2:${x}:${y}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
  ]);
  return { r: raw[0] as number, g: raw[1] as number, b: raw[2] as number };
}

const near = (a: { r: number; g: number; b: number }, b: typeof a, tolerance = 40) =>
  Math.abs(a.r - b.r) <= tolerance &&
  Math.abs(a.g - b.g) <= tolerance &&
  Math.abs(a.b - b.b) <= tolerance;

describe('FfmpegMotionEncoder', () => {
  it('makes a boomerang MP4 (H.264 High, yuv420p, 30 fps, ≥ 3 s, overlay burned in), poster and WebP', async () => {
    const frames = await syntheticFrames(8, 1280, 720);
    const outDir = await folder('boomerang');
    const result = await new FfmpegMotionEncoder({ threads: 1 }).encode({
      kind: 'boomerang',
      speed: 1,
      frames,
      fps: 30,
      foreground: await foreground(1800, 1200),
      aspect: { width: 1920, height: 1080 },
      outDir,
      gif: false,
    });
    expect(result.gif).toBeNull();
    const { stream, format } = probe(result.video);
    expect(stream).toMatchObject({
      codec_name: 'h264',
      profile: 'High',
      pix_fmt: 'yuv420p',
      width: 1280,
      height: 720,
      r_frame_rate: '30/1',
    });
    expect(Number(format.duration)).toBeGreaterThanOrEqual(3);
    // +faststart: the index (moov) comes before the media data (mdat).
    const mp4 = await readFile(result.video);
    expect(mp4.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(mp4.indexOf('moov')).toBeLessThan(mp4.indexOf('mdat'));
    // The band at the bottom, the picture above it, in a frame of the second loop too.
    for (const at of [0.2, 2.5]) {
      expect(near(pixelAt(result.video, at, 640, 710), BAND)).toBe(true);
      expect(near(pixelAt(result.video, at, 20, 100), { r: 90, g: 140, b: 90 })).toBe(true);
    }
    const poster = sharp(await readFile(result.poster));
    expect(await poster.metadata()).toMatchObject({ format: 'jpeg', width: 1280, height: 720 });
    const { data } = await poster
      .extract({ left: 640, top: 710, width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(near({ r: data[0]!, g: data[1]!, b: data[2]! }, BAND)).toBe(true);
    const preview = await sharp(await readFile(result.preview), { animated: true }).metadata();
    expect(preview.format).toBe('webp');
    expect(preview.width).toBe(480);
    // Forward then back (14 frames, 0.47 s at 30 fps) at 12 fps: 6 frames.
    expect(preview.pages).toBe(6);
    // The overlay is on every page of the preview (here the last: 480×270, band at the bottom).
    const page = await sharp(await readFile(result.preview), { page: 5 })
      .extract({ left: 240, top: 265, width: 1, height: 1 })
      .raw()
      .toBuffer();
    expect(near({ r: page[0]!, g: page[1]!, b: page[2]! }, BAND)).toBe(true);
    expect(await readdir(outDir)).toEqual(['motion.mp4', 'poster.jpg', 'preview.webp']);
  });

  it('makes a portrait gif kind with a .gif no wider than 480 px', async () => {
    const frames = await syntheticFrames(3, 640, 480);
    const outDir = await folder('gif');
    const result = await new FfmpegMotionEncoder({ threads: 1 }).encode({
      kind: 'gif',
      speed: 2,
      frames,
      fps: 1000 / 750,
      foreground: null,
      aspect: { width: 1080, height: 1920 },
      outDir,
      gif: true,
    });
    const { stream, format } = probe(result.video);
    expect([stream.width, stream.height, stream.profile]).toEqual([720, 1280, 'High']);
    expect(Number(format.duration)).toBeGreaterThanOrEqual(3);
    const gif = await readFile(result.gif as string);
    expect(gif.subarray(0, 4).toString('latin1')).toBe('GIF8');
    const meta = await sharp(gif, { animated: true }).metadata();
    expect(meta.width).toBeLessThanOrEqual(480);
    expect(meta.pages).toBe(3);
  });
});

/** The whole frame playing at `seconds` as raw RGB (ffmpeg). */
function frameAt(file: string, seconds: number): Buffer {
  return execFileSync(
    'ffmpeg',
    [
      ...['-v', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1'],
      ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
}

const RED = { r: 230, g: 20, b: 20 };
const BLUE = { r: 20, g: 40, b: 230 };

/**
 * `count` frames of a 3:2 camera picture (`width`×2/3) with a marked band along its top (red)
 * and its bottom (blue), each `band` of its height, and a dark box moving in the middle.
 */
async function bandedFrames(count: number, width: number, band: number): Promise<string[]> {
  const height = (width * 2) / 3;
  const bandHeight = Math.round(height * band);
  const dir = await folder('banded');
  const files: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const file = path.join(dir, `frame-${String(i + 1).padStart(4, '0')}.jpg`);
    const box = Math.round(height / 5);
    await sharp({ create: { width, height, channels: 3, background: { r: 128, g: 128, b: 128 } } })
      .composite([
        {
          input: { create: { width, height: bandHeight, channels: 3, background: RED } },
          top: 0,
          left: 0,
        },
        {
          input: { create: { width, height: bandHeight, channels: 3, background: BLUE } },
          top: height - bandHeight,
          left: 0,
        },
        {
          input: { create: { width: box, height: box, channels: 3, background: '#202020' } },
          left: Math.round(((width - box) * i) / Math.max(1, count - 1)),
          top: Math.round((height - box) / 2),
        },
      ])
      .jpeg({ quality: 95 })
      .toFile(file);
    files.push(file);
  }
  return files;
}

/** Rows of `frame` (RGB, `width` wide) from the top (or the bottom) whose pixel in column `x` is `colour`. */
function bandRows(
  frame: Buffer,
  width: number,
  height: number,
  x: number,
  colour: typeof RED,
  from: 'top' | 'bottom',
) {
  let rows = 0;
  for (let step = 0; step < height; step += 1) {
    const y = from === 'top' ? step : height - 1 - step;
    const i = (y * width + x) * 3;
    if (!near({ r: frame[i]!, g: frame[i + 1]!, b: frame[i + 2]! }, colour, 60)) break;
    rows += 1;
  }
  return rows;
}

describe('framing a clip by the template slot (issue 38)', () => {
  it("a 3:2 camera's boomerang in a 3:2 slot keeps the whole picture: both bands, top and bottom", async () => {
    // 960×640, bands of 10 % (64 px) each.
    const frames = await bandedFrames(6, 960, 0.1);
    const outDir = await folder('banded-3-2');
    const result = await new FfmpegMotionEncoder({ threads: 1 }).encode({
      kind: 'boomerang',
      speed: 1,
      frames,
      fps: 30,
      foreground: null,
      // The one-photo layout's slot (2880×1920: 3:2).
      aspect: { width: 2880, height: 1920 },
      outDir,
      gif: false,
    });
    const { stream } = probe(result.video);
    expect(stream).toMatchObject({ codec_name: 'h264', profile: 'High', pix_fmt: 'yuv420p' });
    // 3:2 at 1280 wide, even on both sides.
    expect([stream.width, stream.height]).toEqual([1280, 854]);
    expect([result.width, result.height]).toEqual([1280, 854]);
    const mp4 = await readFile(result.video);
    expect(mp4.indexOf('moov')).toBeLessThan(mp4.indexOf('mdat'));
    const [w, h] = [1280, 854];
    const frame = frameAt(result.video, 0.1);
    expect(frame.length).toBe(w * h * 3);
    // The picture scaled by 1280/960: each band is 64 × 4/3 ≈ 85 px, and both are whole.
    for (const x of [20, 640, 1260]) {
      expect(bandRows(frame, w, h, x, RED, 'top')).toBeGreaterThanOrEqual(80);
      expect(bandRows(frame, w, h, x, BLUE, 'bottom')).toBeGreaterThanOrEqual(80);
      expect(bandRows(frame, w, h, x, RED, 'top')).toBeLessThanOrEqual(90);
      expect(bandRows(frame, w, h, x, BLUE, 'bottom')).toBeLessThanOrEqual(90);
    }
    // The poster is the clip's size and keeps both bands too.
    const poster = await sharp(await readFile(result.poster))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([poster.info.width, poster.info.height]).toEqual([w, h]);
    expect(bandRows(poster.data, w, h, 640, RED, 'top')).toBeGreaterThanOrEqual(80);
    expect(bandRows(poster.data, w, h, 640, BLUE, 'bottom')).toBeGreaterThanOrEqual(80);
  });

  it('a slot of another shape crops the middle: as much off the top as off the bottom', async () => {
    // 960×640 with 15 % bands (96 px); a 16:9 slot keeps 960×540 of it: 50 px off each side.
    const frames = await bandedFrames(4, 960, 0.15);
    const wide = await new FfmpegMotionEncoder({ threads: 1 }).encode({
      kind: 'boomerang',
      speed: 1,
      frames,
      fps: 30,
      foreground: null,
      aspect: { width: 1920, height: 1080 },
      outDir: await folder('banded-16-9'),
      gif: false,
    });
    expect([wide.width, wide.height]).toEqual([1280, 720]);
    const frame = frameAt(wide.video, 0.1);
    const top = bandRows(frame, 1280, 720, 640, RED, 'top');
    const bottom = bandRows(frame, 1280, 720, 640, BLUE, 'bottom');
    // (96 − 50) × 4/3 ≈ 61 px of each band is left.
    expect(top).toBeGreaterThan(50);
    expect(Math.abs(top - bottom)).toBeLessThanOrEqual(3);

    // A portrait slot (2:3) crops the sides instead, and keeps both bands whole.
    const tall = await new FfmpegMotionEncoder({ threads: 1 }).encode({
      kind: 'boomerang',
      speed: 1,
      frames,
      fps: 30,
      foreground: null,
      aspect: { width: 1080, height: 1620 },
      outDir: await folder('banded-2-3'),
      gif: false,
    });
    expect([tall.width, tall.height]).toEqual([854, 1280]);
    const tallFrame = frameAt(tall.video, 0.1);
    // 640 px of height scaled to 1280: each band 96 × 2 = 192 px.
    expect(bandRows(tallFrame, 854, 1280, 427, RED, 'top')).toBeGreaterThanOrEqual(186);
    expect(bandRows(tallFrame, 854, 1280, 427, BLUE, 'bottom')).toBeGreaterThanOrEqual(186);
  });

  it("a template without a print slot keeps the camera's own shape", async () => {
    const frames = await bandedFrames(3, 960, 0.1);
    const result = await new FfmpegMotionEncoder({ threads: 1 }).encode({
      kind: 'gif',
      speed: 1,
      frames,
      fps: 1000 / 750,
      foreground: null,
      aspect: null,
      outDir: await folder('banded-own'),
      gif: true,
    });
    expect([result.width, result.height]).toEqual([1280, 854]);
    const gif = await sharp(await readFile(result.gif!), { animated: true }).metadata();
    expect([gif.width, gif.pageHeight]).toEqual([480, 320]);
  });
});

describe('sharpestFrame', () => {
  it('picks the sharp frame among blurred ones', async () => {
    const [a, b, c] = await syntheticFrames(3, 640, 360);
    const blurred = async (file: string) => {
      const out = file.replace('.jpg', '-blur.jpg');
      await sharp(file).blur(6).toFile(out);
      return out;
    };
    expect(await sharpestFrame([await blurred(a!), b!, await blurred(c!)])).toBe(b);
  });
});

const request = (
  mode: 'clip' | 'burst',
  dir: string,
  more: Partial<MotionRequest> = {},
): MotionRequest => ({
  mode,
  count: 3,
  intervalMs: 100,
  seconds: 0.5,
  fps: 30,
  size: { width: 640, height: 360 },
  dir,
  ...more,
});

describe('cameras record motion', () => {
  it('simulated: distinct frames of the asked size', async () => {
    const dir = await folder('simulated');
    const { frames, fps } = await new SimulatedCamera({ realTime: false }).record(
      request('clip', dir),
    );
    expect([frames.length, fps]).toEqual([15, 30]);
    const [first, last] = [await readFile(frames[0]!), await readFile(frames.at(-1)!)];
    expect(first.equals(last)).toBe(false);
    expect(await sharp(first).metadata()).toMatchObject({
      format: 'jpeg',
      width: 640,
      height: 360,
    });
  });

  it('folder: a burst of its photos, a clip zooming into one', async () => {
    const photos = await folder('photos');
    for (const [i, colour] of ['#aa3333', '#33aa33'].entries()) {
      await sharp({ create: { width: 900, height: 600, channels: 3, background: colour } })
        .composite([
          {
            input: { create: { width: 100, height: 100, channels: 3, background: '#000' } },
            left: 100,
            top: 100,
          },
        ])
        .jpeg()
        .toFile(path.join(photos, `p${i}.jpg`));
    }
    const camera = new FolderCamera(photos);
    const burst = await camera.record(request('burst', await folder('burst')));
    expect(burst.frames).toHaveLength(3);
    expect(burst.fps).toBe(10);
    const clip = await camera.record(request('clip', await folder('clip')));
    expect(clip.frames).toHaveLength(15);
    const [first, last] = [await readFile(clip.frames[0]!), await readFile(clip.frames.at(-1)!)];
    expect(first.equals(last)).toBe(false);
  });

  it('webcam: ffmpeg records numbered frames after the warm-up (test source)', async () => {
    const camera = new WebcamCamera({
      format: 'lavfi',
      device: 'testsrc2=size=640x360:rate=30',
      size: { width: 640, height: 360 },
      warmupFrames: 2,
    });
    const dir = await folder('webcam');
    const clip = await camera.record(request('clip', dir));
    expect(clip.frames.map((f) => path.basename(f))).toEqual(
      Array.from({ length: 15 }, (_, i) => `frame-${String(i + 1).padStart(4, '0')}.jpg`),
    );
    const burst = await camera.record(request('burst', await folder('webcam-burst')));
    expect([burst.frames.length, burst.fps]).toEqual([3, 10]);
    expect(camera.recordArgs(request('clip', dir))).toEqual(
      expect.arrayContaining(['-vf', 'select=gte(n\\,2),fps=fps=30', '-frames:v', '15']),
    );
  });
});

/** A stand-in program (sh) recording its arguments to calls.txt beside it. */
async function fakeProgram(name: string, body: string) {
  const dir = await folder(`fake-${name}`);
  const command = path.join(dir, name);
  await writeFile(command, `#!/bin/sh\nprintf '%s\\n' "$@" -- >> "${dir}/calls.txt"\n${body}\n`);
  await chmod(command, 0o755);
  const calls = async () =>
    (await readFile(path.join(dir, 'calls.txt'), 'utf8').catch(() => ''))
      .split('--\n')
      .filter(Boolean)
      .map((call) => call.trimEnd().split('\n'));
  return { command, calls };
}

describe('gphoto2 records motion', () => {
  it("splits the camera's live-view movie (motion JPEG) into frames at the rate it came", async () => {
    const stills = await syntheticFrames(4, 640, 426);
    const movie = path.join(root, 'movie.mjpg');
    await writeFile(movie, Buffer.concat(await Promise.all(stills.map((f) => readFile(f)))));
    // gphoto2 writes movie.mjpg where it runs.
    const fake = await fakeProgram('gphoto2', `cp "${movie}" movie.mjpg`);
    const camera = new Gphoto2Camera({ command: fake.command, port: 'usb:001,004' });
    const dir = await folder('gphoto2');
    const clip = await camera.record(request('clip', dir, { seconds: 2 }));
    expect(clip.frames).toHaveLength(4);
    expect(clip.fps).toBe(2);
    // A 1.5-s clip: gphoto2 records 2 s, the first 1.5 s (3 of 4 frames) are kept.
    const shorter = await camera.record(request('clip', await folder('g-short'), { seconds: 1.5 }));
    expect([shorter.frames.length, shorter.fps]).toEqual([3, 2]);
    expect((await readFile(clip.frames[1]!)).equals(await readFile(stills[1]!))).toBe(true);
    expect(await fake.calls()).toEqual([
      ['--port=usb:001,004', '--capture-movie=2s'],
      ['--port=usb:001,004', '--capture-movie=2s'],
    ]);
  });

  it('takes a burst as stills, and a clip as stills when the camera has no live view', async () => {
    const [still] = await syntheticFrames(1, 1500, 1000);
    const fake = await fakeProgram(
      'gphoto2',
      `for a in "$@"; do case "$a" in --capture-movie=*) echo "*** Error (-6: 'Unsupported operation') ***" >&2; exit 1;; --filename=*) f="\${a#--filename=}";; esac; done
f=$(printf '%s' "$f" | sed -e 's/%n/1/' -e 's/%C/jpg/')
cp "${still}" "$f"`,
    );
    const camera = new Gphoto2Camera({ command: fake.command });
    const burst = await camera.record(
      request('burst', await folder('g-burst'), { intervalMs: 10 }),
    );
    expect(burst.frames).toHaveLength(3);
    const clip = await camera.record(request('clip', await folder('g-clip'), { seconds: 0.2 }));
    expect(clip.frames.length).toBeGreaterThan(0);
    const calls = await fake.calls();
    expect(calls.filter((c) => c.includes('--capture-image-and-download')).length).toBe(
      3 + clip.frames.length,
    );
  });
});

describe('rpicam records motion', () => {
  it('records a clip with rpicam-vid (one JPEG per frame) and a burst with rpicam-still --timelapse', async () => {
    const [still] = await syntheticFrames(1, 640, 360);
    // Both write a few numbered files to the --output pattern.
    const writes = `for a in "$@"; do [ "$prev" = --output ] && out="$a"; prev="$a"; done
for n in 0 1 2; do cp "${still}" "$(printf "$out" "$n")"; done`;
    const vid = await fakeProgram('rpicam-vid', writes);
    const stillProgram = await fakeProgram('rpicam-still', writes);
    const camera = new RpicamCamera({
      command: stillProgram.command,
      videoCommand: vid.command,
      warmupMs: 500,
    });
    const clipDir = await folder('rpicam-clip');
    const clip = await camera.record(request('clip', clipDir));
    expect([clip.frames.length, clip.fps]).toEqual([3, 30]);
    expect((await vid.calls())[0]).toEqual([
      ...[
        '--nopreview',
        '--width',
        '640',
        '--height',
        '360',
        '--codec',
        'mjpeg',
        '--quality',
        '90',
      ],
      ...['--segment', '1', '--framerate', '30', '--frames', '15', '--timeout', '1000'],
      ...['--output', path.join(clipDir, 'frame-%04d.jpg')],
    ]);
    const burst = await camera.record(request('burst', await folder('rpicam-burst')));
    expect([burst.frames.length, burst.fps]).toEqual([3, 10]);
    expect((await stillProgram.calls())[0]).toEqual(
      expect.arrayContaining(['--timelapse', '100', '--framestart', '1', '--timeout', '750']),
    );
  });
});
