import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { StartupError } from '../config.js';

/**
 * The file that says which process has the embedded database's folder open: beside the folder
 * (`DATA_DIR/pglite.lock`), since PostgreSQL's initdb wants an empty folder.
 */
export const lockFileOf = (dir: string) => `${dir.replace(/[\\/]+$/, '')}.lock`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the embedded database's folder for this process, or throws when a live process has it:
 * PGlite is one process's database, and two processes writing one folder corrupt it (a second
 * server on the same DATA_DIR, a backup or restore while the server runs). A lock left by a
 * process that is gone (a crash) is taken over. Returns the call that releases it.
 */
export function lockDataDir(dir: string): () => void {
  const file = lockFileOf(dir);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number.parseInt(readFileSync(file, 'utf8'), 10);
    if (Number.isInteger(holder) && holder !== process.pid && alive(holder)) {
      throw new StartupError(
        'DATA_DIR',
        `The embedded database in ${dir} is in use by process ${holder} (a running server?). ` +
          'Stop that process first, or point DATA_DIR elsewhere.',
      );
    }
    // Left by a process that has ended (or by this one, opened twice): taken over.
    rmSync(file, { force: true });
  }
  throw new Error(`Could not take the lock file ${file}; remove it if no server is running.`);
}
