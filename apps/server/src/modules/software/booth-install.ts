import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { isUniqueViolation } from '../../db/postgres-errors.js';
import { AppError } from '../../errors.js';
import type { BoothAddresses } from '../devices/devices.service.js';
import type { ObjectStorage } from '../storage/storage.js';
import {
  BOOTH_RELEASE_CONTENT_TYPE,
  boothReleaseFileName,
  packBoothRelease,
  SOURCE_ROOT,
} from './booth-release.js';
import { SOFTWARE_CONSTRAINTS } from './software.errors.js';
import type { SoftwareRepository } from './software.repository.js';

/** The script a booth computer pipes into `sh` (GET /booth/install.sh). */
export const INSTALL_SCRIPT = 'apps/booth-agent/install/install.sh';
export const INSTALL_PATH = '/booth/install.sh';

/** How long the script's download link lives: it is fetched and run at once. */
const INSTALL_URL_SECONDS = 3600;

export const BOOTH_INSTALL_MESSAGES = {
  unavailable:
    "This server cannot hand out the booth agent: its sources are not where it runs from (see the server's log). Install the server from a full Flashbooth checkout or image.",
} as const;

/** The server's own booth agent, published as a software release with its file in the store. */
export interface PublishedRelease {
  id: number;
  version: string;
  key: string;
  sha256: string;
  sizeBytes: number;
}

export interface BoothInstallOptions {
  software: Pick<
    SoftwareRepository,
    'findReleaseByVersion' | 'createRelease' | 'replaceFile' | 'findRelease'
  >;
  storage: Pick<ObjectStorage, 'put' | 'presignDownload' | 'delete'>;
  boothAddresses: Pick<BoothAddresses, 'publicUrl'>;
  /** The Flashbooth sources the agent is packed from (default: the ones this server runs). */
  sourceRoot?: string;
  now: () => Date;
  log: FastifyBaseLogger;
}

/** A value for a single-quoted shell word: nothing that could end or escape the quotes. */
function shellWord(value: string, what: string): string {
  if (!/^[A-Za-z0-9._~:/?#[\]@!$&()*+,;=%-]+$/.test(value)) {
    throw new Error(`${what} cannot be written into the install script: ${value}`);
  }
  return value;
}

/**
 * The one-command install of a booth computer (issue 39): the agent built into this server is a
 * software release like any uploaded one (the same file Update Software and rollouts deliver,
 * with its SHA-256 and size), published the first time a booth asks for the install script; the
 * script carries this server's address and that release's download link, checksum and size.
 */
export class BoothInstallService {
  private published: Promise<PublishedRelease> | undefined;
  private template: Promise<string> | undefined;

  constructor(private readonly options: BoothInstallOptions) {}

  private get sourceRoot(): string {
    return this.options.sourceRoot ?? SOURCE_ROOT;
  }

  /**
   * The release of the agent this server runs: packed from its sources (the same sources give
   * the same version and bytes, so every instance publishes the one release), created once and
   * stored once. A failure is not remembered: the next request tries again.
   */
  builtInRelease(): Promise<PublishedRelease> {
    this.published ??= this.publish().catch((error: unknown) => {
      this.published = undefined;
      throw error;
    });
    return this.published;
  }

  private async publish(): Promise<PublishedRelease> {
    const { software, storage, now, log } = this.options;
    const release = await packBoothRelease({ sourceRoot: this.sourceRoot });
    let row = await software.findReleaseByVersion(release.version);
    if (!row) {
      try {
        const id = await software.createRelease({
          version: release.version,
          releaseNotes: `The booth agent built into this server (its sources' SHA-256 ${release.sourceHash}), published for the booths' install script.`,
          createdBy: null,
        });
        row = await software.findRelease(id);
      } catch (error) {
        // Another instance published it at the same moment.
        if (!isUniqueViolation(error, SOFTWARE_CONSTRAINTS.releaseVersion)) throw error;
        row = await software.findReleaseByVersion(release.version);
      }
    }
    if (!row) throw new Error(`release ${release.version} vanished while it was published`);
    if (row.s3Key && row.sha256 === release.sha256 && row.sizeBytes === release.bytes.length) {
      return {
        id: row.id,
        version: row.version,
        key: row.s3Key,
        sha256: row.sha256,
        sizeBytes: row.sizeBytes,
      };
    }
    if (row.s3Key && row.sha256 !== release.sha256) {
      // Someone uploaded another file under the built-in version: keep theirs, install nothing.
      log.error(
        { releaseId: row.id, version: row.version, stored: row.sha256, built: release.sha256 },
        'the release named as the built-in booth agent holds another file',
      );
      throw new AppError(
        'conflict',
        `The software release ${row.version} holds another file than this server's booth agent. Delete it (SW Releases), then try again.`,
      );
    }
    const key = `software/releases/${row.id}/${release.sha256}.tar.gz`;
    await storage.put(key, release.bytes, BOOTH_RELEASE_CONTENT_TYPE);
    const swapped = await software.replaceFile(
      row.id,
      { key, sha256: release.sha256, sizeBytes: release.bytes.length },
      now(),
    );
    if (!swapped) throw new Error(`release ${release.version} vanished while it was published`);
    if (swapped.previous && swapped.previous !== key) {
      await storage.delete(swapped.previous).catch((error: unknown) => {
        log.warn({ err: error, key: swapped.previous }, 'an earlier release file was not deleted');
      });
    }
    log.info(
      { releaseId: row.id, version: release.version, bytes: release.bytes.length },
      'the booth agent is published as a software release',
    );
    return {
      id: row.id,
      version: release.version,
      key,
      sha256: release.sha256,
      sizeBytes: release.bytes.length,
    };
  }

  /** The address booths are told: PUBLIC_URL, else the one the request came to. */
  serverUrl(requestOrigin: string): string {
    return this.options.boothAddresses.publicUrl ?? requestOrigin;
  }

  /** install.sh with this server's address and the release's link, SHA-256 and size in it. */
  async installScript(requestOrigin: string): Promise<string> {
    const { storage, log } = this.options;
    this.template ??= readFile(path.join(this.sourceRoot, INSTALL_SCRIPT), 'utf8').catch(
      (error: unknown) => {
        this.template = undefined;
        throw error;
      },
    );
    let template: string;
    let release: PublishedRelease;
    try {
      [template, release] = await Promise.all([this.template, this.builtInRelease()]);
    } catch (error) {
      if (error instanceof AppError) throw error;
      log.error({ err: error, sourceRoot: this.sourceRoot }, 'the booth install script failed');
      throw new AppError('service_unavailable', BOOTH_INSTALL_MESSAGES.unavailable);
    }
    const server = this.serverUrl(requestOrigin).replace(/\/+$/, '');
    const link = await storage.presignDownload(
      release.key,
      INSTALL_URL_SECONDS,
      boothReleaseFileName(release.version),
    );
    const values: Record<string, string> = {
      SERVER_URL: shellWord(server, 'The server address'),
      RELEASE_ID: String(release.id),
      RELEASE_VERSION: shellWord(release.version, 'The release version'),
      RELEASE_URL: shellWord(new URL(link, `${server}/`).href, 'The release link'),
      RELEASE_SHA256: shellWord(release.sha256, 'The checksum'),
      RELEASE_SIZE: String(release.sizeBytes),
    };
    return template.replace(/@FLASHBOOTH_([A-Z0-9_]+)@/g, (whole, name: string) => {
      return values[name] ?? whole;
    });
  }
}
