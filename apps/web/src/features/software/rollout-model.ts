import type { Rollout, RolloutCounts, RolloutDevice } from '@flashbooth/contracts';
import {
  ROLLOUT_MESSAGES,
  type RolloutDeviceState,
  type RolloutState,
  SOFTWARE_MESSAGES,
} from '@flashbooth/contracts/rules';
import { plural } from '@/lib/plural';

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
  // Left the channel, or the rollout was cancelled or stopped before it got the update.
  skipped: 'Not updated',
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

/** A booth's state in a rollout that has ended never sends it anything: not updated. */
const ENDED_NOTE: Partial<Record<RolloutState, string>> = {
  cancelled: ROLLOUT_MESSAGES.notUpdatedCancelled,
  stopped: ROLLOUT_MESSAGES.notUpdatedStopped,
};

/**
 * The state a booth is shown in: as the server says, except that a booth still pending in a
 * cancelled or stopped rollout (recorded before the server skipped such booths) is not updated.
 */
export function shownBoothState(
  state: RolloutDeviceState,
  rolloutState: RolloutState,
): RolloutDeviceState {
  return state === 'pending' && ENDED_NOTE[rolloutState] ? 'skipped' : state;
}

/** The counts as shown: pending booths of a cancelled or stopped rollout are not updated. */
export function shownCounts(counts: RolloutCounts, rolloutState: RolloutState): RolloutCounts {
  if (!ENDED_NOTE[rolloutState] || counts.pending === 0) return counts;
  return { ...counts, pending: 0, skipped: counts.skipped + counts.pending };
}

/** What to say under a booth: its error or note, or why a pending booth waits. */
export function boothNote(
  device: Pick<RolloutDevice, 'state' | 'last_error' | 'device_status'>,
  rolloutState: RolloutState = 'running',
) {
  const ended = ENDED_NOTE[rolloutState];
  if (device.state === 'pending' && ended) return ended;
  if (device.state === 'pending' && device.device_status !== 'idle') {
    return device.device_status === 'offline'
      ? 'Waiting: the booth is offline.'
      : `Waiting: the booth is busy (${device.device_status}).`;
  }
  if (device.state === 'updated') return null;
  return device.last_error;
}

/**
 * A booth is done once its update was carried out: updated, or failed trying. A booth the
 * rollout never updated (cancelled, stopped, left the channel) is not: a cancelled rollout's
 * bar does not look finished.
 */
const DONE_STATES: RolloutDeviceState[] = ['updated', 'failed'];

export interface RolloutProgress {
  done: number;
  total: number;
  /** "0 of 1 booth done", for the progress bar. */
  text: string;
  /** The bar's filled parts, one per done state with booths, as a percentage of all booths. */
  parts: { state: RolloutDeviceState; percent: number }[];
}

/**
 * The rollout bar: filled as far as booths are done (an empty bar while none is), each done
 * state in its colour; the other booths are the empty rest.
 */
export function rolloutProgress(counts: RolloutCounts): RolloutProgress {
  const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
  const done = DONE_STATES.reduce((sum, state) => sum + counts[state], 0);
  return {
    done,
    total,
    text: `${done} of ${plural(total, 'booth')} done`,
    parts: DONE_STATES.filter((state) => counts[state] > 0).map((state) => ({
      state,
      percent: (counts[state] / total) * 100,
    })),
  };
}

/** "1 booth" / "3 booths" for a wave's heading. */
export function boothCount(count: number): string {
  return plural(count, 'booth');
}
