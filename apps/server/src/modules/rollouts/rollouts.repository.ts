import {
  ACTIVE_ROLLOUT_STATES,
  type RolloutDeviceState,
  type RolloutState,
} from '@flashbooth/contracts';
import {
  and,
  asc,
  desc,
  eq,
  exists,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  notInArray,
  or,
  sql,
} from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import {
  devices,
  rolloutDevices,
  type RolloutRow,
  rollouts,
  softwareChannels,
  softwareReleases,
  users,
} from '../../db/schema.js';

/** A channel and the release it links, as a rollout needs them. */
export interface ChannelRelease {
  channelId: number;
  releaseId: number | null;
  version: string | null;
  s3Key: string | null;
  sha256: string | null;
  sizeBytes: number | null;
}

/** A release's file, as the update command carries it. */
export interface ReleaseFile {
  id: number;
  version: string;
  s3Key: string;
  sha256: string;
  sizeBytes: number;
}

export type RolloutWithNames = RolloutRow & { startedByName: string | null };

/** A booth the rollout will not send its update, and why. */
const skippedWith = (note: string, now: Date) => ({
  state: 'skipped' as const,
  lastError: note,
  nextAttemptAt: null,
  updatedAt: now,
});

/** One booth of a rollout with what the devices table knows about it. */
export interface RolloutBooth {
  deviceId: number;
  wave: number;
  state: RolloutDeviceState;
  attempts: number;
  lastError: string | null;
  updatedAt: Date;
  name: string;
  thingName: string;
  deviceStatus: string;
  softwareVersion: string | null;
}

/** A booth claimed for sending: pending → updating, with the attempt number that claim is. */
export interface ClaimedBooth {
  deviceId: number;
  attempts: number;
  thingName: string;
}

export interface WaveStateCount {
  wave: number;
  state: RolloutDeviceState;
  count: number;
}

/** What a booth's answer (or its silence) makes of its claim. */
export interface Settlement {
  state: 'pending' | 'updated' | 'failed';
  lastError: string | null;
  nextAttemptAt?: Date | null;
}

const withNames = {
  id: rollouts.id,
  channelId: rollouts.channelId,
  releaseId: rollouts.releaseId,
  version: rollouts.version,
  state: rollouts.state,
  maxFailures: rollouts.maxFailures,
  stopReason: rollouts.stopReason,
  currentWave: rollouts.currentWave,
  waveStartedAt: rollouts.waveStartedAt,
  startedBy: rollouts.startedBy,
  createdAt: rollouts.createdAt,
  updatedAt: rollouts.updatedAt,
  finishedAt: rollouts.finishedAt,
  startedByName: users.name,
};

/**
 * Rollouts and their booths. Every state change of a booth is one conditional UPDATE on its
 * current state, so concurrent drivers (several instances, a restart) never both take one.
 */
export class RolloutsRepository {
  constructor(private readonly db: Database) {}

  async channelRelease(channelId: number): Promise<ChannelRelease | undefined> {
    const [row] = await this.db
      .select({
        channelId: softwareChannels.id,
        releaseId: softwareChannels.releaseId,
        version: softwareReleases.version,
        s3Key: softwareReleases.s3Key,
        sha256: softwareReleases.sha256,
        sizeBytes: softwareReleases.sizeBytes,
      })
      .from(softwareChannels)
      .leftJoin(softwareReleases, eq(softwareReleases.id, softwareChannels.releaseId))
      .where(eq(softwareChannels.id, channelId));
    return row;
  }

  async releaseFile(releaseId: number): Promise<ReleaseFile | undefined> {
    const [row] = await this.db
      .select({
        id: softwareReleases.id,
        version: softwareReleases.version,
        s3Key: softwareReleases.s3Key,
        sha256: softwareReleases.sha256,
        sizeBytes: softwareReleases.sizeBytes,
      })
      .from(softwareReleases)
      .where(eq(softwareReleases.id, releaseId));
    if (!row || row.s3Key === null || row.sha256 === null || row.sizeBytes === null) {
      return undefined;
    }
    return { ...row, s3Key: row.s3Key, sha256: row.sha256, sizeBytes: row.sizeBytes };
  }

  /** The booths following a channel, online idle ones first (the first wave's booth), then by id. */
  async boothsOnChannel(channelId: number): Promise<number[]> {
    const rows = await this.db
      .select({ id: devices.id })
      .from(devices)
      .where(eq(devices.softwareChannelId, channelId))
      .orderBy(sql`(${devices.status} = 'idle') desc`, asc(devices.id));
    return rows.map((row) => row.id);
  }

  /**
   * Inserts a running rollout and its booths (`waves[i]` = the device ids of wave i) in one
   * transaction. The partial unique index `rollouts_active_once` refuses a second active
   * rollout of the channel (the caller turns that into 409).
   */
  async create(values: {
    channelId: number;
    releaseId: number;
    version: string;
    maxFailures: number;
    startedBy: number | null;
    waves: number[][];
    now: Date;
  }): Promise<number> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(rollouts)
        .values({
          channelId: values.channelId,
          releaseId: values.releaseId,
          version: values.version,
          maxFailures: values.maxFailures,
          startedBy: values.startedBy,
          waveStartedAt: values.now,
          createdAt: values.now,
          updatedAt: values.now,
        })
        .returning({ id: rollouts.id });
      const id = row!.id;
      const booths = values.waves.flatMap((ids, wave) =>
        ids.map((deviceId) => ({ rolloutId: id, deviceId, wave, updatedAt: values.now })),
      );
      if (booths.length > 0) await tx.insert(rolloutDevices).values(booths);
      return id;
    });
  }

  private named() {
    return this.db
      .select(withNames)
      .from(rollouts)
      .leftJoin(users, eq(users.id, rollouts.startedBy));
  }

  async find(id: number): Promise<RolloutWithNames | undefined> {
    const [row] = await this.named().where(eq(rollouts.id, id));
    return row;
  }

  async latestOfChannel(channelId: number): Promise<RolloutWithNames | undefined> {
    const [row] = await this.named()
      .where(eq(rollouts.channelId, channelId))
      .orderBy(desc(rollouts.createdAt), desc(rollouts.id))
      .limit(1);
    return row;
  }

  /** The rollouts a driver looks after: running ones, and paused ones (their booths still report). */
  async active(): Promise<RolloutRow[]> {
    return this.db
      .select()
      .from(rollouts)
      .where(inArray(rollouts.state, [...ACTIVE_ROLLOUT_STATES]))
      .orderBy(asc(rollouts.id));
  }

  async booths(rolloutId: number): Promise<RolloutBooth[]> {
    return this.db
      .select({
        deviceId: rolloutDevices.deviceId,
        wave: rolloutDevices.wave,
        state: rolloutDevices.state,
        attempts: rolloutDevices.attempts,
        lastError: rolloutDevices.lastError,
        updatedAt: rolloutDevices.updatedAt,
        name: devices.name,
        thingName: devices.thingName,
        deviceStatus: devices.status,
        softwareVersion: devices.softwareVersion,
      })
      .from(rolloutDevices)
      .innerJoin(devices, eq(devices.id, rolloutDevices.deviceId))
      .where(eq(rolloutDevices.rolloutId, rolloutId))
      .orderBy(asc(rolloutDevices.wave), asc(rolloutDevices.deviceId));
  }

  /**
   * Moves a rollout from one of `from` to `to` (pause, resume, cancel, stop, complete): one
   * conditional UPDATE, so of two concurrent changes one wins. False when it was in no `from`.
   * With `skipPendingNote` (cancel, stop) the booths still pending are skipped with that note in
   * the same transaction: no booth of an ended rollout reads as waiting for its update.
   */
  async changeState(
    id: number,
    from: readonly RolloutState[],
    to: RolloutState,
    now: Date,
    extra: { stopReason?: string; restartWaveClock?: boolean; skipPendingNote?: string } = {},
  ): Promise<boolean> {
    const finished = to !== 'running' && to !== 'paused';
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .update(rollouts)
        .set({
          state: to,
          updatedAt: now,
          finishedAt: finished ? now : null,
          ...(extra.stopReason !== undefined ? { stopReason: extra.stopReason } : {}),
          ...(extra.restartWaveClock ? { waveStartedAt: now } : {}),
        })
        .where(and(eq(rollouts.id, id), inArray(rollouts.state, [...from])))
        .returning({ id: rollouts.id });
      if (rows.length === 0) return false;
      if (extra.skipPendingNote !== undefined) {
        await tx
          .update(rolloutDevices)
          .set(skippedWith(extra.skipPendingNote, now))
          .where(and(eq(rolloutDevices.rolloutId, id), eq(rolloutDevices.state, 'pending')));
      }
      return true;
    });
  }

  /**
   * The booths of an ended (cancelled or stopped) rollout still pending are skipped with `note`:
   * for an answer that put a booth back to pending after the rollout ended.
   */
  async skipPendingOfEnded(
    rolloutId: number,
    state: RolloutState,
    note: string,
    now: Date,
  ): Promise<number> {
    const ended = this.db
      .select({ id: rollouts.id })
      .from(rollouts)
      .where(and(eq(rollouts.id, rolloutId), eq(rollouts.state, state)));
    const rows = await this.db
      .update(rolloutDevices)
      .set(skippedWith(note, now))
      .where(
        and(
          eq(rolloutDevices.rolloutId, rolloutId),
          eq(rolloutDevices.state, 'pending'),
          exists(ended),
        ),
      )
      .returning({ id: rolloutDevices.deviceId });
    return rows.length;
  }

  /** The next wave, only from `fromWave` and while running (two drivers advance it once). */
  async advanceWave(id: number, fromWave: number, toWave: number, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(rollouts)
      .set({ currentWave: toWave, waveStartedAt: now, updatedAt: now })
      .where(
        and(eq(rollouts.id, id), eq(rollouts.currentWave, fromWave), eq(rollouts.state, 'running')),
      )
      .returning({ id: rollouts.id });
    return rows.length > 0;
  }

  /** Pending booths that no longer follow the channel are skipped. */
  async skipLeft(rolloutId: number, channelId: number, note: string, now: Date): Promise<number> {
    const onChannel = this.db
      .select({ id: devices.id })
      .from(devices)
      .where(eq(devices.softwareChannelId, channelId));
    const rows = await this.db
      .update(rolloutDevices)
      .set(skippedWith(note, now))
      .where(
        and(
          eq(rolloutDevices.rolloutId, rolloutId),
          eq(rolloutDevices.state, 'pending'),
          notInArray(rolloutDevices.deviceId, onChannel),
        ),
      )
      .returning({ id: rolloutDevices.deviceId });
    return rows.length;
  }

  /**
   * Booths (pending or updating) whose recorded software version is the rollout's are updated:
   * the booth said so in its status (or a ping), whoever sent the command.
   */
  async markReported(rolloutId: number, version: string, now: Date): Promise<number> {
    const reported = this.db
      .select({ id: devices.id })
      .from(devices)
      .where(eq(devices.softwareVersion, version));
    const rows = await this.db
      .update(rolloutDevices)
      .set({ state: 'updated', lastError: null, nextAttemptAt: null, updatedAt: now })
      .where(
        and(
          eq(rolloutDevices.rolloutId, rolloutId),
          inArray(rolloutDevices.state, ['pending', 'updating']),
          inArray(rolloutDevices.deviceId, reported),
        ),
      )
      .returning({ id: rolloutDevices.deviceId });
    return rows.length;
  }

  /**
   * Booths left `updating` since before `claimedBefore` (the instance that sent the command died
   * or lost the answer; the version check ran first) go back to pending for a later retry.
   */
  async requeueStale(
    rolloutId: number,
    claimedBefore: Date,
    retryAt: Date,
    note: string,
    now: Date,
  ): Promise<number> {
    const rows = await this.db
      .update(rolloutDevices)
      .set({ state: 'pending', lastError: note, nextAttemptAt: retryAt, updatedAt: now })
      .where(
        and(
          eq(rolloutDevices.rolloutId, rolloutId),
          eq(rolloutDevices.state, 'updating'),
          lt(rolloutDevices.claimedAt, claimedBefore),
        ),
      )
      .returning({ id: rolloutDevices.deviceId });
    return rows.length;
  }

  /** Every booth of the wave not yet done fails (the wave timed out). */
  async failWave(rolloutId: number, wave: number, note: string, now: Date): Promise<number> {
    const rows = await this.db
      .update(rolloutDevices)
      .set({ state: 'failed', lastError: note, nextAttemptAt: null, updatedAt: now })
      .where(
        and(
          eq(rolloutDevices.rolloutId, rolloutId),
          eq(rolloutDevices.wave, wave),
          inArray(rolloutDevices.state, ['pending', 'updating']),
        ),
      )
      .returning({ id: rolloutDevices.deviceId });
    return rows.length;
  }

  async counts(rolloutId: number): Promise<WaveStateCount[]> {
    const rows = await this.db
      .select({
        wave: rolloutDevices.wave,
        state: rolloutDevices.state,
        count: sql<number>`count(*)::integer`,
      })
      .from(rolloutDevices)
      .where(eq(rolloutDevices.rolloutId, rolloutId))
      .groupBy(rolloutDevices.wave, rolloutDevices.state);
    return rows.map((row) => ({ ...row, count: Number(row.count) }));
  }

  /** The most recent failure's note and booth name, for the stop reason. */
  async lastFailure(rolloutId: number): Promise<string | null> {
    const [row] = await this.db
      .select({ name: devices.name, lastError: rolloutDevices.lastError })
      .from(rolloutDevices)
      .innerJoin(devices, eq(devices.id, rolloutDevices.deviceId))
      .where(and(eq(rolloutDevices.rolloutId, rolloutId), eq(rolloutDevices.state, 'failed')))
      .orderBy(desc(rolloutDevices.updatedAt))
      .limit(1);
    if (!row) return null;
    return row.lastError ? `${row.name}: ${row.lastError}` : row.name;
  }

  /**
   * Claims up to `limit` pending booths of the current wave for sending: due for an attempt,
   * still on the channel and idle (online, no capture or update running), and only while the
   * rollout is running in that wave. One conditional UPDATE (pending → updating): the candidate
   * rows are locked (`FOR UPDATE SKIP LOCKED`, so concurrent claimers take different booths), and
   * a claimer that meets a row another changed re-checks `state = 'pending'`, so exactly one of
   * them gets each booth, and only the one that got it sends.
   */
  async claim(
    rollout: { id: number; channelId: number; wave: number },
    limit: number,
    instance: string,
    now: Date,
  ): Promise<ClaimedBooth[]> {
    const ready = this.db
      .select({ id: devices.id })
      .from(devices)
      .where(and(eq(devices.softwareChannelId, rollout.channelId), eq(devices.status, 'idle')));
    const candidates = this.db
      .select({ deviceId: rolloutDevices.deviceId })
      .from(rolloutDevices)
      .where(
        and(
          eq(rolloutDevices.rolloutId, rollout.id),
          eq(rolloutDevices.wave, rollout.wave),
          eq(rolloutDevices.state, 'pending'),
          or(isNull(rolloutDevices.nextAttemptAt), lte(rolloutDevices.nextAttemptAt, now)),
          inArray(rolloutDevices.deviceId, ready),
        ),
      )
      .orderBy(asc(rolloutDevices.deviceId))
      .limit(limit)
      // Concurrent claimers take different booths instead of queueing on the same ones.
      .for('update', { skipLocked: true });
    const stillRunning = this.db
      .select({ id: rollouts.id })
      .from(rollouts)
      .where(
        and(
          eq(rollouts.id, rollout.id),
          eq(rollouts.state, 'running'),
          eq(rollouts.currentWave, rollout.wave),
        ),
      );
    const claimed = await this.db
      .update(rolloutDevices)
      .set({
        state: 'updating',
        attempts: sql`${rolloutDevices.attempts} + 1`,
        claimedAt: now,
        claimedBy: instance,
        nextAttemptAt: null,
        updatedAt: now,
      })
      .where(
        and(
          eq(rolloutDevices.rolloutId, rollout.id),
          eq(rolloutDevices.state, 'pending'),
          inArray(rolloutDevices.deviceId, candidates),
          exists(stillRunning),
        ),
      )
      .returning({ deviceId: rolloutDevices.deviceId, attempts: rolloutDevices.attempts });
    if (claimed.length === 0) return [];
    const names = await this.db
      .select({ id: devices.id, thingName: devices.thingName })
      .from(devices)
      .where(
        inArray(
          devices.id,
          claimed.map((row) => row.deviceId),
        ),
      );
    const thingOf = new Map(names.map((row) => [row.id, row.thingName]));
    return claimed
      .filter((row) => thingOf.has(row.deviceId))
      .map((row) => ({ ...row, thingName: thingOf.get(row.deviceId)! }));
  }

  /**
   * Records the booth's answer to the claim numbered `attempts`, only while that claim holds
   * (still updating, same attempt): a late answer to an older attempt changes nothing.
   */
  async settle(
    rolloutId: number,
    deviceId: number,
    attempts: number,
    settlement: Settlement,
    now: Date,
  ): Promise<boolean> {
    const rows = await this.db
      .update(rolloutDevices)
      .set({
        state: settlement.state,
        lastError: settlement.lastError,
        nextAttemptAt: settlement.nextAttemptAt ?? null,
        updatedAt: now,
      })
      .where(
        and(
          eq(rolloutDevices.rolloutId, rolloutId),
          eq(rolloutDevices.deviceId, deviceId),
          eq(rolloutDevices.state, 'updating'),
          eq(rolloutDevices.attempts, attempts),
          isNotNull(rolloutDevices.claimedAt),
        ),
      )
      .returning({ id: rolloutDevices.deviceId });
    return rows.length > 0;
  }

  async touch(id: number, now: Date): Promise<void> {
    await this.db.update(rollouts).set({ updatedAt: now }).where(eq(rollouts.id, id));
  }
}
