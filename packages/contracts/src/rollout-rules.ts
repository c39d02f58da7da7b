/**
 * Staged rollouts of a software channel's release (issue 11, "Staged rollout"): states, texts
 * and the wave plan, without a schema library so the web app can use them at runtime (the zod
 * schemas are in rollouts.ts).
 */

/** A rollout: running → paused ⇄ running → completed | stopped (threshold) | cancelled. */
export const ROLLOUT_STATES = ['running', 'paused', 'stopped', 'completed', 'cancelled'] as const;
export type RolloutState = (typeof ROLLOUT_STATES)[number];
/** A rollout that still holds its channel (at most one per channel). */
export const ACTIVE_ROLLOUT_STATES = ['running', 'paused'] as const satisfies RolloutState[];

/**
 * One booth of a rollout: pending → updating → updated | failed; skipped ("Not updated") when it
 * left the channel, or when the rollout was cancelled or stopped before it was sent the update.
 */
export const ROLLOUT_DEVICE_STATES = [
  'pending',
  'updating',
  'updated',
  'failed',
  'skipped',
] as const;
export type RolloutDeviceState = (typeof ROLLOUT_DEVICE_STATES)[number];
/** A booth in one of these states is done with for its wave. */
export const FINAL_ROLLOUT_DEVICE_STATES = [
  'updated',
  'failed',
  'skipped',
] as const satisfies RolloutDeviceState[];

/** The most failures a start request may allow before the rollout stops itself. */
export const ROLLOUT_MAX_FAILURES_LIMIT = 1000;

/**
 * The waves of `booths` booths: one booth first, then a quarter of the rest (rounded up, at
 * least one), then the rest. Empty waves are left out, so 1 booth is one wave and 2 are two.
 */
export function rolloutWaveSizes(booths: number): number[] {
  if (booths <= 0) return [];
  const rest = booths - 1;
  if (rest === 0) return [1];
  const second = Math.max(1, Math.ceil(rest / 4));
  return rest - second > 0 ? [1, second, rest - second] : [1, second];
}

/**
 * The booth agent's refusal while a capture session or another update runs (booth-agent
 * `BOOTH_MESSAGES.updateBusy` and `.busy`): a rollout retries such a booth once it is idle
 * instead of counting it as failed.
 */
export const BOOTH_BUSY_REPLY = /^(The|This) photobooth is busy\b/;

export const ROLLOUT_MESSAGES = {
  notFound: 'Rollout not found.',
  noRelease: 'Link a release to this channel before rolling it out.',
  releaseNotUploaded: "The channel's release has no file yet. Upload it first.",
  noBooths: 'No booths follow this channel.',
  alreadyActive: 'A rollout of this channel is already in progress.',
  notRunning: 'Only a running rollout can be paused.',
  notPaused: 'Only a paused rollout can be resumed.',
  notActive: 'Only a running or paused rollout can be cancelled.',
  maxFailures: `The failure threshold must be a whole number from 0 to ${ROLLOUT_MAX_FAILURES_LIMIT}.`,
  // Per-booth notes kept in last_error.
  leftChannel: 'The booth left the channel.',
  notUpdatedCancelled: 'The rollout was cancelled before this booth was updated.',
  notUpdatedStopped: 'The rollout stopped before this booth was updated.',
  noAnswer: 'No answer from the booth; retrying once it is idle.',
  waveTimeout: (version: string, minutes: number) =>
    `Did not report version ${version} within the wave's ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  // Stop reasons.
  releaseGone: "The release was deleted or lost its file, so the rollout can't continue.",
  tooManyFailures: (failed: number, allowed: number, lastError: string | null) =>
    `Stopped: ${failed} booth${failed === 1 ? '' : 's'} failed, more than the ${allowed} allowed.` +
    (lastError ? ` Last error: ${lastError}` : ''),
  // The web app's texts.
  loadFailed: 'Failed to load the rollout.',
  startFailed: 'Failed to start the rollout.',
  actionFailed: 'Failed to change the rollout.',
} as const;
