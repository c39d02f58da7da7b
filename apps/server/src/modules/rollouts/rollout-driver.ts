import { randomUUID } from 'node:crypto';
import {
  BOOTH_BUSY_REPLY,
  type DeviceReplyMessage,
  type DeviceUpdatePayload,
  DeviceUpdatePayloadSchema,
  FINAL_ROLLOUT_DEVICE_STATES,
  type RolloutDeviceState,
  ROLLOUT_MESSAGES,
} from '@flashbooth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { RolloutRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { DeviceLink } from '../mqtt/device-link.js';
import { MAX_URL_LIFETIME_SECONDS, type ObjectStorage } from '../storage/storage.js';
import type { RolloutPolicy } from './rollouts.service.js';
import type {
  ClaimedBooth,
  ReleaseFile,
  RolloutsRepository,
  WaveStateCount,
} from './rollouts.repository.js';

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

export interface RolloutDriverOptions {
  rollouts: RolloutsRepository;
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

/**
 * Moves staged rollouts on: a background job on every instance. Everything a rollout knows is in
 * the database (rollouts, rollout_devices): any instance may drive any rollout, a restarted one
 * carries on from there, and a booth gets one update command per claim (pending → updating, one
 * conditional UPDATE).
 */
export class RolloutDriver {
  readonly instanceId: string;
  private stopping = false;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: RolloutDriverOptions) {
    this.instanceId = options.instanceId ?? randomUUID().slice(0, 8);
  }

  private get repo() {
    return this.options.rollouts;
  }

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

const FINAL = new Set<RolloutDeviceState>(FINAL_ROLLOUT_DEVICE_STATES);

function sumOf(counts: WaveStateCount[], match: (row: WaveStateCount) => boolean): number {
  return counts.filter(match).reduce((total, row) => total + row.count, 0);
}
