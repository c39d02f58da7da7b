import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Where the delivery queue keeps its entries: one folder per capture holding named files. The
 * disk version survives a restart and a power cut; the memory version (a booth run without a
 * queue folder, as the tests and the e2e booths do) does not.
 */
export interface QueueFolder {
  /** Where it lives, for logs and the disk check (undefined: memory). */
  readonly dir: string | undefined;
  /** The entries' names, any order; leftovers of an interrupted write are cleared. */
  list(): Promise<string[]>;
  /** Creates `entry` with `files`, all or nothing: after a crash it exists whole or not at all. */
  create(entry: string, files: ReadonlyMap<string, Buffer>): Promise<void>;
  /** Writes (or replaces) one file of an entry; on disk once this resolves. */
  write(entry: string, file: string, data: Buffer): Promise<void>;
  /** One file of an entry; undefined when it does not exist. */
  read(entry: string, file: string): Promise<Buffer | undefined>;
  /** The names and sizes of an entry's files (those in its subfolders as `sub/name`). */
  files(entry: string): Promise<{ name: string; size: number }[]>;
  /**
   * A folder on disk for the entry's files that programs write themselves (a camera's frames,
   * ffmpeg's output): the entry's own folder on disk, a temporary one for the memory queue.
   */
  path(entry: string): Promise<string>;
  /** Deletes an entry. */
  remove(entry: string): Promise<void>;
  /** Moves an entry out of the queue into `rejected/`, kept for a technician. */
  setAside(entry: string): Promise<void>;
}

const TEMP_PREFIX = '.tmp-';
const TRASH_PREFIX = '.trash-';
export const REJECTED_DIR = 'rejected';

/** fsync of a folder: its new and renamed entries survive a power cut. */
async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes and fsyncs a file (not its folder). */
async function writeSynced(file: string, data: Buffer): Promise<void> {
  const handle = await open(file, 'w');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * The queue on disk. Every write is made durable before it resolves: files are written to a
 * temporary name, fsync'd, renamed into place and their folder fsync'd; a new entry is built in
 * a temporary folder and renamed whole into the queue; a removed one is renamed away first, so
 * a half-deleted entry is never read back as a capture.
 */
export class DiskQueueFolder implements QueueFolder {
  constructor(readonly dir: string) {}

  async list(): Promise<string[]> {
    await mkdir(this.dir, { recursive: true });
    const names: string[] = [];
    for (const entry of await readdir(this.dir, { withFileTypes: true })) {
      if (entry.name.startsWith(TEMP_PREFIX) || entry.name.startsWith(TRASH_PREFIX)) {
        await rm(path.join(this.dir, entry.name), { recursive: true, force: true });
        continue;
      }
      if (entry.isDirectory() && entry.name !== REJECTED_DIR && !entry.name.startsWith('.')) {
        names.push(entry.name);
      }
    }
    return names;
  }

  async create(entry: string, files: ReadonlyMap<string, Buffer>): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const temp = path.join(this.dir, `${TEMP_PREFIX}${entry}`);
    await rm(temp, { recursive: true, force: true });
    await mkdir(temp);
    try {
      for (const [name, data] of files) await writeSynced(path.join(temp, name), data);
      await syncDir(temp);
      await rename(temp, path.join(this.dir, entry));
      await syncDir(this.dir);
    } catch (error) {
      await rm(temp, { recursive: true, force: true });
      throw error;
    }
  }

  async write(entry: string, file: string, data: Buffer): Promise<void> {
    const folder = path.join(this.dir, entry);
    const temp = path.join(folder, `${TEMP_PREFIX}${file}.${randomUUID().slice(0, 8)}`);
    try {
      await writeSynced(temp, data);
      await rename(temp, path.join(folder, file));
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    await syncDir(folder);
  }

  async read(entry: string, file: string): Promise<Buffer | undefined> {
    try {
      return await readFile(path.join(this.dir, entry, file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async files(entry: string): Promise<{ name: string; size: number }[]> {
    return filesIn(path.join(this.dir, entry), '');
  }

  path(entry: string): Promise<string> {
    return Promise.resolve(path.join(this.dir, entry));
  }

  async remove(entry: string): Promise<void> {
    const trash = path.join(this.dir, `${TRASH_PREFIX}${entry}`);
    await rename(path.join(this.dir, entry), trash);
    await syncDir(this.dir);
    await rm(trash, { recursive: true, force: true });
  }

  async setAside(entry: string): Promise<void> {
    const rejected = path.join(this.dir, REJECTED_DIR);
    await mkdir(rejected, { recursive: true });
    await rename(path.join(this.dir, entry), path.join(rejected, entry));
    await syncDir(rejected);
    await syncDir(this.dir);
  }
}

/**
 * The files below `folder` with their sizes, named relative to it; leftovers of an interrupted
 * write (temporary names, an encoding cut short) are removed on the way.
 */
async function filesIn(folder: string, prefix: string): Promise<{ name: string; size: number }[]> {
  const found: { name: string; size: number }[] = [];
  for (const item of await readdir(folder, { withFileTypes: true })) {
    const file = path.join(folder, item.name);
    if (item.name.startsWith(TEMP_PREFIX)) {
      await rm(file, { recursive: true, force: true });
      continue;
    }
    if (item.isDirectory()) {
      found.push(...(await filesIn(file, `${prefix}${item.name}/`)));
      continue;
    }
    found.push({ name: `${prefix}${item.name}`, size: (await stat(file)).size });
  }
  return found;
}

/** Temporary folders of memory queues still there, removed when the process exits. */
const leftAtExit = new Set<string>();

function removeAtExit(dir: string): void {
  if (leftAtExit.size === 0) {
    process.once('exit', () => {
      for (const left of leftAtExit) rmSync(left, { recursive: true, force: true });
    });
  }
  leftAtExit.add(dir);
}

/** The queue in memory: the same behaviour, gone with the process. */
export class MemoryQueueFolder implements QueueFolder {
  readonly dir = undefined;
  private readonly entries = new Map<string, Map<string, Buffer>>();
  /** Entries set aside, for tests. */
  readonly rejected = new Map<string, Map<string, Buffer>>();
  /** Temporary folders of entries that needed one (motion captures), removed with them. */
  private readonly folders = new Map<string, Promise<string>>();

  list(): Promise<string[]> {
    return Promise.resolve([...this.entries.keys()]);
  }

  create(entry: string, files: ReadonlyMap<string, Buffer>): Promise<void> {
    this.entries.set(entry, new Map(files));
    return Promise.resolve();
  }

  write(entry: string, file: string, data: Buffer): Promise<void> {
    const files = this.entries.get(entry);
    if (!files) return Promise.reject(new Error(`no queue entry ${entry}`));
    files.set(file, data);
    return Promise.resolve();
  }

  read(entry: string, file: string): Promise<Buffer | undefined> {
    return Promise.resolve(this.entries.get(entry)?.get(file));
  }

  files(entry: string): Promise<{ name: string; size: number }[]> {
    const files = this.entries.get(entry) ?? new Map<string, Buffer>();
    return Promise.resolve([...files].map(([name, data]) => ({ name, size: data.length })));
  }

  path(entry: string): Promise<string> {
    let folder = this.folders.get(entry);
    if (!folder) {
      folder = mkdtemp(path.join(os.tmpdir(), 'flashbooth-queue-'));
      void folder.then(removeAtExit, () => undefined);
      this.folders.set(entry, folder);
    }
    return folder;
  }

  /** Removes every temporary folder this queue made (tests, once done with it). */
  async dispose(): Promise<void> {
    for (const entry of [...this.folders.keys()]) await this.remove(entry);
  }

  async remove(entry: string): Promise<void> {
    this.entries.delete(entry);
    const folder = this.folders.get(entry);
    this.folders.delete(entry);
    if (!folder) return;
    const dir = await folder;
    leftAtExit.delete(dir);
    await rm(dir, { recursive: true, force: true });
  }

  setAside(entry: string): Promise<void> {
    const files = this.entries.get(entry);
    if (files) this.rejected.set(entry, files);
    this.entries.delete(entry);
    return Promise.resolve();
  }
}
