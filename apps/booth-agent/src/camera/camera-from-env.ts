import { statSync } from 'node:fs';
import path from 'node:path';
import type { Camera } from './camera.js';
import { formatSize, parseSize, type PhotoSize } from './check-jpeg.js';
import { FolderCamera } from './folder-camera.js';
import { Gphoto2Camera } from './gphoto2-camera.js';
import { DEFAULT_RPICAM_SIZE, RpicamCamera } from './rpicam-camera.js';
import { SimulatedCamera } from './simulated-camera.js';
import { DEFAULT_WEBCAM_SIZE, WebcamCamera } from './webcam-camera.js';

export interface CameraFromEnv {
  /** Undefined when a variable is wrong: `problems` then says which. */
  camera: Camera | undefined;
  /** For the logs and the self-test, e.g. "webcam /dev/video0 1920x1080 mjpeg". */
  description: string;
  /** One line per bad variable, indented like the rest of loadAgentEnv's error. */
  problems: string[];
}

export const CAMERA_DRIVERS = ['simulated', 'folder:<directory>', 'gphoto2', 'webcam', 'rpicam'];

/**
 * The camera chosen by BOOTH_CAMERA and its driver's own variables (apps/booth-agent/docs/
 * cameras.md). Every bad variable is named, so one start shows all that needs fixing.
 */
export function cameraFromEnv(env: NodeJS.ProcessEnv): CameraFromEnv {
  const problems: string[] = [];
  const text = (name: string) => env[name]?.trim() || undefined;
  const size = (name: string, fallback: PhotoSize): PhotoSize => {
    const value = text(name);
    if (value === undefined) return fallback;
    const parsed = parseSize(value);
    if (!parsed) problems.push(`  ${name}: must be WIDTHxHEIGHT, e.g. ${formatSize(fallback)}`);
    return parsed ?? fallback;
  };
  const integer = (name: string, min: number, max: number): number | undefined => {
    const value = text(name);
    if (value === undefined) return undefined;
    const parsed = /^\d+$/.test(value) ? Number(value) : NaN;
    if (!(parsed >= min && parsed <= max)) {
      problems.push(`  ${name}: must be a whole number from ${min} to ${max}`);
      return undefined;
    }
    return parsed;
  };
  // A wedged camera program is stopped after this; the drivers' own defaults suit most cameras.
  const timeoutMs = integer('BOOTH_CAMERA_TIMEOUT_MS', 1000, 600_000);

  const spec = text('BOOTH_CAMERA') ?? 'simulated';
  let camera: Camera | undefined;
  let description = spec;

  if (spec === 'simulated') {
    camera = new SimulatedCamera();
  } else if (spec.startsWith('folder:')) {
    const dir = path.resolve(spec.slice('folder:'.length));
    if (spec === 'folder:') {
      problems.push('  BOOTH_CAMERA: folder: needs a directory, e.g. folder:/home/booth/photos');
    } else if (!isDirectory(dir)) {
      problems.push(`  BOOTH_CAMERA: the folder ${dir} does not exist`);
    } else {
      camera = new FolderCamera(dir);
    }
  } else if (spec === 'gphoto2') {
    const port = text('BOOTH_GPHOTO2_PORT');
    const model = text('BOOTH_GPHOTO2_MODEL');
    // gphoto2 ports look like usb:001,004, usb: or ptpip:192.168.1.20; a leading '-' would be an option.
    if (port !== undefined && !/^[a-z]+:[^\s]*$/i.test(port)) {
      problems.push(
        '  BOOTH_GPHOTO2_PORT: must be a gphoto2 port such as usb:001,004 (`gphoto2 --auto-detect` lists them)',
      );
    }
    if (model !== undefined && model.startsWith('-')) {
      problems.push(
        '  BOOTH_GPHOTO2_MODEL: must be a model name as `gphoto2 --auto-detect` prints it',
      );
    }
    camera = new Gphoto2Camera({ port, model, timeoutMs });
    description = ['gphoto2', port && `port ${port}`, model && `model "${model}"`]
      .filter(Boolean)
      .join(' ');
  } else if (spec === 'webcam') {
    const format = text('BOOTH_WEBCAM_FORMAT') ?? 'v4l2';
    const device = text('BOOTH_WEBCAM_DEVICE') ?? (format === 'v4l2' ? '/dev/video0' : undefined);
    const webcamSize = size('BOOTH_WEBCAM_SIZE', DEFAULT_WEBCAM_SIZE);
    const inputFormat = text('BOOTH_WEBCAM_INPUT_FORMAT') ?? 'mjpeg';
    const warmupFrames = integer('BOOTH_WEBCAM_WARMUP_FRAMES', 0, 300);
    if (!/^[a-z0-9_]+$/i.test(format)) {
      problems.push(
        '  BOOTH_WEBCAM_FORMAT: must be an ffmpeg input format: v4l2, or lavfi for a test source',
      );
    }
    if (device === undefined) {
      problems.push(
        `  BOOTH_WEBCAM_DEVICE: required with BOOTH_WEBCAM_FORMAT=${format}, e.g. testsrc2=size=1280x720:rate=30`,
      );
    } else if (format === 'v4l2' && !device.startsWith('/dev/')) {
      problems.push('  BOOTH_WEBCAM_DEVICE: must be a device such as /dev/video0');
    } else if (device.startsWith('-')) {
      problems.push('  BOOTH_WEBCAM_DEVICE: must not start with "-"');
    }
    if (!/^[a-z0-9_]+$/i.test(inputFormat)) {
      problems.push('  BOOTH_WEBCAM_INPUT_FORMAT: must be a pixel format such as mjpeg or yuyv422');
    }
    camera = new WebcamCamera({
      device,
      format,
      size: webcamSize,
      inputFormat,
      warmupFrames,
      timeoutMs,
    });
    description =
      format === 'v4l2'
        ? `webcam ${device} ${formatSize(webcamSize)} ${inputFormat}`
        : `webcam ${format} ${device ?? ''} ${formatSize(webcamSize)}`;
  } else if (spec === 'rpicam') {
    const rpicamSize = size('BOOTH_RPICAM_SIZE', DEFAULT_RPICAM_SIZE);
    const quality = integer('BOOTH_RPICAM_QUALITY', 1, 100);
    const warmupMs = integer('BOOTH_RPICAM_WARMUP_MS', 1, 60_000);
    const cameraIndex = integer('BOOTH_RPICAM_CAMERA', 0, 15);
    camera = new RpicamCamera({ size: rpicamSize, quality, warmupMs, cameraIndex, timeoutMs });
    description = `rpicam ${formatSize(rpicamSize)}${cameraIndex === undefined ? '' : ` camera ${cameraIndex}`}`;
  } else {
    problems.push(
      '  BOOTH_CAMERA: must be "simulated", "folder:<directory>", "gphoto2", "webcam" or "rpicam"',
    );
  }

  return { camera: problems.length > 0 ? undefined : camera, description, problems };
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
