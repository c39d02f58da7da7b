import { createHash, randomUUID } from 'node:crypto';
import { lstat, mkdir, open, readdir, readFile, rename, rm, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import type { DeviceUpdatePayload } from '@flashbooth/contracts';
import { ProgramError, runProgram } from './camera/run-program.js';
import { describeError } from './reports.js';
import { writeFileAtomically } from './state.js';

/**
 * `<releases dir>/current.json`, the pointer a supervisor reads to start the installed release
 * (README, "Software updates"). Replaced atomically, so it always names one whole, verified file.
 */
export interface InstalledRelease {
  release_id: number;
  version: string;
  /** Absolute path of the release file: `<releases dir>/<version>/<file name>`. */
  file: string;
  /** Lower-case hex SHA-256 of the file, as checked when it was installed. */
  sha256: string;
  size_bytes: number;
  /** UTC ISO-8601. */
  installed_at: string;
  /**
   * On a booth installed by install.sh: the unpacked agent (`<releases dir>/<version>/app`, its
   * dependencies installed) that the `current` link now names, so the service runs it once it
   * restarts. Absent elsewhere (a demo booth keeps only the file).
   */
  app?: string;
}

export const CURRENT_RELEASE_FILE = 'current.json';

/**
 * `<releases dir>/current`, the link to the unpacked release the installed service runs
 * (`ExecStart=<releases dir>/current/apps/booth-agent/bin/flashbooth-booth run`). install.sh
 * makes it; its presence is what makes an update unpack the release and switch it.
 */
export const CURRENT_RELEASE_LINK = 'current';
/** The agent's command inside an unpacked release. */
export const RELEASE_COMMAND = 'apps/booth-agent/bin/flashbooth-booth';
/** Unpacking and installing a release's dependencies (npm ci on a Raspberry Pi: minutes). */
const PREPARE_TIMEOUT_MS = 15 * 60_000;

/** Downloads in progress live beside the versions as `.download-*.part` until verified. */
const PART_PREFIX = '.download-';
const PART_SUFFIX = '.part';

/** An update that failed; its message says what went wrong, for the reply and the error log. */
export class UpdateError extends Error {}

/**
 * `name` as one safe path segment: letters, digits, dot, dash and underscore, not starting with
 * a dot. When that changes the name, a short hash of the original keeps two names apart.
 */
export function safeSegment(name: string, fallback: string): string {
  const safe = name
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 80);
  if (safe === name) return safe;
  const tag = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${safe || fallback}-${tag}`;
}

/** The release's file name: the download name the store sends, else the URL's last segment. */
function releaseFileName(response: Response, url: URL): string {
  const disposition = response.headers.get('content-disposition') ?? '';
  const quoted = /filename="([^"]+)"/i.exec(disposition)?.[1];
  const plain = /filename=([^;"\s]+)/i.exec(disposition)?.[1];
  let name = quoted ?? plain ?? path.posix.basename(url.pathname);
  try {
    name = decodeURIComponent(name);
  } catch {
    // Not percent-encoded after all: keep it as it came.
  }
  return safeSegment(name, 'release');
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Removes downloads an earlier, interrupted update left behind. */
async function removeStaleDownloads(releasesDir: string): Promise<void> {
  const names = await readdir(releasesDir);
  await Promise.all(
    names
      .filter((name) => name.startsWith(PART_PREFIX) && name.endsWith(PART_SUFFIX))
      .map((name) => rm(path.join(releasesDir, name), { force: true })),
  );
}

/** Pauses before the download is tried again after a lost connection or a transient answer. */
const DOWNLOAD_RETRY_PAUSES_MS = [1000, 2000, 4000];
const TRANSIENT_STATUS = (status: number) => status >= 500 || status === 429 || status === 408;

/**
 * Streams the release file to a temporary file while counting and hashing it, so a file of any
 * size is never held in memory and a wrong one never takes the place of a release. The download
 * stops as soon as it runs past the announced size. Resolves to the temporary file and the name
 * the release file should get.
 */
async function download(
  url: URL,
  release: DeviceUpdatePayload,
  releasesDir: string,
  timeoutMs: number,
): Promise<{ temp: string; fileName: string }> {
  // One deadline for every attempt: retries never stretch the update past `timeoutMs`.
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  for (let attempt = 0; ; attempt += 1) {
    let failure: UpdateError;
    try {
      response = await fetch(url, {
        // The size and checksum are those of the stored bytes: ask that nothing re-encodes them.
        headers: { 'accept-encoding': 'identity' },
        signal,
      });
      if (!TRANSIENT_STATUS(response.status)) break;
      await response.body?.cancel();
      failure = new UpdateError(`the download failed (HTTP ${response.status})`);
    } catch (error) {
      failure = new UpdateError(`the download failed (${describeError(error)})`, { cause: error });
    }
    // A server restarting behind the balancer, or its database restarting, answers 5xx or drops
    // the connection for a few seconds: try again before failing the update (and a rollout).
    const pause = DOWNLOAD_RETRY_PAUSES_MS[attempt];
    if (pause === undefined || signal.aborted) throw failure;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new UpdateError(`the download failed (HTTP ${response.status})`);
  }
  const announced = response.headers.get('content-length');
  if (announced !== null && Number(announced) !== release.size_bytes) {
    await response.body.cancel();
    throw new UpdateError(
      `size mismatch: the server sends ${announced} bytes, the release should have ${release.size_bytes}`,
    );
  }

  const fileName = releaseFileName(response, url);
  const temp = path.join(releasesDir, `${PART_PREFIX}${randomUUID()}${PART_SUFFIX}`);
  const hash = createHash('sha256');
  let received = 0;
  const body = response.body;
  const handle = await open(temp, 'wx').catch(async (error: unknown) => {
    await body.cancel();
    throw new UpdateError(`the release cannot be saved (${describeError(error)})`, {
      cause: error,
    });
  });
  try {
    try {
      for await (const chunk of body) {
        received += chunk.byteLength;
        if (received > release.size_bytes) {
          throw new UpdateError(
            `size mismatch: received more than the ${release.size_bytes} bytes the release should have`,
          );
        }
        hash.update(chunk);
        await handle.write(chunk);
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (received !== release.size_bytes) {
      throw new UpdateError(
        `size mismatch: received ${received} bytes, the release should have ${release.size_bytes}`,
      );
    }
    const digest = hash.digest('hex');
    if (digest !== release.sha256) {
      throw new UpdateError(
        `checksum mismatch: the file's SHA-256 is ${digest}, the release's is ${release.sha256}`,
      );
    }
  } catch (error) {
    await rm(temp, { force: true });
    if (error instanceof UpdateError) throw error;
    throw new UpdateError(`the download failed after ${mib(received)} (${describeError(error)})`, {
      cause: error,
    });
  }
  return { temp, fileName };
}

/**
 * Downloads, verifies and installs a release: the file ends up as
 * `<releasesDir>/<version>/<file name>` and `current.json` then names it. On a booth installed by
 * install.sh (a `current` link in the releases folder) the file is also unpacked into
 * `<version>/app` with its dependencies, and the link switched to it before `current.json`.
 * Nothing the running booth uses changes before the file is complete and its size and SHA-256
 * match, so a failed update leaves the old version installed. Throws UpdateError.
 */
export async function installRelease(options: {
  url: URL;
  release: DeviceUpdatePayload;
  releasesDir: string;
  timeoutMs: number;
  now: Date;
  /** The programs that unpack a release on an installed booth (default: tar and npm on PATH). */
  programs?: ReleasePrograms;
}): Promise<InstalledRelease> {
  const { url, release, releasesDir, timeoutMs, now } = options;
  try {
    await mkdir(releasesDir, { recursive: true });
    await removeStaleDownloads(releasesDir);
  } catch (error) {
    throw new UpdateError(
      `the releases folder ${releasesDir} is not usable (${describeError(error)})`,
      {
        cause: error,
      },
    );
  }
  const { temp, fileName } = await download(url, release, releasesDir, timeoutMs);
  try {
    const versionDir = path.join(releasesDir, safeSegment(release.version, 'version'));
    await mkdir(versionDir, { recursive: true });
    const file = path.join(versionDir, fileName);
    // Same file system as the temporary file, so the verified file appears whole or not at all.
    await rename(temp, file);
    const installed: InstalledRelease = {
      release_id: release.release_id,
      version: release.version,
      file,
      sha256: release.sha256,
      size_bytes: release.size_bytes,
      installed_at: now.toISOString(),
    };
    if (await isLink(path.join(releasesDir, CURRENT_RELEASE_LINK))) {
      installed.app = await unpackRelease(file, versionDir, options.programs);
      await switchCurrentLink(releasesDir, installed.app);
    }
    // The switch: until this rename the supervisor would still start the previous release.
    await writeFileAtomically(
      path.join(releasesDir, CURRENT_RELEASE_FILE),
      `${JSON.stringify(installed, null, 2)}\n`,
    );
    return installed;
  } catch (error) {
    await rm(temp, { force: true });
    if (error instanceof UpdateError) throw error;
    throw new UpdateError(`the release could not be installed (${describeError(error)})`, {
      cause: error,
    });
  }
}

async function isLink(file: string): Promise<boolean> {
  try {
    return (await lstat(file)).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The programs an installed booth prepares a release with (tests put stand-ins on PATH). */
export interface ReleasePrograms {
  tar: string;
  npm: string;
}
const DEFAULT_PROGRAMS: ReleasePrograms = { tar: 'tar', npm: 'npm' };

/** The last lines of a program's output, for an error message. */
function tail(output: string): string {
  return output.trim().split('\n').slice(-3).join(' / ').slice(0, 400);
}

/**
 * Unpacks a verified release file into `<versionDir>/app` and installs its dependencies there
 * exactly as its lockfile says (`npm ci --omit=dev` for the agent's workspace), as install.sh
 * does. It is prepared beside the running one (`app.next`) and renamed when complete, so a
 * failure leaves nothing half done and the `current` link untouched. Resolves to the folder.
 */
export async function unpackRelease(
  file: string,
  versionDir: string,
  programs: ReleasePrograms = DEFAULT_PROGRAMS,
): Promise<string> {
  const app = path.join(versionDir, 'app');
  const next = path.join(versionDir, 'app.next');
  await rm(next, { recursive: true, force: true });
  await mkdir(next, { recursive: true });
  const deadline = Date.now() + PREPARE_TIMEOUT_MS;
  const run = async (what: string, command: string, args: string[]) => {
    try {
      await runProgram(command, args, {
        cwd: next,
        timeoutMs: Math.max(1000, deadline - Date.now()),
        maxOutputBytes: 16 * 1024 * 1024,
      });
    } catch (error) {
      const detail =
        error instanceof ProgramError
          ? `${error.message}${error.output ? `: ${tail(error.output)}` : ''}`
          : describeError(error);
      throw new UpdateError(`${what} failed (${detail})`, { cause: error });
    }
  };
  try {
    await run('unpacking the release', programs.tar, ['-xzf', file, '-C', next, '--no-same-owner']);
    const command = await stat(path.join(next, RELEASE_COMMAND)).catch(() => undefined);
    if (!command?.isFile()) {
      throw new UpdateError(
        `the release is not a booth agent release: ${path.basename(file)} has no ${RELEASE_COMMAND}`,
      );
    }
    await run("installing the release's dependencies (npm ci)", programs.npm, [
      'ci',
      '--omit=dev',
      '--workspace=@flashbooth/booth-agent',
      '--no-audit',
      '--no-fund',
    ]);
    await rm(app, { recursive: true, force: true });
    await rename(next, app);
    return app;
  } catch (error) {
    await rm(next, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Points `<releasesDir>/current` at `app` (relative, so the folder can move): a new link renamed
 * over the old one, so the service starts either the old release or the new one, never neither.
 */
export async function switchCurrentLink(releasesDir: string, app: string): Promise<void> {
  const next = path.join(releasesDir, `.${CURRENT_RELEASE_LINK}-${randomUUID()}`);
  await symlink(path.relative(releasesDir, app), next);
  try {
    await rename(next, path.join(releasesDir, CURRENT_RELEASE_LINK));
  } catch (error) {
    await rm(next, { force: true });
    throw error;
  }
}

/** The release `current.json` names, if it is readable and its file is there. */
export async function readCurrentRelease(
  releasesDir: string,
): Promise<InstalledRelease | undefined> {
  try {
    const json = JSON.parse(
      await readFile(path.join(releasesDir, CURRENT_RELEASE_FILE), 'utf8'),
    ) as Partial<InstalledRelease>;
    if (typeof json.version !== 'string' || json.version === '') return undefined;
    if (typeof json.file !== 'string' || !(await stat(json.file)).isFile()) return undefined;
    return json as InstalledRelease;
  } catch {
    return undefined;
  }
}
