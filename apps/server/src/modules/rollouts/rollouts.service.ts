import { randomUUID } from 'node:crypto';
import {
  ACTIVE_ROLLOUT_STATES,
  BOOTH_BUSY_REPLY,
  type DeviceReplyMessage,
  type DeviceUpdatePayload,
  DeviceUpdatePayloadSchema,
  FINAL_ROLLOUT_DEVICE_STATES,
  type Rollout,
  type RolloutCounts,
  type RolloutDeviceState,
  ROLLOUT_MESSAGES,
  type RolloutStart,
  rolloutWaveSizes,
  SOFTWARE_MESSAGES,
} from '@flashbooth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { isUniqueViolation } from '../../db/postgres-errors.js';
import type { RolloutRow } from '../../db/schema.js';
import { AppError, notFound } from '../../errors.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import type { DeviceLink } from '../mqtt/device-link.js';
import { MAX_URL_LIFETIME_SECONDS, type ObjectStorage } from '../storage/storage.js';
import type { UsersService } from '../users/users.service.js';
import type {
  ClaimedBooth,
  ReleaseFile,
  RolloutBooth,
  RolloutsRepository,
  RolloutWithNames,
  WaveStateCount,
} from './rollouts.repository.js';

export interface RolloutPolicy {
  /** How often the driver runs (also the margin after which a silent claim is re-checked). */
  tickMs: number;
  /** Failures allowed before a rollout stops itself, unless the start request says otherwise. */
  maxFailures: number;
  /** How long a busy or silent booth is left alone before the next try. */
  retryMs: number;
  /** A wave whose booths are not all done this long after it began fails the rest. */
  waveTimeoutMs: number;
  /** Booths claimed per rollout and tick (each is one update command). */
  batchSize: number;
}

export interface RolloutsServiceOptions {
  rollouts: RolloutsRepository;
  users: Pick<UsersService, 'privilegedCaller'>;
  storage: Pick<ObjectStorage, 'presignDownload'>;
  link: Pick<DeviceLink, 'request'>;
  /** Records the version a booth said it installed (the devices module's row). */
  recordVersion: (deviceId: number, version: string) => Promise<void>;
  /** How long a booth may take to download, verify and install (DEVICE_UPDATE_TIMEOUT_MS). */
  updateTimeoutMs: number;
  policy: RolloutPolicy;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Names this instance in `claimed_by` (the log and the database say who sent what). */
  instanceId?: string;
}

/** What one driver run did (the job runner logs it when something happened). */
export interface DriveReport extends Record<string, number> {
  sent: number;
  updated: number;
  retried: number;
  failed: number;
  skipped: number;
  advanced: number;
  finished: number;
}

const emptyCounts = (): RolloutCounts => ({
  pending: 0,
  updating: 0,
  updated: 0,
  failed: 0,
  skipped: 0,
});

const FINAL = new Set<RolloutDeviceState>(FINAL_ROLLOUT_DEVICE_STATES);

/** The waves of a rollout: the booths in order cut into one, a quarter of the rest, the rest. */
export function planWaves(deviceIds: number[]): number[][] {
  const waves: number[][] = [];
  let start = 0;
  for (const size of rolloutWaveSizes(deviceIds.length)) {
    waves.push(deviceIds.slice(start, start + size));
    start += size;
  }
  return waves;
}

/** What the booth's answer to `update` (or the lack of one) means for its row. */
export type UpdateOutcome =
  | { kind: 'updated'; version: string }
  | { kind: 'retry'; note: string }
  | { kind: 'failed'; note: string };

export function outcomeOf(
  result: { reply: DeviceReplyMessage } | { error: unknown },
  version: string,
): UpdateOutcome {
  if ('reply' in result) {
    return { kind: 'updated', version: result.reply.software_version ?? version };
  }
  const { error } = result;
  if (error instanceof AppError && error.code === 'unprocessable') {
    // The booth answered with an error: busy is worth another try once it is idle; anything
    // else (download, checksum, install) is this booth's failure.
    return BOOTH_BUSY_REPLY.test(error.message)
      ? { kind: 'retry', note: error.message }
      : { kind: 'failed', note: error.message };
  }
  return { kind: 'retry', note: ROLLOUT_MESSAGES.noAnswer };
}

/** The download name a release file gets (as the software module names it). */
function downloadName(version: string, key: string): string {
  const extension = /\.(tar\.gz|zip|bin)$/.exec(key)?.[1] ?? 'bin';
  return `flashbooth-${version}.${extension}`;
}

/**
 * Staged rollouts of a software channel's release (issue 11). Staff start, read, pause, resume
 * and cancel them (super users and product admins only: `software.manage`); the driver job moves
 * them on. Everything a rollout knows is in the database (rollouts, rollout_devices): any
 * instance may drive any rollout, a restarted one carries on from there, and a booth gets one
 * update command per claim (pending → updating, one conditional UPDATE).
 */
export class RolloutsService {
  readonly instanceId: string;
  private stopping = false;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: RolloutsServiceOptions) {
    this.instanceId = options.instanceId ?? randomUUID().slice(0, 8);
  }

  private get repo() {
    return this.options.rollouts;
  }

  private privileged(claims: AccessClaims) {
    return this.options.users.privilegedCaller(claims, SOFTWARE_MESSAGES.onlyAdmins);
  }

  // ---- staff calls ----

  /**
   * POST software/channels/{id}/rollouts: rolls the channel's linked release out to every booth
   * on the channel now, in waves. 409 without a release (or its file), without booths, or while
   * another rollout of the channel runs or is paused.
   */
  async start(claims: AccessClaims, channelId: number, body: RolloutStart): Promise<Rollout> {
    const user = await this.privileged(claims);
    const channel = await this.repo.channelRelease(channelId);
    if (!channel) throw notFound(SOFTWARE_MESSAGES.channelNotFound);
    if (channel.releaseId === null || channel.version === null) {
      throw new AppError('conflict', ROLLOUT_MESSAGES.noRelease);
    }
    if (channel.s3Key === null || channel.sha256 === null || channel.sizeBytes === null) {
      throw new AppError('conflict', ROLLOUT_MESSAGES.releaseNotUploaded);
    }
    const booths = await this.repo.boothsOnChannel(channelId);
    if (booths.length === 0) throw new AppError('conflict', ROLLOUT_MESSAGES.noBooths);

    let id: number;
    try {
      id = await this.repo.create({
        channelId,
        releaseId: channel.releaseId,
        version: channel.version,
        maxFailures: body.max_failures ?? this.options.policy.maxFailures,
        startedBy: user.id,
        waves: planWaves(booths),
        now: this.options.now(),
      });
    } catch (error) {
      if (isUniqueViolation(error, 'rollouts_active_once')) {
        throw new AppError('conflict', ROLLOUT_MESSAGES.alreadyActive);
      }
      throw error;
    }
    this.options.log.info(
      { rolloutId: id, channelId, version: channel.version, booths: booths.length },
      'rollout started',
    );
    return this.rolloutById(id);
  }

  /** GET software/channels/{id}/rollouts/latest: the newest rollout of the channel, or null. */
  async latest(claims: AccessClaims, channelId: number): Promise<{ rollout: Rollout | null }> {
    await this.privileged(claims);
    if (!(await this.repo.channelRelease(channelId))) {
      throw notFound(SOFTWARE_MESSAGES.channelNotFound);
    }
    const row = await this.repo.latestOfChannel(channelId);
    return { rollout: row ? await this.toDto(row) : null };
  }

  async get(claims: AccessClaims, id: number): Promise<Rollout> {
    await this.privileged(claims);
    return this.rolloutById(id);
  }

  async pause(claims: AccessClaims, id: number): Promise<Rollout> {
    return this.change(claims, id, ['running'], 'paused', ROLLOUT_MESSAGES.notRunning);
  }

  /** Resuming gives the current wave a fresh timeout (the pause does not count against it). */
  async resume(claims: AccessClaims, id: number): Promise<Rollout> {
    return this.change(claims, id, ['paused'], 'running', ROLLOUT_MESSAGES.notPaused, {
      restartWaveClock: true,
    });
  }

  /**
   * Booths already sent the update finish it; no further booth gets it, and the ones still
   * pending are skipped at once, so none of them reads as waiting for an update.
   */
  async cancel(claims: AccessClaims, id: number): Promise<Rollout> {
    return this.change(claims, id, ACTIVE_ROLLOUT_STATES, 'cancelled', ROLLOUT_MESSAGES.notActive, {
      skipPendingNote: ROLLOUT_MESSAGES.notUpdatedCancelled,
    });
  }

  private async change(
    claims: AccessClaims,
    id: number,
    from: readonly RolloutRow['state'][],
    to: RolloutRow['state'],
    refusal: string,
    extra: { restartWaveClock?: boolean; skipPendingNote?: string } = {},
  ): Promise<Rollout> {
    await this.privileged(claims);
    const existing = await this.repo.find(id);
    if (!existing) throw notFound(ROLLOUT_MESSAGES.notFound);
    if (!(await this.repo.changeState(id, from, to, this.options.now(), extra))) {
      throw new AppError('conflict', refusal);
    }
    this.options.log.info({ rolloutId: id, state: to }, `rollout ${to}`);
    return this.rolloutById(id);
  }

  private async rolloutById(id: number): Promise<Rollout> {
    const row = await this.repo.find(id);
    if (!row) throw notFound(ROLLOUT_MESSAGES.notFound);
    return this.toDto(row);
  }

  private async toDto(row: RolloutWithNames): Promise<Rollout> {
    const booths = await this.repo.booths(row.id);
    const counts = emptyCounts();
    const waves = new Map<number, Rollout['waves'][number]>();
    for (const booth of booths) {
      counts[booth.state] += 1;
      let wave = waves.get(booth.wave);
      if (!wave) {
        wave = { wave: booth.wave + 1, counts: emptyCounts(), devices: [] };
        waves.set(booth.wave, wave);
      }
      wave.counts[booth.state] += 1;
      wave.devices.push(boothDto(booth));
    }
    const ordered = [...waves.entries()].sort(([a], [b]) => a - b).map(([, wave]) => wave);
    return {
      id: row.id,
      channel_id: row.channelId,
      release_id: row.releaseId,
      version: row.version,
      state: row.state,
      max_failures: row.maxFailures,
      stop_reason: row.stopReason,
      current_wave: row.currentWave + 1,
      wave_count: ordered.length,
      counts,
      waves: ordered,
      started_by: row.startedBy,
      started_by_name: row.startedByName,
      created_at: toApiTimestamp(row.createdAt),
      updated_at: toApiTimestamp(row.updatedAt),
      finished_at: row.finishedAt ? toApiTimestamp(row.finishedAt) : null,
    };
  }

  // ---- the driver (a background job on every instance) ----

  /** One pass over every running or paused rollout. */
  async drive(): Promise<DriveReport> {
    const report: DriveReport = {
      sent: 0,
      updated: 0,
      retried: 0,
      failed: 0,
      skipped: 0,
      advanced: 0,
      finished: 0,
    };
    if (this.stopping) return report;
    for (const rollout of await this.repo.active()) {
      try {
        await this.driveOne(rollout, report);
      } catch (error) {
        this.options.log.error({ err: error, rolloutId: rollout.id }, 'rollout step failed');
      }
    }
    return report;
  }

  /** Stops sending and ignores answers still coming (their rows are re-checked after a restart). */
  async stop(): Promise<void> {
    this.stopping = true;
  }

  /** Resolves when every update this instance sent has been answered or given up (tests). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private async driveOne(rollout: RolloutRow, report: DriveReport): Promise<void> {
    const { policy, updateTimeoutMs, now } = this.options;
    const at = now();
    const repo = this.repo;

    // What the booths say about themselves, running or paused.
    report.skipped += await repo.skipLeft(
      rollout.id,
      rollout.channelId,
      ROLLOUT_MESSAGES.leftChannel,
      at,
    );
    report.updated += await repo.markReported(rollout.id, rollout.version, at);
    // A claim older than the update wait (plus two ticks for its answer to be written) has no
    // sender waiting any more: the version check above ran first, so it is sent again later.
    report.retried += await repo.requeueStale(
      rollout.id,
      new Date(at.getTime() - updateTimeoutMs - 2 * policy.tickMs),
      new Date(at.getTime() + policy.retryMs),
      ROLLOUT_MESSAGES.noAnswer,
      at,
    );
    if (rollout.state !== 'running') return;

    const release = rollout.releaseId !== null ? await repo.releaseFile(rollout.releaseId) : null;
    if (!release) {
      if (
        await repo.changeState(rollout.id, ['running'], 'stopped', at, {
          stopReason: ROLLOUT_MESSAGES.releaseGone,
          skipPendingNote: ROLLOUT_MESSAGES.notUpdatedStopped,
        })
      ) {
        report.finished += 1;
      }
      return;
    }

    if (at.getTime() - rollout.waveStartedAt.getTime() > policy.waveTimeoutMs) {
      const minutes = Math.max(1, Math.round(policy.waveTimeoutMs / 60_000));
      report.failed += await repo.failWave(
        rollout.id,
        rollout.currentWave,
        ROLLOUT_MESSAGES.waveTimeout(rollout.version, minutes),
        at,
      );
    }

    const counts = await repo.counts(rollout.id);
    const failed = sumOf(counts, (row) => row.state === 'failed');
    if (failed > rollout.maxFailures) {
      const reason = ROLLOUT_MESSAGES.tooManyFailures(
        failed,
        rollout.maxFailures,
        await repo.lastFailure(rollout.id),
      );
      const stop = { stopReason: reason, skipPendingNote: ROLLOUT_MESSAGES.notUpdatedStopped };
      if (await repo.changeState(rollout.id, ['running'], 'stopped', at, stop)) {
        report.finished += 1;
        this.options.log.warn({ rolloutId: rollout.id, failed }, reason);
      }
      return;
    }

    let wave = rollout.currentWave;
    const open = (w: number) => sumOf(counts, (row) => row.wave === w && !FINAL.has(row.state));
    if (open(wave) === 0) {
      const next = counts.map((row) => row.wave).filter((w) => w > wave);
      if (next.length === 0) {
        if (await repo.changeState(rollout.id, ['running'], 'completed', at)) {
          report.finished += 1;
          this.options.log.info({ rolloutId: rollout.id }, 'rollout completed');
        }
        return;
      }
      const to = Math.min(...next);
      if (!(await repo.advanceWave(rollout.id, wave, to, at))) return;
      report.advanced += 1;
      wave = to;
    }

    const claimed = await repo.claim(
      { id: rollout.id, channelId: rollout.channelId, wave },
      policy.batchSize,
      this.instanceId,
      at,
    );
    if (claimed.length === 0) return;
    await repo.touch(rollout.id, at);
    const payload = await this.payloadOf(release);
    for (const booth of claimed) {
      report.sent += 1;
      this.track(this.send(rollout, booth, payload));
    }
  }

  private async payloadOf(release: ReleaseFile): Promise<DeviceUpdatePayload> {
    const seconds = Math.min(
      MAX_URL_LIFETIME_SECONDS,
      Math.max(3600, Math.ceil(this.options.updateTimeoutMs / 1000)),
    );
    return DeviceUpdatePayloadSchema.parse({
      release_id: release.id,
      version: release.version,
      url: await this.options.storage.presignDownload(
        release.s3Key,
        seconds,
        downloadName(release.version, release.s3Key),
      ),
      sha256: release.sha256,
      size_bytes: release.sizeBytes,
    });
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  /** Sends one claimed booth its update and records the answer against that claim. */
  private async send(
    rollout: RolloutRow,
    booth: ClaimedBooth,
    payload: DeviceUpdatePayload,
  ): Promise<void> {
    const { link, updateTimeoutMs, policy, now, log } = this.options;
    const context = { rolloutId: rollout.id, deviceId: booth.deviceId, attempt: booth.attempts };
    log.info(context, 'rollout: sending the update');
    let outcome: UpdateOutcome;
    try {
      const reply = await link.request(booth.thingName, 'update', payload, updateTimeoutMs);
      outcome = outcomeOf({ reply }, rollout.version);
    } catch (error) {
      outcome = outcomeOf({ error }, rollout.version);
    }
    if (this.stopping) return;
    try {
      const at = now();
      if (outcome.kind === 'updated') {
        await this.repo.settle(
          rollout.id,
          booth.deviceId,
          booth.attempts,
          { state: 'updated', lastError: null },
          at,
        );
        await this.options.recordVersion(booth.deviceId, outcome.version);
      } else if (outcome.kind === 'retry') {
        await this.repo.settle(
          rollout.id,
          booth.deviceId,
          booth.attempts,
          {
            state: 'pending',
            lastError: outcome.note,
            nextAttemptAt: new Date(at.getTime() + policy.retryMs),
          },
          at,
        );
        // Cancelled or stopped meanwhile: the retry will never come.
        await this.repo.skipPendingOfEnded(
          rollout.id,
          'cancelled',
          ROLLOUT_MESSAGES.notUpdatedCancelled,
          at,
        );
        await this.repo.skipPendingOfEnded(
          rollout.id,
          'stopped',
          ROLLOUT_MESSAGES.notUpdatedStopped,
          at,
        );
      } else {
        log.warn({ ...context, boothError: outcome.note }, 'rollout: the booth failed to update');
        await this.repo.settle(
          rollout.id,
          booth.deviceId,
          booth.attempts,
          { state: 'failed', lastError: outcome.note },
          at,
        );
      }
    } catch (error) {
      // The row stays `updating`: the next drivers re-check it by its reported version.
      log.error({ ...context, err: error }, 'rollout: recording the answer failed');
    }
  }
}

function sumOf(counts: WaveStateCount[], match: (row: WaveStateCount) => boolean): number {
  return counts.filter(match).reduce((total, row) => total + row.count, 0);
}

function boothDto(booth: RolloutBooth): Rollout['waves'][number]['devices'][number] {
  return {
    device_id: booth.deviceId,
    name: booth.name,
    thing_name: booth.thingName,
    state: booth.state,
    attempts: booth.attempts,
    last_error: booth.lastError,
    device_status: booth.deviceStatus,
    software_version: booth.softwareVersion,
    updated_at: toApiTimestamp(booth.updatedAt),
  };
}
