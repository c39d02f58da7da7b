import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import {
  type Camera,
  frameName,
  type MotionRecording,
  type MotionRequest,
  requestedFrames,
} from './camera.js';

/** How far a clip zooms in over its length (a slow push towards the middle). */
const CLIP_ZOOM = 1.15;

const PHOTO_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png']);

// Natural order, so shot-2 comes before shot-10 as a photographer numbering files expects.
const byName = new Intl.Collator('en', { numeric: true }).compare;

/**
 * A camera that "takes" the photos found in a folder, in name order, starting again from the
 * first when it runs out. Successive sessions continue where the last one stopped, so a demo
 * booth shows varied prints. The folder is listed on every capture: photos dropped in while
 * the agent runs are used without a restart. Its motion: a burst is the next photos in turn; a
 * clip is the next photo with a slow zoom towards its middle, so every frame differs.
 */
export class FolderCamera implements Camera {
  readonly driver = 'folder';
  private next = 0;

  constructor(private readonly dir: string) {}

  private async photos(): Promise<string[]> {
    const entries = await readdir(this.dir, { withFileTypes: true }).catch((error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        throw new Error(`FolderCamera: photo folder "${this.dir}" does not exist`, {
          cause: error,
        });
      }
      throw error;
    });
    const names = entries
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name)
      .filter((name) => PHOTO_EXTENSIONS.has(path.extname(name).toLowerCase()))
      .sort(byName);
    if (names.length === 0) {
      throw new Error(`FolderCamera: no JPG or PNG photos in "${this.dir}"`);
    }
    return names;
  }

  /** `index` is the shot number within the session; the folder's own order decides the photo. */
  async capture(_index: number): Promise<Buffer> {
    const names = await this.photos();
    // photos() never returns an empty list, so the index is always in range.
    const name = names[this.next % names.length] as string;
    this.next += 1;
    return readFile(path.join(this.dir, name));
  }

  async record(request: MotionRequest): Promise<MotionRecording> {
    const { width, height } = request.size;
    const count = requestedFrames(request);
    const frames: string[] = [];
    const write = async (index: number, image: sharp.Sharp) => {
      const file = path.join(request.dir, frameName(index));
      await image.jpeg({ quality: 88 }).toFile(file);
      frames.push(file);
    };
    if (request.mode === 'burst') {
      for (let index = 0; index < count; index += 1) {
        const photo = await this.capture(index);
        await write(index, sharp(photo).resize(width, height, { fit: 'cover' }));
      }
      return { frames, fps: 1000 / request.intervalMs };
    }
    // The photo is decoded once, at the size of the widest view; each frame crops a little less.
    const big = { width: Math.round(width * CLIP_ZOOM), height: Math.round(height * CLIP_ZOOM) };
    const pixels = await sharp(await this.capture(0))
      .resize(big.width, big.height, { fit: 'cover' })
      .removeAlpha()
      .raw()
      .toBuffer();
    for (let index = 0; index < count; index += 1) {
      const zoom = 1 + ((CLIP_ZOOM - 1) * index) / Math.max(1, count - 1);
      const w = Math.round(big.width / zoom);
      const h = Math.round(big.height / zoom);
      const view = sharp(pixels, { raw: { ...big, channels: 3 } })
        .extract({
          left: Math.floor((big.width - w) / 2),
          top: Math.floor((big.height - h) / 2),
          width: w,
          height: h,
        })
        .resize(width, height);
      await write(index, view);
    }
    return { frames, fps: request.fps };
  }
}
