import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGzip } from 'node:zlib';

/** The repository this server runs from (apps/server/src/modules/software/ → four up). */
export const SOURCE_ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));

/**
 * Where the booth agent's release names its own version: read by the agent
 * (apps/booth-agent/src/version.ts) before its package.json.
 */
export const RELEASE_MANIFEST = 'apps/booth-agent/release.json';

/** The release file's content type and name, as Update Software hands it to a booth. */
export const BOOTH_RELEASE_CONTENT_TYPE = 'application/gzip';
export const boothReleaseFileName = (version: string) => `flashbooth-${version}.tar.gz`;

/** Folders copied whole (without tests and node_modules), and single files. */
const FOLDERS = ['apps/booth-agent', 'packages/contracts', 'packages/print-composition'];
const FILES = ['package.json', 'package-lock.json', 'tsconfig.base.json'];
/**
 * Every workspace's package.json (not its code): `npm ci` checks the lockfile against the
 * workspaces the root package.json names.
 */
const WORKSPACE_PARENTS = ['apps', 'packages'];
const OTHER_WORKSPACES = ['e2e'];

const skipped = (relative: string) => {
  const parts = relative.split(path.sep);
  const name = parts[parts.length - 1] ?? '';
  return (
    parts.includes('node_modules') ||
    parts.includes('test') ||
    name.endsWith('.test.ts') ||
    relative === path.join(...RELEASE_MANIFEST.split('/'))
  );
};

export interface BoothRelease {
  version: string;
  /** The gzip'd tar: the same bytes for the same sources and version. */
  bytes: Buffer;
  sha256: string;
  /** The SHA-256 of the copied sources (names and contents), before the version is added. */
  sourceHash: string;
}

export class BoothReleaseError extends Error {}

async function listFiles(root: string, dir = ''): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(path.join(root, dir), { withFileTypes: true })) {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(root, relative)));
    else files.push(relative);
  }
  return files.sort();
}

/** tar of `dir` with sorted names, no times, owners or umask of this machine: reproducible. */
function tarGz(dir: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const tar = spawn(
      'tar',
      [
        '--sort=name',
        '--mtime=@0',
        '--owner=0',
        '--group=0',
        '--numeric-owner',
        '--mode=u+rwX,go+rX,go-w',
        '--format=gnu',
        '-C',
        dir,
        '-cf',
        '-',
        '.',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const chunks: Buffer[] = [];
    let stderr = '';
    const gzip = createGzip({ level: 9 });
    tar.stdout.pipe(gzip);
    gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
    tar.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    tar.on('error', (error) =>
      reject(new BoothReleaseError(`tar could not be run (${error.message})`)),
    );
    let tarCode: number | null = null;
    let gzipDone = false;
    const finish = () => {
      if (tarCode === null || !gzipDone) return;
      if (tarCode !== 0) reject(new BoothReleaseError(`tar failed: ${stderr.trim()}`));
      else resolve(Buffer.concat(chunks));
    };
    tar.on('close', (code) => {
      tarCode = code ?? 1;
      finish();
    });
    gzip.on('end', () => {
      gzipDone = true;
      finish();
    });
  });
}

/**
 * Packs the booth agent as a release file (a `.tar.gz`): the agent, the two packages it imports,
 * the workspace's package.json and lockfile, and every other workspace's package.json, so
 * `npm ci --omit=dev --workspace=@flashbooth/booth-agent` installs its dependencies on the booth
 * exactly as locked (for the booth's own CPU: sharp's binaries are picked there). Tests and
 * node_modules stay out. `apps/booth-agent/release.json` carries the version. Without a version,
 * it is `booth-agent-<first 12 hex of the sources' hash>`: the same sources give the same
 * version and the same bytes on every instance.
 */
export async function packBoothRelease(
  options: { sourceRoot?: string; version?: string } = {},
): Promise<BoothRelease> {
  const sourceRoot = options.sourceRoot ?? SOURCE_ROOT;
  const stage = await mkdtemp(path.join(os.tmpdir(), 'flashbooth-release-'));
  try {
    const copy = async (relative: string) => {
      const from = path.join(sourceRoot, relative);
      await cp(from, path.join(stage, relative), {
        recursive: true,
        filter: (source) => !skipped(path.relative(sourceRoot, source)),
      });
    };
    for (const folder of FOLDERS) {
      if (!(await stat(path.join(sourceRoot, folder)).catch(() => undefined))?.isDirectory()) {
        throw new BoothReleaseError(
          `${path.join(sourceRoot, folder)} is missing: the booth agent's release is made from the Flashbooth sources this server runs from`,
        );
      }
      await copy(folder);
    }
    for (const file of FILES) await copy(file);
    const manifests = [...OTHER_WORKSPACES.map((name) => path.join(name, 'package.json'))];
    for (const parent of WORKSPACE_PARENTS) {
      for (const entry of await readdir(path.join(sourceRoot, parent), { withFileTypes: true })) {
        if (entry.isDirectory()) manifests.push(path.join(parent, entry.name, 'package.json'));
      }
    }
    for (const manifest of manifests) {
      if (await stat(path.join(sourceRoot, manifest)).catch(() => undefined)) await copy(manifest);
    }

    const hash = createHash('sha256');
    for (const file of await listFiles(stage)) {
      hash.update(`${file.split(path.sep).join('/')}\0`);
      hash.update(await readFile(path.join(stage, file)));
      hash.update('\0');
    }
    const sourceHash = hash.digest('hex');
    const version = options.version ?? `booth-agent-${sourceHash.slice(0, 12)}`;
    await writeFile(path.join(stage, RELEASE_MANIFEST), `${JSON.stringify({ version })}\n`);
    const bytes = await tarGz(stage);
    return {
      version,
      bytes,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      sourceHash,
    };
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}
