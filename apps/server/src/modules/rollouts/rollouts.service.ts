import {
  ACTIVE_ROLLOUT_STATES,
  type Rollout,
  type RolloutCounts,
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
import type { UsersService } from '../users/users.service.js';
import type { RolloutBooth, RolloutsRepository, RolloutWithNames } from './rollouts.repository.js';

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
  policy: Pick<RolloutPolicy, 'maxFailures'>;
  now: () => Date;
  log: FastifyBaseLogger;
}

const emptyCounts = (): RolloutCounts => ({
  pending: 0,
  updating: 0,
  updated: 0,
  failed: 0,
  skipped: 0,
});

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

/**
 * Staged rollouts of a software channel's release: staff start, read, pause, resume and cancel
 * them (super users and product admins only: `software.manage`); `RolloutDriver`, a background
 * job on every instance, moves them on.
 */
export class RolloutsService {
  constructor(private readonly options: RolloutsServiceOptions) {}

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
