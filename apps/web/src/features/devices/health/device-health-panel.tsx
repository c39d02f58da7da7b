import { LoadErrorPanel } from '@/components/ui/list-states';
import { errorText } from '@/lib/error-text';
import { useDeviceHealth } from '../api/get-device-health';
import { HEALTH_TEXT, type HealthRow, panelRows, reportState } from './device-health-model';
import './device-health.css';

const TONE_LABEL: Record<HealthRow['tone'], string> = {
  ok: 'OK',
  warn: 'Warning',
  bad: 'Needs attention',
  neutral: '',
  stale: '',
};

/**
 * The device detail's health panel: what the booth last reported (camera, printer,
 * disk, delivery queue, last delivery) and the server's delivery figures, refreshed every 15 s.
 * An offline booth's readings are shown as last known, greyed, with their age.
 */
export function DeviceHealthPanel({ deviceId }: { deviceId: number }) {
  const query = useDeviceHealth(deviceId);
  const now = new Date();
  const report = query.data ? reportState(query.data, now) : null;
  return (
    <section
      className="card device-panel device-health"
      aria-labelledby="device-health-title"
      aria-busy={query.isPending || undefined}
    >
      <div className="device-health-head">
        <h2 className="console-section-title" id="device-health-title">
          {HEALTH_TEXT.title}
        </h2>
        {report?.heading && (
          <span
            className={`device-health-when${report.offline ? ' device-health-when-offline' : ''}`}
            data-testid="device-health-when"
          >
            {report.heading}
          </span>
        )}
      </div>
      {query.isPending ? (
        <p className="device-health-note">
          <span className="spinner spinner-sm" aria-hidden="true" /> {HEALTH_TEXT.loading}
        </p>
      ) : query.isError ? (
        <LoadErrorPanel
          className="device-health-note"
          message={errorText(query.error, HEALTH_TEXT.failed)}
          query={query}
        />
      ) : (
        <>
          {report?.note && (
            <p
              className="device-health-note device-health-offline"
              data-testid="device-health-offline"
            >
              {report.note}
            </p>
          )}
          {!query.data.health && <p className="device-health-note">{HEALTH_TEXT.never}</p>}
          <dl className="device-health-list" data-testid="device-health">
            {panelRows(query.data, now).map((row) => (
              <div key={row.label} className={`device-health-row device-health-${row.tone}`}>
                <dt>{row.label}</dt>
                <dd>
                  {row.tone !== 'neutral' && (
                    <span className="device-health-dot" aria-hidden="true" />
                  )}
                  {TONE_LABEL[row.tone] && (
                    <span className="visually-hidden">{TONE_LABEL[row.tone]}: </span>
                  )}
                  <span className="device-health-value">{row.value}</span>
                  {row.lastKnown && <span className="device-health-known">{row.lastKnown}</span>}
                  {row.hint && <span className="device-health-hint">{row.hint}</span>}
                </dd>
              </div>
            ))}
          </dl>
        </>
      )}
    </section>
  );
}
