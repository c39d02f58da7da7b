import { z } from 'zod';
import { TimestampSchema } from './common.js';
import {
  ROLLOUT_DEVICE_STATES,
  ROLLOUT_MAX_FAILURES_LIMIT,
  ROLLOUT_MESSAGES,
  ROLLOUT_STATES,
} from './rollout-rules.js';

export * from './rollout-rules.js';

/** POST software/channels/{id}/rollouts: optionally how many booths may fail before it stops. */
export const RolloutStartSchema = z
  .object({
    max_failures: z
      .number({ error: ROLLOUT_MESSAGES.maxFailures })
      .int(ROLLOUT_MESSAGES.maxFailures)
      .min(0, ROLLOUT_MESSAGES.maxFailures)
      .max(ROLLOUT_MAX_FAILURES_LIMIT, ROLLOUT_MESSAGES.maxFailures)
      .optional(),
  })
  .strict();
export type RolloutStart = z.infer<typeof RolloutStartSchema>;

export const RolloutCountsSchema = z.object({
  pending: z.number().int(),
  updating: z.number().int(),
  updated: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
});
export type RolloutCounts = z.infer<typeof RolloutCountsSchema>;

/** One booth of a rollout, with what the server last heard from it. */
export const RolloutDeviceSchema = z.object({
  device_id: z.number().int(),
  name: z.string(),
  thing_name: z.string(),
  state: z.enum(ROLLOUT_DEVICE_STATES),
  /** Update commands sent so far. */
  attempts: z.number().int(),
  /** Why it failed, was skipped or is waiting for a retry. */
  last_error: z.string().nullable(),
  /** The booth's last reported status (idle, offline, ...). */
  device_status: z.string(),
  software_version: z.string().nullable(),
  updated_at: TimestampSchema,
});
export type RolloutDevice = z.infer<typeof RolloutDeviceSchema>;

export const RolloutWaveSchema = z.object({
  /** 1, 2, 3. */
  wave: z.number().int(),
  counts: RolloutCountsSchema,
  devices: z.array(RolloutDeviceSchema),
});
export type RolloutWave = z.infer<typeof RolloutWaveSchema>;

/** A staged rollout of a channel's release, with every booth grouped by wave. */
export const RolloutSchema = z.object({
  id: z.number().int(),
  channel_id: z.number().int(),
  /** Null once the release is deleted; `version` stays. */
  release_id: z.number().int().nullable(),
  version: z.string(),
  state: z.enum(ROLLOUT_STATES),
  /** The rollout stops itself when more booths than this fail. */
  max_failures: z.number().int(),
  stop_reason: z.string().nullable(),
  /** The wave being sent (1-based). */
  current_wave: z.number().int(),
  wave_count: z.number().int(),
  counts: RolloutCountsSchema,
  waves: z.array(RolloutWaveSchema),
  started_by: z.number().int().nullable(),
  started_by_name: z.string().nullable(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
  finished_at: TimestampSchema.nullable(),
});
export type Rollout = z.infer<typeof RolloutSchema>;

/** GET software/channels/{id}/rollouts/latest: the channel's newest rollout, or none yet. */
export const LatestRolloutSchema = z.object({ rollout: RolloutSchema.nullable() });
export type LatestRollout = z.infer<typeof LatestRolloutSchema>;
