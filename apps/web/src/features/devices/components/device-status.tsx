import { statusView } from '../devices-model';

/** The booth's status as a coloured dot and its label (devices-model: statusView). */
export function DeviceStatus({ status }: { status: string }) {
  const view = statusView(status);
  return (
    <span className={`device-status device-status-${view.tone}`} data-testid="device-status">
      <span className="device-status-dot" aria-hidden="true" />
      {view.label}
    </span>
  );
}

/** Whether the live status stream is connected: "Live", or "Reconnecting…" while it is not. */
export function LiveIndicator({ connected }: { connected: boolean }) {
  return (
    <span
      className={`device-live ${connected ? 'device-live-on' : 'device-live-off'}`}
      role="status"
      data-testid="live-indicator"
      title={
        connected
          ? 'Status, prints left and version update as the booths report them.'
          : 'The live status connection is being restored; what shows may be out of date.'
      }
    >
      <span className="device-live-dot" aria-hidden="true" />
      {connected ? 'Live' : 'Reconnecting…'}
    </span>
  );
}
