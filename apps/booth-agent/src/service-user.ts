// `sudo flashbooth-booth doctor` runs as root; the service runs as the `flashbooth` user
// (install.sh). What works for root (a camera device, a spool folder, the printer's group) may
// not work for the service, so the doctor drops to the service's user before its checks: the
// settings file (mode 600, root's) is read first, then the process takes the user's ids and
// groups (process.initgroups, setgid, setuid: for the whole process, no re-exec).
import { execFileSync } from 'node:child_process';
import os from 'node:os';

/** The service's user (install.sh's SERVICE_USER); BOOTH_SERVICE_USER names another. */
export const SERVICE_USER = 'flashbooth';

export interface PasswdEntry {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

/** The user's passwd entry through NSS (`getent passwd`), undefined when there is none. */
export function lookUpUser(name: string): PasswdEntry | undefined {
  let line: string;
  try {
    line = execFileSync('getent', ['passwd', name], { encoding: 'utf8', timeout: 5000 });
  } catch {
    return undefined;
  }
  const [user, , uid, gid, , home] = line.trim().split(':');
  if (!user || !/^\d+$/.test(uid ?? '') || !/^\d+$/.test(gid ?? '')) return undefined;
  return { name: user, uid: Number(uid), gid: Number(gid), home: home ?? '/' };
}

/** The process's ids, as Node has them on POSIX (tests pass a fake). */
export interface ProcessIds {
  getuid(): number;
  initgroups(user: string, extraGroup: number): void;
  setgid(id: number): void;
  setuid(id: number): void;
  env: NodeJS.ProcessEnv;
}

/** Node's process where it has the POSIX id calls (not on Windows). */
function nodeProcess(): ProcessIds | undefined {
  const ids = process as unknown as Partial<ProcessIds>;
  return ids.getuid && ids.initgroups && ids.setgid && ids.setuid
    ? (process as unknown as ProcessIds)
    : undefined;
}

/**
 * As root with the service's user present: becomes that user (groups included) and says so.
 * As root without it: stays root and says why. As anyone else: nothing changes. Throws only
 * when the system refuses the change (the doctor stops rather than check as the wrong user).
 */
export function runAsServiceUser(
  user: string = SERVICE_USER,
  proc: ProcessIds | undefined = nodeProcess(),
  lookUp: (name: string) => PasswdEntry | undefined = lookUpUser,
): string {
  if (!proc || proc.getuid() !== 0) {
    return `Running as ${os.userInfo().username}.`;
  }
  const entry = lookUp(user);
  if (!entry) {
    return `Running as root: there is no user ${user} here (install.sh makes it), so the checks run as root.`;
  }
  if (entry.uid === 0) return `Running as root (${user} is root).`;
  proc.initgroups(entry.name, entry.gid);
  proc.setgid(entry.gid);
  proc.setuid(entry.uid);
  proc.env.HOME = entry.home;
  proc.env.USER = entry.name;
  proc.env.LOGNAME = entry.name;
  return `Running as ${entry.name}, the service's user (dropped from root).`;
}
