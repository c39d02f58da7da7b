import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FolderCamera } from './folder-camera.js';

const tempDir = () => mkdtemp(path.join(os.tmpdir(), 'flashbooth-agent-'));

describe('FolderCamera', () => {
  it('returns the folder photos in natural name order and starts over', async () => {
    const dir = await tempDir();
    for (const name of ['shot-10.jpg', 'shot-2.jpg', 'notes.txt', 'shot-1.png']) {
      await writeFile(path.join(dir, name), name);
    }
    const camera = new FolderCamera(dir);
    const taken = [];
    for (let i = 0; i < 4; i += 1) taken.push((await camera.capture(i)).toString());
    expect(taken).toEqual(['shot-1.png', 'shot-2.jpg', 'shot-10.jpg', 'shot-1.png']);
  });

  it('says clearly when the folder is empty or missing', async () => {
    await expect(new FolderCamera(await tempDir()).capture(0)).rejects.toThrow(
      /no JPG or PNG photos/,
    );
    await expect(new FolderCamera('/nonexistent/flashbooth').capture(0)).rejects.toThrow(
      /does not exist/,
    );
  });
});
