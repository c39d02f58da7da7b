import type { Rollout, RolloutCounts, RolloutDevice } from '@flashbooth/contracts';
import {
  ROLLOUT_MESSAGES,
  type RolloutDeviceState,
  type RolloutState,
  SOFTWARE_MESSAGES,
} from '@flashbooth/contracts/rules';

/** The panel reloads the rollout this often while it runs or is paused. */
export const ROLLOUT_REFRESH_MS = 2000;
/** How long the panel's own messages stay (the software screens' 5 s). */
export const ROLLOUT_STATUS_MS = 5000;

export const ROLLOUT_TEXT = {
  title: 'Staged Rollout',
  onlyAdmins: SOFTWARE_MESSAGES.onlyAdmins,
  noRelease: ROLLOUT_MESSAGES.noRelease,
  active: 'A rollout of this channel is in progress.',
  none: 'No rollout yet. Rolling out sends the linked release to one booth first, then to a quarter of the rest, then to the rest.',
  confirm: (version: string) =>
    `This sends version ${version} to every booth on this channel in waves: one booth first, then a quarter of the rest, then the rest, each wave once the one before has reported the new version. Booths reboot when they install it. The rollout stops by itself when too many booths fail.`,
  started: (version: string) => `Rollout of ${version} started.`,
  paused: 'Rollout paused.',
  resumed: 'Rollout resumed.',
  cancelled: 'Rollout cancelled.',
  cancelConfirm:
    'No further booth will be sent the update. Booths already updating finish their update.',
} as const;

export const ROLLOUT_STATE_LABEL: Record<RolloutState, string> = {
  running: 'Running',
  paused: 'Paused',
  stopped: 'Stopped',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

export const BOOTH_STATE_LABEL: Record<RolloutDeviceState, string> = {
  pending: 'Pending',
  updating: 'Updating',
  updated: 'Updated',
  failed: 'Failed',
  skipped: 'Skipped',
};

/** The order counts are shown in. */
export const BOOTH_STATE_ORDER: RolloutDeviceState[] = [
  'updated',
  'updating',
  'pending',
  'failed',
  'skipped',
];

/** True while the rollout can still change by itself (the panel keeps reloading it). */
export function rolloutIsLive(rollout: Pick<Rollout, 'state' | 'counts'> | null): boolean {
  if (!rollout) return false;
  return rollout.state === 'running' || rollout.state === 'paused' || rollout.counts.updating > 0;
}

/**
 * Why "Roll out {version}" cannot be pressed now, or null when it can: only privileged staff,
 * only with a linked release, and not while another rollout of the channel runs or is paused.
 */
export function startBlockedReason(input: {
  canManage: boolean;
  releaseVersion: string | null;
  rollout: Pick<Rollout, 'state'> | null;
}): string | null {
  if (!input.canManage) return ROLLOUT_TEXT.onlyAdmins;
  if (!input.releaseVersion) return ROLLOUT_TEXT.noRelease;
  if (input.rollout && (input.rollout.state === 'running' || input.rollout.state === 'paused')) {
    return ROLLOUT_TEXT.active;
  }
  return null;
}

/** "Wave 2 of 3", or what the rollout came to. */
export function waveProgress(rollout: Pick<Rollout, 'state' | 'current_wave' | 'wave_count'>) {
  if (rollout.state === 'completed') return `All ${rollout.wave_count} waves done`;
  return `Wave ${rollout.current_wave} of ${rollout.wave_count}`;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** "6 booths: 4 updated, 1 updating, 1 pending" (states with none left out). */
export function countsSummary(counts: RolloutCounts): string {
  const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
  const parts = BOOTH_STATE_ORDER.filter((state) => counts[state] > 0).map(
    (state) => `${counts[state]} ${BOOTH_STATE_LABEL[state].toLowerCase()}`,
  );
  return parts.length > 0
    ? `${plural(total, 'booth')}: ${parts.join(', ')}`
    : plural(total, 'booth');
}

/** What to say under a booth: its error or note, or why a pending booth waits. */
export function boothNote(device: Pick<RolloutDevice, 'state' | 'last_error' | 'device_status'>) {
  if (device.state === 'pending' && device.device_status !== 'idle') {
    return device.device_status === 'offline'
      ? 'Waiting: the booth is offline.'
      : `Waiting: the booth is busy (${device.device_status}).`;
  }
  if (device.state === 'updated') return null;
  return device.last_error;
}

/** "1 booth" / "3 booths" for a wave's heading. */
export function boothCount(count: number): string {
  return plural(count, 'booth');
}
