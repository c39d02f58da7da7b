import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Camera } from './camera.js';

const PHOTO_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png']);

// Natural order, so shot-2 comes before shot-10 as a photographer numbering files expects.
const byName = new Intl.Collator('en', { numeric: true }).compare;

/**
 * A camera that "takes" the photos found in a folder, in name order, starting again from the
 * first when it runs out. Successive sessions continue where the last one stopped, so a demo
 * booth shows varied prints. The folder is listed on every capture: photos dropped in while
 * the agent runs are used without a restart.
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
}
