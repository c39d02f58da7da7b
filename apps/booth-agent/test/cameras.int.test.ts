import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptureCommandPayload } from '@flashbooth/contracts';
import { Gphoto2Camera } from '../src/camera/gphoto2-camera.js';
import { RpicamCamera } from '../src/camera/rpicam-camera.js';
import { WebcamCamera } from '../src/camera/webcam-camera.js';
import { sessionFailureMessage } from '../src/reports.js';

// The drivers run child processes: the real ffmpeg (with its test source standing in for a USB
// camera) and stand-in gphoto2 / rpicam-still scripts that record their arguments, write a JPEG
// or fail with the real programs' error text.

const onPath = (program: string): boolean => {
  try {
    execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

let root: string;
let jpeg: string;
let png: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'flashbooth-cameras-'));
  jpeg = path.join(root, 'photo.jpg');
  png = path.join(root, 'photo.png');
  const photo = sharp({
    create: { width: 1500, height: 1000, channels: 3, background: { r: 200, g: 80, b: 40 } },
  });
  await photo.clone().jpeg().toFile(jpeg);
  await photo.clone().png().toFile(png);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/**
 * A fake program in its own folder: `body` is sh; "$DIR" is its folder, where every call's
 * arguments are appended to calls.txt (one per line, a "--" line after each call) and
 * `count` holds the number of calls so far.
 */
async function fakeProgram(
  name: string,
  body: string,
): Promise<{ command: string; calls: () => Promise<string[][]> }> {
  const dir = await mkdtemp(path.join(root, `${name}-`));
  const command = path.join(dir, name);
  await writeFile(
    command,
    [
      '#!/bin/sh',
      'DIR=$(dirname "$0")',
      `printf '%s\\n' "$@" -- >> "$DIR/calls.txt"`,
      'n=$(cat "$DIR/count" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > "$DIR/count"',
      body,
      '',
    ].join('\n'),
  );
  await chmod(command, 0o755);
  const calls = async () => {
    const text = await readFile(path.join(dir, 'calls.txt'), 'utf8').catch(() => '');
    return text
      .split('--\n')
      .filter((call) => call.length > 0)
      .map((call) => call.trimEnd().split('\n'));
  };
  return { command, calls };
}

// gphoto2 writes to the --filename pattern; %n is the file's number, %C the camera's suffix.
const GPHOTO2_WRITE = (source: string, suffix = 'jpg') => `
for a in "$@"; do case "$a" in --filename=*) f="\${a#--filename=}";; esac; done
f=$(printf '%s' "$f" | sed -e 's/%n/1/' -e 's/%C/${suffix}/')
cp "${source}" "$f"
echo "New file is in location /capt0000.jpg on the camera"
echo "Saving file as $f"`;

const GPHOTO2_PLEA = `
echo "For debugging messages, please use the --debug option."
echo "Please make sure there is sufficient quoting around the arguments."`;

const gphoto2Fails = (lines: string[]) =>
  `printf '%s\\n' ${lines.map((line) => `'${line.replace(/'/g, `'\\''`)}'`).join(' ')} >&2${GPHOTO2_PLEA}\nexit 1`;

const NO_CAMERA = [
  '*** Error ***',
  'Could not detect any camera',
  "*** Error (-105: 'Unknown model') ***",
];
const CLAIM_FAILED = [
  '*** Error ***',
  "An error occurred in the io-library ('Could not claim the USB device'): Could not claim interface 0 (Device or resource busy). Make sure no other program (gvfs-gphoto2-volume-monitor) or kernel module (such as sdc2xx, stv680, spca50x) is using the device and you have read/write access to the device.",
  "*** Error (-53: 'Could not claim the USB device') ***",
];
const NO_FOCUS = [
  '*** Error ***',
  'Canon EOS Capture failed to release: Perhaps no focus?',
  'ERROR: Could not capture image.',
  'ERROR: Could not capture.',
  "*** Error (-1: 'Unspecified error') ***",
];
const CARD_FULL = [
  '*** Error ***',
  'PTP Store Full',
  'ERROR: Could not capture image.',
  'ERROR: Could not capture.',
  "*** Error (-1: 'Unspecified error') ***",
];

describe('Gphoto2Camera', () => {
  it('captures and downloads one JPEG with the configured port and model', async () => {
    const fake = await fakeProgram('gphoto2', GPHOTO2_WRITE(jpeg));
    const camera = new Gphoto2Camera({
      command: fake.command,
      port: 'usb:001,004',
      model: 'Canon EOS 100D',
    });
    const photo = await camera.capture(2);
    expect(photo.equals(await readFile(jpeg))).toBe(true);
    const [call, ...more] = await fake.calls();
    expect(more).toEqual([]);
    expect(call?.slice(0, 4)).toEqual([
      '--port=usb:001,004',
      '--camera=Canon EOS 100D',
      '--capture-image-and-download',
      expect.stringMatching(/^--filename=\/.*\/shot-3-%n\.%C$/),
    ]);
    expect(call?.slice(4)).toEqual(['--force-overwrite']);
  });

  it('uses the JPEG of a RAW+JPEG pair and says so when there is only RAW', async () => {
    const both = await fakeProgram(
      'gphoto2',
      `${GPHOTO2_WRITE(jpeg)}\n${GPHOTO2_WRITE(png, 'cr2').replace('%n/1', '%n/2')}`,
    );
    expect(
      (await new Gphoto2Camera({ command: both.command }).capture(0)).equals(await readFile(jpeg)),
    ).toBe(true);
    const raw = await fakeProgram('gphoto2', GPHOTO2_WRITE(png, 'cr2'));
    await expect(new Gphoto2Camera({ command: raw.command }).capture(0)).rejects.toThrow(
      'The camera saved no JPEG (only shot-1-1.cr2): set its image quality to JPEG or RAW+JPEG',
    );
  });

  it('says how to connect the camera when none is found, without a reset', async () => {
    const fake = await fakeProgram('gphoto2', gphoto2Fails(NO_CAMERA));
    await expect(
      new Gphoto2Camera({ command: fake.command, port: 'usb:001,004' }).capture(0),
    ).rejects.toThrow(
      /^No camera found on port usb:001,004: check that the camera is switched on, plugged in by USB and in PC\/PTP mode \(`gphoto2 --auto-detect` should list it\)$/,
    );
    expect(await fake.calls()).toHaveLength(1);
  });

  it('resets a busy camera and tries the shot once more', async () => {
    // Call 1: the capture fails; call 2: the reset; call 3: the capture works.
    const fake = await fakeProgram(
      'gphoto2',
      `case "$n" in\n1) ${gphoto2Fails(CLAIM_FAILED)} ;;\n2) exit 0 ;;\nesac\n${GPHOTO2_WRITE(jpeg)}`,
    );
    const photo = await new Gphoto2Camera({ command: fake.command, port: 'usb:001,004' }).capture(
      0,
    );
    expect(photo.equals(await readFile(jpeg))).toBe(true);
    const calls = await fake.calls();
    expect(calls.map((call) => call.filter((arg) => !arg.startsWith('--filename=')))).toEqual([
      ['--port=usb:001,004', '--capture-image-and-download', '--force-overwrite'],
      ['--port=usb:001,004', '--reset'],
      ['--port=usb:001,004', '--capture-image-and-download', '--force-overwrite'],
    ]);
  });

  it('gives up after one retry and says what holds the camera', async () => {
    const fake = await fakeProgram(
      'gphoto2',
      `[ "$n" = 2 ] && exit 0\n${gphoto2Fails(CLAIM_FAILED)}`,
    );
    await expect(new Gphoto2Camera({ command: fake.command }).capture(0)).rejects.toThrow(
      /^The camera is busy or held by another program, even after a USB reset: close other photo programs/,
    );
    expect(await fake.calls()).toHaveLength(3);
  });

  it('tells a focus failure and a full card apart, without retrying', async () => {
    const focus = await fakeProgram('gphoto2', gphoto2Fails(NO_FOCUS));
    await expect(new Gphoto2Camera({ command: focus.command }).capture(0)).rejects.toThrow(
      'The camera could not focus: make sure there is light and a subject in front of the lens, or switch the lens to manual focus',
    );
    expect(await focus.calls()).toHaveLength(1);
    const full = await fakeProgram('gphoto2', gphoto2Fails(CARD_FULL));
    await expect(new Gphoto2Camera({ command: full.command }).capture(0)).rejects.toThrow(
      "The camera's memory card is full: empty it or insert another card",
    );
  });

  it("puts its words into the capture's report for the device's error log", async () => {
    const fake = await fakeProgram('gphoto2', gphoto2Fails(CARD_FULL));
    const error = await new Gphoto2Camera({ command: fake.command })
      .capture(1)
      .catch((e: unknown) => e);
    const capture = {
      capture_id: 'c-7',
      template: { id: 3, name: 'Classic' },
      total_captures: 3,
    } as CaptureCommandPayload;
    const report = sessionFailureMessage(
      capture,
      { stage: 'camera', photo: 1, delivered: [] },
      error,
    );
    expect(report).toMatch(
      /^Capture c-7 failed: the camera did not take photo 2 of 3 \(The camera's memory card is full: empty it or insert another card[:)]/,
    );
  });

  it('stops a shot that hangs', async () => {
    const fake = await fakeProgram('gphoto2', 'exec sleep 20');
    await expect(
      new Gphoto2Camera({ command: fake.command, timeoutMs: 300 }).capture(0),
    ).rejects.toThrow(
      /^The camera did not take the photo within 0.3 s: it may be unable to focus or stuck/,
    );
    expect(await fake.calls()).toHaveLength(1);
  });

  it('refuses what is not a JPEG and names a missing gphoto2', async () => {
    const text = await fakeProgram(
      'gphoto2',
      `for a in "$@"; do case "$a" in --filename=*) f="\${a#--filename=}";; esac; done\necho 'not a photo' > "$(printf '%s' "$f" | sed -e 's/%n/1/' -e 's/%C/jpg/')"`,
    );
    await expect(new Gphoto2Camera({ command: text.command }).capture(0)).rejects.toThrow(
      /^The camera gave back a file that is not an image/,
    );
    const small = await fakeProgram('gphoto2', GPHOTO2_WRITE(jpeg));
    await expect(
      new Gphoto2Camera({ command: small.command, minShortSide: 1080 }).capture(0),
    ).rejects.toThrow(
      'The camera gave back a 1500x1000 photo, too small to print: set the camera to its largest JPEG size',
    );
    await expect(
      new Gphoto2Camera({ command: path.join(root, 'no-such-gphoto2') }).capture(0),
    ).rejects.toThrow('gphoto2 is not installed: run `sudo apt-get install gphoto2`');
  });

  it.skipIf(!onPath('gphoto2'))('reads the real gphoto2 when no camera is connected', async () => {
    // CI machines have no camera: Debian's gphoto2 says so in its own words.
    await expect(new Gphoto2Camera().capture(0)).rejects.toThrow(
      /^No camera found: check that the camera is switched on/,
    );
  });

  it('finds gphoto2 on PATH by default', async () => {
    const fake = await fakeProgram('gphoto2', GPHOTO2_WRITE(jpeg));
    const saved = process.env.PATH;
    process.env.PATH = `${path.dirname(fake.command)}:${saved ?? ''}`;
    try {
      expect((await new Gphoto2Camera().capture(0)).length).toBeGreaterThan(0);
    } finally {
      process.env.PATH = saved;
    }
    expect(await fake.calls()).toHaveLength(1);
  });
});

describe('RpicamCamera', () => {
  const RPICAM_WRITE = (source: string) =>
    `while [ $# -gt 0 ]; do [ "$1" = --output ] && f="$2"; shift; done\ncp "${source}" "$f"`;

  it('takes a photo of the configured size and quality', async () => {
    const fake = await fakeProgram('rpicam-still', RPICAM_WRITE(jpeg));
    const camera = new RpicamCamera({
      command: fake.command,
      size: { width: 1500, height: 1000 },
      quality: 90,
      warmupMs: 500,
      cameraIndex: 1,
    });
    expect((await camera.capture(0)).equals(await readFile(jpeg))).toBe(true);
    const [call] = await fake.calls();
    expect(call).toEqual([
      '--camera',
      '1',
      '--nopreview',
      '--width',
      '1500',
      '--height',
      '1000',
      '--quality',
      '90',
      '--timeout',
      '500',
      '--encoding',
      'jpg',
      '--output',
      expect.stringMatching(/^\/.*\/shot-1\.jpg$/),
    ]);
  });

  it('refuses a photo of another size, or not a JPEG', async () => {
    const fake = await fakeProgram('rpicam-still', RPICAM_WRITE(jpeg));
    await expect(new RpicamCamera({ command: fake.command }).capture(0)).rejects.toThrow(
      'The Raspberry Pi camera gave back a 1500x1000 photo instead of 2028x1520: choose a size the camera supports',
    );
    const pngFake = await fakeProgram('rpicam-still', RPICAM_WRITE(png));
    await expect(
      new RpicamCamera({ command: pngFake.command, size: { width: 1500, height: 1000 } }).capture(
        0,
      ),
    ).rejects.toThrow('The Raspberry Pi camera gave back a png image instead of a JPEG');
  });

  it('says when no camera is connected', async () => {
    const fake = await fakeProgram(
      'rpicam-still',
      `echo '[0:00:01.000] [1234]  INFO Camera camera_manager.cpp:325 libcamera v0.3.0+rpt20240617' >&2\necho 'ERROR: *** no cameras available ***' >&2\nexit 255`,
    );
    await expect(new RpicamCamera({ command: fake.command }).capture(0)).rejects.toThrow(
      /^No Raspberry Pi camera found: check that the ribbon cable is seated/,
    );
  });

  it('stops a shot that hangs', async () => {
    const fake = await fakeProgram('rpicam-still', 'exec sleep 20');
    await expect(
      new RpicamCamera({ command: fake.command, warmupMs: 0, timeoutMs: 300 }).capture(0),
    ).rejects.toThrow(/^The Raspberry Pi camera gave no picture within 0.3 s/);
    // A warm-up of 0 would make rpicam-still run until stopped.
    const [call] = await fake.calls();
    expect(call?.[call.indexOf('--timeout') + 1]).toBe('1');
  });
});

describe('WebcamCamera with the real ffmpeg', () => {
  // ffmpeg's test source stands in for the USB camera (BOOTH_WEBCAM_FORMAT=lavfi).
  const testSource = (size: string) => ({
    format: 'lavfi',
    device: `testsrc2=size=${size}:rate=30`,
    warmupFrames: 3,
  });

  it('takes one JPEG frame of the configured size after the warm-up', async () => {
    const camera = new WebcamCamera({
      ...testSource('1280x720'),
      size: { width: 1280, height: 720 },
    });
    const photo = await camera.capture(0);
    const meta = await sharp(photo).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1280, 720]);
  });

  it('says when the camera gives another size than configured', async () => {
    const camera = new WebcamCamera({
      ...testSource('640x480'),
      size: { width: 1280, height: 720 },
    });
    await expect(camera.capture(0)).rejects.toThrow(
      'The webcam testsrc2=size=640x480:rate=30 gave back a 640x480 photo instead of 1280x720',
    );
  });

  it('says when there is no camera at the device', async () => {
    const camera = new WebcamCamera({ device: '/dev/video-flashbooth-none' });
    await expect(camera.capture(0)).rejects.toThrow(
      /^No webcam at \/dev\/video-flashbooth-none: check that it is plugged in/,
    );
  });

  it('names a missing ffmpeg', async () => {
    const camera = new WebcamCamera({ command: path.join(root, 'no-such-ffmpeg') });
    await expect(camera.capture(0)).rejects.toThrow(
      'ffmpeg is not installed: run `sudo apt-get install ffmpeg`',
    );
  });
});
