import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { samplePhoto } from '@flashbooth/print-composition';
import sharp from 'sharp';
import { sleep } from '../time.js';
import {
  type Camera,
  frameName,
  type MotionRecording,
  type MotionRequest,
  requestedFrames,
} from './camera.js';

export interface SimulatedCameraOptions {
  /** Photo size; the default is the 3:2 slot size of the landscape3 layout. */
  width?: number;
  height?: number;
  /** Clock for the timestamp stamped on each photo (tests pin it). */
  now?: () => Date;
  /**
   * Whether a recording takes as long as a real camera's would (the default): the visitor's
   * screen shows the recording for its real length. Tests turn it off.
   */
  realTime?: boolean;
}

/**
 * The default camera of a booth without hardware (DESIGN 1): each shot is a distinct,
 * recognisable picture (`samplePhoto`: its own colours, the shot number, a person's silhouette,
 * the time), so a print shows at a glance that every slot got the right photo. Its motion is
 * the same picture coming alive: a bouncing ball crosses it, changing colour as it goes, so every frame differs from the next and a boomerang's way back is visible.
 */
export class SimulatedCamera implements Camera {
  readonly driver = 'simulated';
  private readonly width: number;
  private readonly height: number;
  private readonly now: () => Date;
  private readonly realTime: boolean;
  /** Recordings so far: each starts from another picture. */
  private recordings = 0;

  constructor(options: SimulatedCameraOptions = {}) {
    this.width = options.width ?? 1620;
    this.height = options.height ?? 1080;
    this.now = options.now ?? (() => new Date());
    this.realTime = options.realTime ?? true;
  }

  capture(index: number): Promise<Buffer> {
    return samplePhoto(index, { width: this.width, height: this.height, takenAt: this.now() });
  }

  async record(request: MotionRequest): Promise<MotionRecording> {
    const { width, height } = request.size;
    const count = requestedFrames(request);
    const burst = request.mode === 'burst';
    const fps = burst ? 1000 / request.intervalMs : request.fps;
    const started = performance.now();
    // The picture is drawn once (drawing its SVG is the slow part) and moved per frame.
    const shot = this.recordings;
    this.recordings += 1;
    const base = await sharp(await samplePhoto(shot, { width, height, takenAt: this.now() }))
      .removeAlpha()
      .raw()
      .toBuffer();
    const radius = Math.round(Math.min(width, height) / 9);
    const ball = (hue: number) =>
      sharp(
        Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="${radius * 2}" height="${radius * 2}">` +
            `<circle cx="${radius}" cy="${radius}" r="${radius - 2}" fill="hsl(${hue}, 90%, 60%)" ` +
            `stroke="#1b1b1b" stroke-width="${Math.max(2, Math.round(radius / 12))}"/></svg>`,
        ),
      )
        .png()
        .toBuffer();
    const frames: string[] = [];
    for (let index = 0; index < count; index += 1) {
      // Over the recording the ball crosses the picture once and bounces three times.
      const t = count > 1 ? index / (count - 1) : 0;
      const left = Math.round(t * (width - 2 * radius));
      const top = Math.round((height - 2 * radius) * (1 - Math.abs(Math.sin(t * Math.PI * 3))));
      const jpeg = await sharp(base, { raw: { width, height, channels: 3 } })
        .composite([{ input: await ball(Math.round(t * 300)), left, top }])
        .jpeg({ quality: 85 })
        .toBuffer();
      const file = path.join(request.dir, frameName(index));
      await writeFile(file, jpeg);
      frames.push(file);
      if (this.realTime) {
        // A real camera delivers frame n at n / fps: no sooner.
        const due = started + ((index + 1) * 1000) / fps - performance.now();
        if (due > 0) await sleep(due);
      }
    }
    return { frames, fps };
  }
}
