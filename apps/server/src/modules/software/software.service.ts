import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  DEVICE_MESSAGES,
  type Device,
  type DeviceUpdatePayload,
  DeviceUpdatePayloadSchema,
  RELEASE_MAX_BYTES,
  type ReleaseContentType,
  type ReleasePresignRequest,
  SOFTWARE_MESSAGES,
  type SoftwareChannel,
  type SoftwareChannelCreate,
  type SoftwareChannelPatch,
  type SoftwarePageQuery,
  type SoftwareRelease,
  type SoftwareReleaseCreate,
  type SoftwareReleasePatch,
  can,
} from '@flashbooth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { listBody, listBodyAsync } from '../../db/paging.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/postgres-errors.js';
import type { UserRow } from '../../db/schema.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import type { DevicesRepository, DeviceWithOrg } from '../devices/devices.repository.js';
import { type DeviceLink, noAnswer } from '../mqtt/device-link.js';
import {
  deleteUnreferenced,
  MAX_URL_LIFETIME_SECONDS,
  type ObjectExtension,
  type ObjectStorage,
} from '../storage/storage.js';
import type { ObjectCleanup } from '../storage/object-cleanup.js';
import { confirmObjectUpload, presignObjectUpload } from '../storage/presigned-upload.js';
import { isPrivileged, type UsersService } from '../users/users.service.js';
import { SOFTWARE_CONSTRAINTS, versionTaken } from './software.errors.js';
import type {
  ChannelChanges,
  ChannelWithNames,
  ReleaseChanges,
  ReleaseWithNames,
  SoftwareRepository,
} from './software.repository.js';

export interface SoftwareServiceOptions {
  software: SoftwareRepository;
  users: UsersService;
  storage: ObjectStorage;
  /** Deletes objects nothing points at (uploads never confirmed, deleted records' files). */
  cleanup: Pick<ObjectCleanup, 'uploadStarted' | 'uploadConfirmed' | 'deleteRecordObjects'>;
  /** The device a software update goes to (read, permission, and its reported version). */
  devices: Pick<DevicesRepository, 'findById' | 'update'>;
  /** The devices module's own Device response, so POST devices/{id}/update answers the same. */
  deviceDto: (row: DeviceWithOrg) => Device;
  link: DeviceLink;
  /**
   * How long to wait for the booth's answer to `update`. The booth answers only after it has
   * downloaded, verified and installed the release, so this is much longer than a ping.
   */
  updateTimeoutMs: number;
  now: () => Date;
  log: FastifyBaseLogger;
}

/** Upload links for release files live one hour (large files, retries); download links too. */
export const RELEASE_UPLOAD_URL_SECONDS = 3600;
export const RELEASE_DOWNLOAD_URL_SECONDS = 3600;
/** The booth's download link lives at least this long, and never less than the update wait. */
export const UPDATE_DOWNLOAD_URL_MIN_SECONDS = 3600;

const RELEASE_FOLDER = 'software/releases';

/** The one extension each accepted type gets in the key (and in the download file name). */
const EXTENSION_BY_RELEASE_TYPE: Record<ReleaseContentType, ObjectExtension> = {
  'application/octet-stream': 'bin',
  'application/x-tar': 'bin',
  'application/zip': 'zip',
  'application/x-zip-compressed': 'zip',
  'application/gzip': 'tar.gz',
  'application/x-gzip': 'tar.gz',
  'application/x-compressed-tar': 'tar.gz',
};

/** Every key handed out for release `id`: software/releases/{id}/{uuid}.bin|zip|tar.gz. */
function issuedKeyPattern(id: number): RegExp {
  return new RegExp(`^${RELEASE_FOLDER}/${id}/[0-9a-f-]{36}\\.(bin|zip|tar\\.gz)$`);
}

/** The SHA-256 (lower-case hex) and length of a stream, read chunk by chunk. */
async function digest(stream: Readable): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    hash.update(bytes);
    size += bytes.length;
  }
  return { sha256: hash.digest('hex'), size };
}

/** The file name a download of a release gets (the key itself is a random UUID). */
function downloadName(version: string, key: string): string {
  const extension = /\.(tar\.gz|zip|bin)$/.exec(key)?.[1] ?? 'bin';
  return `flashbooth-${version}.${extension}`;
}

const channelNotFound = () => notFound(SOFTWARE_MESSAGES.channelNotFound);
const releaseNotFound = () => notFound(SOFTWARE_MESSAGES.releaseNotFound);

/** The 409 for deleting a linked release, naming the channels that link it. */
function releaseLinked(channelNames: string[]): AppError {
  if (channelNames.length === 0) return new AppError('conflict', SOFTWARE_MESSAGES.releaseLinked);
  const names = channelNames.map((name) => `"${name}"`).join(', ');
  const noun = channelNames.length === 1 ? 'channel' : 'channels';
  return new AppError(
    'conflict',
    `This release is linked to the software ${noun} ${names}. Link another release to the ${noun} (or unlink it) first.`,
  );
}

/**
 * Software channels and releases, and sending a release to a booth. Every call is for super
 * users and product admins only (staff spec section 6; 403 for everyone else). A release file is
 * uploaded straight to the object store through a presigned PUT; confirming it streams the
 * object once to compute the SHA-256 and size the booth verifies before installing.
 */
export class SoftwareService {
  constructor(private readonly options: SoftwareServiceOptions) {}

  private get repo() {
    return this.options.software;
  }

  /**
   * The caller, when the shared rule lets them manage software (`software.manage`: super users
   * and product admins); 403 before any data is read otherwise.
   */
  private async privileged(claims: AccessClaims): Promise<UserRow> {
    const { user, principal } = await this.options.users.staffPrincipal(claims);
    if (!can(principal, 'software.manage')) throw forbidden(SOFTWARE_MESSAGES.onlyAdmins);
    return user;
  }

  // ---- channels ----

  private channelDto(row: ChannelWithNames): SoftwareChannel {
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      release_id: row.releaseId,
      release_version: row.releaseVersion,
      created_at: toApiTimestamp(row.createdAt),
      created_by: row.createdBy,
      created_by_name: row.createdByName,
    };
  }

  private async channelById(id: number): Promise<SoftwareChannel> {
    const row = await this.repo.findChannel(id);
    if (!row) throw channelNotFound();
    return this.channelDto(row);
  }

  /** Runs a channel write; a release id that does not exist is 404 "Software release not found." */
  private async withRelease<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isForeignKeyViolation(error, SOFTWARE_CONSTRAINTS.channelRelease)) {
        throw releaseNotFound();
      }
      throw error;
    }
  }

  async createChannel(claims: AccessClaims, body: SoftwareChannelCreate): Promise<SoftwareChannel> {
    const user = await this.privileged(claims);
    const id = await this.withRelease(() =>
      this.repo.createChannel({
        name: body.name,
        description: body.description ?? null,
        releaseId: body.release_id ?? null,
        createdBy: user.id,
      }),
    );
    return this.channelById(id);
  }

  async listChannels(claims: AccessClaims, page: SoftwarePageQuery) {
    await this.privileged(claims);
    return listBody(await this.repo.listChannels(page), (row) => this.channelDto(row));
  }

  async getChannel(claims: AccessClaims, id: number): Promise<SoftwareChannel> {
    await this.privileged(claims);
    return this.channelById(id);
  }

  async patchChannel(
    claims: AccessClaims,
    id: number,
    patch: SoftwareChannelPatch,
  ): Promise<SoftwareChannel> {
    await this.privileged(claims);
    const changes: ChannelChanges = {};
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.description !== undefined) changes.description = patch.description;
    if (patch.release_id !== undefined) changes.releaseId = patch.release_id;
    const updated = await this.withRelease(() =>
      this.repo.updateChannel(id, changes, this.options.now()),
    );
    if (!updated) throw channelNotFound();
    return this.channelById(id);
  }

  /** Deletes a channel; the devices that followed it follow none (their id becomes null). */
  async removeChannel(claims: AccessClaims, id: number): Promise<void> {
    await this.privileged(claims);
    if (!(await this.repo.deleteChannel(id))) throw channelNotFound();
  }

  // ---- releases ----

  private async releaseDto(row: ReleaseWithNames): Promise<SoftwareRelease> {
    const { storage, now } = this.options;
    let url: string | null = null;
    let expiry: string | null = null;
    if (row.s3Key) {
      url = await storage.presignDownload(
        row.s3Key,
        RELEASE_DOWNLOAD_URL_SECONDS,
        downloadName(row.version, row.s3Key),
      );
      expiry = toApiTimestamp(new Date(now().getTime() + RELEASE_DOWNLOAD_URL_SECONDS * 1000));
    }
    return {
      id: row.id,
      version: row.version,
      release_notes: row.releaseNotes,
      is_uploaded: row.s3Key !== null,
      s3_key: row.s3Key,
      s3_url: url,
      s3_url_expiry: expiry,
      sha256: row.sha256,
      size_bytes: row.sizeBytes,
      created_at: toApiTimestamp(row.createdAt),
      created_by: row.createdBy,
      created_by_name: row.createdByName,
    };
  }

  private async existingRelease(id: number): Promise<ReleaseWithNames> {
    const row = await this.repo.findRelease(id);
    if (!row) throw releaseNotFound();
    return row;
  }

  /** Runs a release write; a version another release has (in any case) is 409. */
  private async withVersion<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error, SOFTWARE_CONSTRAINTS.releaseVersion)) throw versionTaken();
      throw error;
    }
  }

  async createRelease(claims: AccessClaims, body: SoftwareReleaseCreate): Promise<SoftwareRelease> {
    const user = await this.privileged(claims);
    const id = await this.withVersion(() =>
      this.repo.createRelease({
        version: body.version,
        releaseNotes: body.release_notes ?? null,
        createdBy: user.id,
      }),
    );
    return this.releaseDto(await this.existingRelease(id));
  }

  async listReleases(claims: AccessClaims, page: SoftwarePageQuery) {
    await this.privileged(claims);
    return listBodyAsync(await this.repo.listReleases(page), (row) => this.releaseDto(row));
  }

  async getRelease(claims: AccessClaims, id: number): Promise<SoftwareRelease> {
    await this.privileged(claims);
    return this.releaseDto(await this.existingRelease(id));
  }

  async patchRelease(
    claims: AccessClaims,
    id: number,
    patch: SoftwareReleasePatch,
  ): Promise<SoftwareRelease> {
    await this.privileged(claims);
    const changes: ReleaseChanges = {};
    if (patch.version !== undefined) changes.version = patch.version;
    if (patch.release_notes !== undefined) changes.releaseNotes = patch.release_notes;
    const updated = await this.withVersion(() =>
      this.repo.updateRelease(id, changes, this.options.now()),
    );
    if (!updated) throw releaseNotFound();
    return this.releaseDto(await this.existingRelease(id));
  }

  /**
   * Deletes a release, then its stored file (a store failure there is logged with the key).
   * A release a channel links is refused with 409 naming the channels.
   */
  async removeRelease(claims: AccessClaims, id: number): Promise<void> {
    await this.privileged(claims);
    let row;
    try {
      row = await this.repo.deleteRelease(id);
    } catch (error) {
      if (isForeignKeyViolation(error, SOFTWARE_CONSTRAINTS.channelRelease)) {
        throw releaseLinked(await this.repo.channelsLinking(id));
      }
      throw error;
    }
    if (!row) throw releaseNotFound();
    // Its file, and any upload never confirmed; a store failure is retried by the object-cleanup
    // job, so nothing of the release stays in the store.
    await this.options.cleanup.deleteRecordObjects([row.s3Key], [`${RELEASE_FOLDER}/${id}/`]);
  }

  private deleteObject(key: string, releaseId: number): Promise<void> {
    const { storage, log } = this.options;
    return deleteUnreferenced(storage, key, log, { what: 'a release file', releaseId });
  }

  // ---- release file ----

  /** A presigned PUT (1 h, 512 MB on the local store) to a fresh random key for this release. */
  async presignUpload(
    claims: AccessClaims,
    id: number,
    request: ReleasePresignRequest,
  ): Promise<{ key: string; uploadUrl: string }> {
    await this.privileged(claims);
    await this.existingRelease(id);
    const { key, url } = await presignObjectUpload(this.options, {
      folder: `${RELEASE_FOLDER}/${id}`,
      extension: EXTENSION_BY_RELEASE_TYPE[request.contentType],
      contentType: request.contentType,
      urlSeconds: RELEASE_UPLOAD_URL_SECONDS,
      maxBytes: RELEASE_MAX_BYTES,
    });
    return { key, uploadUrl: url };
  }

  /**
   * Accepts an uploaded release file: only a key handed out for this release, only when the
   * object exists, is not empty and is at most 512 MB (S3 cannot cap a presigned PUT). The file
   * is streamed once to compute its SHA-256 and size; the previous file (a re-upload) is deleted
   * once the release points at the new one. Confirming the current file again changes nothing.
   */
  async confirmUpload(claims: AccessClaims, id: number, key: string): Promise<SoftwareRelease> {
    await this.privileged(claims);
    const release = await this.existingRelease(id);
    if (!issuedKeyPattern(id).test(key)) {
      throw new AppError('bad_request', SOFTWARE_MESSAGES.uploadForeign);
    }
    if (release.s3Key === key) return this.releaseDto(release);

    const { storage } = this.options;
    await confirmObjectUpload(this.options, key, {
      maxBytes: RELEASE_MAX_BYTES,
      notUploaded: SOFTWARE_MESSAGES.uploadNotFound,
      tooLarge: SOFTWARE_MESSAGES.fileTooLarge,
      // The file is streamed once for its SHA-256 and its real size (the store's may be a claim).
      inspect: async () => {
        const opened = await storage.open(key);
        if (!opened) throw new AppError('bad_request', SOFTWARE_MESSAGES.uploadNotFound);
        const file = await digest(opened.stream);
        if (file.size === 0) throw new AppError('bad_request', SOFTWARE_MESSAGES.fileEmpty);
        if (file.size > RELEASE_MAX_BYTES) {
          throw new AppError('payload_too_large', SOFTWARE_MESSAGES.fileTooLarge);
        }
        return file;
      },
      swap: ({ sha256, size }) =>
        this.repo.replaceFile(id, { key, sha256, sizeBytes: size }, this.options.now()),
      recordGone: releaseNotFound,
      deletePrevious: (previous) => this.deleteObject(previous, id),
    });
    return this.releaseDto(await this.existingRelease(id));
  }

  // ---- software update of a device ----

  /**
   * POST devices/{id}/update: sends the release linked to the device's channel to the booth
   * (`update` command with a download link, the SHA-256 and the size) and waits for the booth to
   * install it. Super users and product admins only; a member of the device's organization gets
   * 403, anyone else 404 (as for the other device calls). Returns the device.
   */
  async updateDevice(claims: AccessClaims, deviceId: number): Promise<Device> {
    const { devices, link, storage, updateTimeoutMs, log } = this.options;
    const user = await this.options.users.caller(claims);
    const device = await devices.findById(deviceId);
    if (!device) throw notFound(DEVICE_MESSAGES.notFound);
    if (!isPrivileged(user)) {
      const member =
        device.orgId !== null && (await this.options.users.roleIn(user.id, device.orgId));
      if (!member) throw notFound(DEVICE_MESSAGES.notFound);
      throw forbidden('Only super users and Flashbooth admins can do that with a device.');
    }

    const channel =
      device.softwareChannelId !== null
        ? await this.repo.findChannel(device.softwareChannelId)
        : undefined;
    const release =
      channel?.releaseId != null ? await this.repo.findRelease(channel.releaseId) : undefined;
    if (!channel || !release) throw new AppError('conflict', SOFTWARE_MESSAGES.noRelease);
    if (release.s3Key === null || release.sha256 === null || release.sizeBytes === null) {
      throw new AppError('conflict', SOFTWARE_MESSAGES.releaseNotUploaded);
    }

    const urlSeconds = Math.min(
      MAX_URL_LIFETIME_SECONDS,
      Math.max(UPDATE_DOWNLOAD_URL_MIN_SECONDS, Math.ceil(updateTimeoutMs / 1000)),
    );
    const payload: DeviceUpdatePayload = DeviceUpdatePayloadSchema.parse({
      release_id: release.id,
      version: release.version,
      url: await storage.presignDownload(
        release.s3Key,
        urlSeconds,
        downloadName(release.version, release.s3Key),
      ),
      sha256: release.sha256,
      size_bytes: release.sizeBytes,
    });

    // A booth the broker knows is away cannot take it: answer at once instead of after the
    // update's whole timeout (minutes).
    if (await link.isAway?.(device.thingName)) throw noAnswer();
    let reply;
    try {
      reply = await link.request(device.thingName, 'update', payload, updateTimeoutMs);
    } catch (error) {
      // The booth answered with an error (download, checksum or install failed; busy): it keeps
      // running its old version. No answer stays the link's 503.
      if (error instanceof AppError && error.code === 'unprocessable') {
        log.warn(
          { deviceId, releaseId: release.id, boothError: error.message },
          'the booth refused the software update',
        );
        throw new AppError('conflict', `${SOFTWARE_MESSAGES.updateRefused}: ${error.message}`);
      }
      throw error;
    }

    const installed =
      reply.software_version ??
      (reply.status === 'updated' || reply.status === 'up_to_date' ? release.version : null);
    const row =
      installed !== null
        ? await devices.update(device.id, { softwareVersion: installed })
        : await devices.findById(device.id);
    if (!row) throw notFound(DEVICE_MESSAGES.notFound);
    const dto = this.options.deviceDto(row);
    if (row.softwareChannelId === channel.id) dto.software_channel_name = channel.name;
    return dto;
  }
}
