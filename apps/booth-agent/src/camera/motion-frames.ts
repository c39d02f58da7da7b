import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { sleep } from '../time.js';
import {
  type Camera,
  frameName,
  type MotionRecording,
  type MotionRequest,
  requestedFrames,
} from './camera.js';

/** Stills a camera without a video mode takes for a clip: as many as it can in the clip's time. */
const MAX_STILLS_FOR_A_CLIP = 8;

/** A still as a JPEG (cameras may give PNG), for a frame file. */
export async function asJpeg(photo: Buffer): Promise<Buffer> {
  const isJpeg = photo.length > 2 && photo[0] === 0xff && photo[1] === 0xd8;
  return isJpeg ? photo : sharp(photo).jpeg({ quality: 90 }).toBuffer();
}

/**
 * Motion from a camera that only takes stills: `count` stills `intervalMs` apart for a burst;
 * for a clip, a few stills spread over its length (played at the rate that fills it).
 */
export async function recordWithStills(
  camera: Pick<Camera, 'capture'>,
  request: MotionRequest,
): Promise<MotionRecording> {
  const clip = request.mode === 'clip';
  const count = clip
    ? Math.min(MAX_STILLS_FOR_A_CLIP, requestedFrames(request))
    : requestedFrames(request);
  const spacing = clip ? (request.seconds * 1000) / count : request.intervalMs;
  const frames: string[] = [];
  const start = performance.now();
  for (let index = 0; index < count; index += 1) {
    // Each still on its own beat; a slow camera simply takes them back to back.
    const wait = start + index * spacing - performance.now();
    if (wait > 0) await sleep(wait);
    const file = path.join(request.dir, frameName(index));
    await writeFile(file, await asJpeg(await camera.capture(index)));
    frames.push(file);
  }
  return { frames, fps: clip ? count / request.seconds : 1000 / request.intervalMs };
}

/** The frame files a program wrote into `dir` (frame-0001.jpg …), in order. */
export async function listFrames(dir: string): Promise<string[]> {
  const names = (await readdir(dir)).filter((name) => /^frame-\d+\.jpe?g$/i.test(name)).sort();
  return names.map((name) => path.join(dir, name));
}

/** Records with the camera's own motion mode when it has one, else with stills. */
export function recordMotion(camera: Camera, request: MotionRequest): Promise<MotionRecording> {
  return camera.record ? camera.record(request) : recordWithStills(camera, request);
}
