import { samplePhoto } from '@flashbooth/print-composition';
import type { Camera } from './camera.js';

export interface SimulatedCameraOptions {
  /** Photo size; the default is the 3:2 slot size of the landscape3 layout. */
  width?: number;
  height?: number;
  /** Clock for the timestamp stamped on each photo (tests pin it). */
  now?: () => Date;
}

/**
 * The default camera of a booth without hardware (DESIGN 1): each shot is a distinct,
 * recognisable picture (`samplePhoto`: its own colours, the shot number, a person's silhouette,
 * the time), so a print shows at a glance that every slot got the right photo.
 */
export class SimulatedCamera implements Camera {
  readonly driver = 'simulated';
  private readonly width: number;
  private readonly height: number;
  private readonly now: () => Date;

  constructor(options: SimulatedCameraOptions = {}) {
    this.width = options.width ?? 1620;
    this.height = options.height ?? 1080;
    this.now = options.now ?? (() => new Date());
  }

  capture(index: number): Promise<Buffer> {
    return samplePhoto(index, { width: this.width, height: this.height, takenAt: this.now() });
  }
}
