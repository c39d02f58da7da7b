import type { Rollout, RolloutDevice, RolloutWave } from '@flashbooth/contracts';
import { ROLLOUT_MESSAGES } from '@flashbooth/contracts/rules';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { CardSkeleton } from '@/components/console/card-skeleton';
import { ConfirmDialog } from '@/components/ui/dialog';
import { EmptyPanel, LoadErrorPanel, ListLoading } from '@/components/ui/list-states';
import { StatusMessage, useTimedStatus } from '@/components/ui/status-message';
import { paths } from '@/config/paths';
import { formatUtcTimestamp } from '@/lib/format-date';
import { errorText } from '@/lib/error-text';
import { type RolloutAction, useChangeRollout } from '../api/change-rollout';
import { useLatestRollout } from '../api/get-latest-rollout';
import { useStartRollout } from '../api/start-rollout';
import {
  BOOTH_STATE_LABEL,
  BOOTH_STATE_ORDER,
  boothCount,
  boothNote,
  countsSummary,
  ROLLOUT_STATE_LABEL,
  ROLLOUT_STATUS_MS,
  ROLLOUT_TEXT,
  rolloutProgress,
  shownBoothState,
  shownCounts,
  startBlockedReason,
  waveProgress,
} from '../rollout-model';
import './rollout-panel.css';

export type RolloutPanelProps = {
  channelId: number;
  /** The version of the release the channel links, or null when it links none. */
  releaseVersion: string | null;
  /** Super users and product admins (`software.manage`); the server checks the same. */
  canManage: boolean;
};

const ACTION_DONE: Record<RolloutAction, string> = {
  pause: ROLLOUT_TEXT.paused,
  resume: ROLLOUT_TEXT.resumed,
  cancel: ROLLOUT_TEXT.cancelled,
};

/**
 * Staged rollout of the channel's linked release (issue 11): "Roll out {version}" with a
 * confirmation, then the rollout's state, stop reason and every booth's state by wave, reloaded
 * every 2 s while it runs; Pause, Resume and Cancel.
 */
export function RolloutPanel({ channelId, releaseVersion, canManage }: RolloutPanelProps) {
  const headingId = useId();
  const reasonId = useId();
  const { status, show } = useTimedStatus(ROLLOUT_STATUS_MS);
  const latest = useLatestRollout(channelId, canManage);
  const start = useStartRollout(channelId);
  const change = useChangeRollout(channelId);
  const [confirm, setConfirm] = useState<'start' | 'cancel' | null>(null);

  const rollout = latest.data?.rollout ?? null;
  const blocked = startBlockedReason({ canManage, releaseVersion, rollout });
  const busy = start.isPending || change.isPending;
  const label = releaseVersion ? `Roll out ${releaseVersion}` : 'Roll out';

  const act = (action: RolloutAction) => {
    if (!rollout) return;
    change.mutate(
      { rolloutId: rollout.id, action },
      {
        onSuccess: () => show('success', ACTION_DONE[action]),
        onError: (error) => show('error', errorText(error, ROLLOUT_MESSAGES.actionFailed)),
        onSettled: () => setConfirm(null),
      },
    );
  };

  let body: React.ReactNode;
  if (!canManage) {
    body = <p className="muted">{ROLLOUT_TEXT.onlyAdmins}</p>;
  } else if (latest.isPending) {
    body = (
      <ListLoading label="Loading rollout…">
        <CardSkeleton />
      </ListLoading>
    );
  } else if (latest.isError) {
    body = (
      <LoadErrorPanel
        className="card panel-message panel-message-error"
        message={ROLLOUT_MESSAGES.loadFailed}
        query={latest}
      />
    );
  } else if (!rollout) {
    body = (
      <EmptyPanel className="rollout-empty">
        <p>{ROLLOUT_TEXT.none}</p>
      </EmptyPanel>
    );
  } else {
    body = <RolloutDetails rollout={rollout} />;
  }

  const active = rollout && (rollout.state === 'running' || rollout.state === 'paused');

  return (
    <section className="console-section rollout-panel" aria-labelledby={headingId}>
      <div className="rollout-head">
        <h2 id={headingId} className="console-section-title">
          {ROLLOUT_TEXT.title}
          {rollout && (
            <span
              className={`console-badge rollout-badge rollout-state-${rollout.state}`}
              data-testid="rollout-state"
            >
              {ROLLOUT_STATE_LABEL[rollout.state]}
            </span>
          )}
        </h2>
        {canManage && (
          <div
            className="console-actions rollout-actions"
            role="group"
            aria-label="Rollout actions"
          >
            <button
              type="button"
              className="btn btn-primary"
              disabled={blocked !== null || busy}
              aria-describedby={blocked ? reasonId : undefined}
              onClick={() => setConfirm('start')}
            >
              {label}
            </button>
            {rollout?.state === 'running' && (
              <button
                type="button"
                className="btn btn-secondary"
                disabled={busy}
                onClick={() => act('pause')}
              >
                Pause
              </button>
            )}
            {rollout?.state === 'paused' && (
              <button
                type="button"
                className="btn btn-secondary"
                disabled={busy}
                onClick={() => act('resume')}
              >
                Resume
              </button>
            )}
            {active && (
              <button
                type="button"
                className="btn btn-danger"
                disabled={busy}
                onClick={() => setConfirm('cancel')}
              >
                Cancel Rollout
              </button>
            )}
          </div>
        )}
      </div>
      {canManage && blocked && (
        <p id={reasonId} className="rollout-reason">
          {blocked}
        </p>
      )}
      <StatusMessage status={status} />
      {body}

      <ConfirmDialog
        open={confirm === 'start'}
        title={label}
        message={ROLLOUT_TEXT.confirm(releaseVersion ?? '')}
        confirmLabel={start.isPending ? 'Starting...' : 'Roll out'}
        busy={start.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() =>
          start.mutate(
            {},
            {
              onSuccess: (started) => show('success', ROLLOUT_TEXT.started(started.version)),
              onError: (error) => show('error', errorText(error, ROLLOUT_MESSAGES.startFailed)),
              onSettled: () => setConfirm(null),
            },
          )
        }
      />
      <ConfirmDialog
        open={confirm === 'cancel'}
        title="Cancel Rollout"
        message={ROLLOUT_TEXT.cancelConfirm}
        confirmLabel="Yes, Cancel Rollout"
        cancelLabel="Keep Going"
        danger
        busy={change.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() => act('cancel')}
      />
    </section>
  );
}

function RolloutDetails({ rollout }: { rollout: Rollout }) {
  return (
    <div className="card rollout-card" data-testid="rollout">
      <dl className="console-facts rollout-facts">
        <dt>Version</dt>
        <dd className="software-version">{rollout.version}</dd>
        <dt>Progress</dt>
        <dd>
          {waveProgress(rollout)} ·{' '}
          <span data-testid="rollout-counts">
            {countsSummary(shownCounts(rollout.counts, rollout.state))}
          </span>
        </dd>
        <dt>Failures allowed</dt>
        <dd>{rollout.max_failures}</dd>
        <dt>Started</dt>
        <dd>
          {formatUtcTimestamp(rollout.created_at)}
          {rollout.started_by_name ? ` by ${rollout.started_by_name}` : ''}
        </dd>
        {rollout.finished_at && (
          <>
            <dt>Ended</dt>
            <dd>{formatUtcTimestamp(rollout.finished_at)}</dd>
          </>
        )}
      </dl>
      {rollout.stop_reason && (
        <p className="rollout-stop" role="alert">
          {rollout.stop_reason}
        </p>
      )}
      <CountBar rollout={rollout} />
      {rollout.waves.map((wave) => (
        <WaveList
          key={wave.wave}
          wave={wave}
          current={isCurrent(rollout, wave)}
          rolloutState={rollout.state}
        />
      ))}
    </div>
  );
}

const isCurrent = (rollout: Rollout, wave: RolloutWave) =>
  rollout.state === 'running' || rollout.state === 'paused'
    ? wave.wave === rollout.current_wave
    : false;

/** Filled as far as booths are done, one coloured part per done state; empty while none is. */
function CountBar({ rollout }: { rollout: Rollout }) {
  const progress = rolloutProgress(shownCounts(rollout.counts, rollout.state));
  if (progress.total === 0) return null;
  return (
    <div
      className="rollout-bar"
      role="progressbar"
      aria-label="Booths done"
      aria-valuemin={0}
      aria-valuemax={progress.total}
      aria-valuenow={progress.done}
      aria-valuetext={progress.text}
    >
      {progress.parts.map((part) => (
        <span
          key={part.state}
          className={`rollout-bar-part booth-state-${part.state}`}
          style={{ width: `${part.percent}%` }}
        />
      ))}
    </div>
  );
}

function WaveList({
  wave,
  current,
  rolloutState,
}: {
  wave: RolloutWave;
  current: boolean;
  rolloutState: Rollout['state'];
}) {
  const headingId = useId();
  const counts = shownCounts(wave.counts, rolloutState);
  return (
    <section className="rollout-wave" aria-labelledby={headingId} data-testid={`wave-${wave.wave}`}>
      <h3 id={headingId} className="rollout-wave-title">
        Wave {wave.wave}
        <span className="rollout-wave-size">{boothCount(wave.devices.length)}</span>
        {current && <span className="console-badge rollout-badge-current">Current</span>}
      </h3>
      <p className="rollout-wave-counts">
        {BOOTH_STATE_ORDER.filter((state) => counts[state] > 0)
          .map((state) => `${counts[state]} ${BOOTH_STATE_LABEL[state].toLowerCase()}`)
          .join(' · ')}
      </p>
      <ul className="rollout-booths">
        {wave.devices.map((device) => (
          <BoothRow key={device.device_id} device={device} rolloutState={rolloutState} />
        ))}
      </ul>
    </section>
  );
}

function BoothRow({
  device,
  rolloutState,
}: {
  device: RolloutDevice;
  rolloutState: Rollout['state'];
}) {
  const note = boothNote(device, rolloutState);
  const state = shownBoothState(device.state, rolloutState);
  return (
    <li className="rollout-booth" data-testid={`rollout-booth-${device.device_id}`}>
      <div className="rollout-booth-main">
        <Link className="rollout-booth-name" to={paths.enterprise.device.getHref(device.device_id)}>
          {device.name}
        </Link>
        <span className="rollout-booth-meta">
          {device.thing_name} · version{' '}
          <span className="software-version" data-testid="booth-version">
            {device.software_version ?? 'N/A'}
          </span>
          {device.attempts > 1 ? ` · ${device.attempts} attempts` : ''}
        </span>
        {note && <span className="rollout-booth-note">{note}</span>}
      </div>
      <span className={`console-badge booth-state booth-state-${state}`} data-testid="booth-state">
        {BOOTH_STATE_LABEL[state]}
      </span>
    </li>
  );
}
