import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { parseId } from '@/lib/parse-id';
import { useScaledTimings } from '@/lib/timing-scale';
import { useUpdateRepostAllowed } from '@/api/media/update-repost-allowed';
import {
  CAPTURE_MESSAGES,
  CAPTURE_TIMINGS,
  type CaptureState,
  type CaptureTimings,
} from '../capture-machine';
import { useCaptureFlow } from '../use-capture-flow';
import './capture.css';

const HOW_TO = [
  'Stand in front of the photobooth screen.',
  'Press Capture below when you are ready.',
  'Watch the countdown on the booth and strike a pose for each photo.',
  'Your photos appear in My Media once they are uploaded.',
];

function progressText(state: CaptureState): string {
  switch (state.kind) {
    case 'initial-ping':
      return 'Connecting to the photobooth…';
    case 'ping-retry-pending':
      return 'Still connecting to the photobooth…';
    case 'show-capture-interface':
      return state.canCapture
        ? 'The photobooth is ready for you.'
        : 'The photobooth is getting ready…';
    case 'capture-command-sent':
      return 'Starting capture…';
    case 'awaiting-device-ready':
      return 'Getting the photobooth ready…';
    case 'device-processing-wait':
      return 'Look at the photobooth and strike a pose!';
    case 'awaiting-media-upload':
      return 'Uploading your photos…';
    default:
      return '';
  }
}

/** Seconds left until `endsAt`, refreshed a few times a second. */
function useSecondsLeft(endsAt: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (endsAt === null) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [endsAt]);
  return endsAt === null ? 0 : Math.max(0, Math.ceil((endsAt - now) / 1000));
}

function RepostConsent({ mediaIds }: { mediaIds: number[] }) {
  // Spec step 6: consent defaults to allowed (the server's default too).
  const [allowed, setAllowed] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const mutation = useUpdateRepostAllowed();
  const change = (next: boolean) => {
    if (next === allowed || mutation.isPending) return;
    setAllowed(next);
    setError(null);
    mutation.mutate(
      { media_ids: mediaIds, is_repost_allowed: next },
      {
        onError: () => {
          setAllowed(!next);
          setError(CAPTURE_MESSAGES.repostFailed);
        },
      },
    );
  };
  return (
    <div className="capture-repost">
      <label className="capture-switch">
        <input
          type="checkbox"
          role="switch"
          checked={allowed}
          disabled={mutation.isPending}
          onChange={(event) => change(event.target.checked)}
        />
        <span>Allow Flashbooth to repost my photos</span>
      </label>
      {allowed && (
        <button
          type="button"
          className="btn btn-secondary"
          disabled={mutation.isPending}
          onClick={() => change(false)}
        >
          Do Not Allow
        </button>
      )}
      <div role="alert" aria-live="assertive">
        {error && <p className="status status-error">{error}</p>}
      </div>
    </div>
  );
}

/** Photobooth capture (spec: visitor.md sections 2 and 4). */
export function CaptureScreen({ deviceIdParam }: { deviceIdParam: string | undefined }) {
  const [params] = useSearchParams();
  const deviceId = parseId(deviceIdParam);
  const templateId = parseId(params.get('template_id'));
  const timings = useScaledTimings<CaptureTimings>(CAPTURE_TIMINGS, params);
  if (deviceId === null || templateId === null) {
    return (
      <main className="page capture-page" id="main">
        <div className="card capture-panel" role="alert">
          <h1>Photobooth capture</h1>
          <p>This capture link is incomplete. Please pick a template at the photobooth again.</p>
          <Link className="btn btn-primary" to={paths.home.getHref()}>
            Go to home
          </Link>
        </div>
      </main>
    );
  }
  return (
    <CaptureFlow
      key={`${deviceId}-${templateId}`}
      deviceId={deviceId}
      templateId={templateId}
      timings={timings}
    />
  );
}

function CaptureFlow({
  deviceId,
  templateId,
  timings,
}: {
  deviceId: number;
  templateId: number;
  timings: CaptureTimings;
}) {
  const { state, capture, retry } = useCaptureFlow(deviceId, templateId, timings);
  const secondsLeft = useSecondsLeft(state.kind === 'device-processing-wait' ? state.endsAt : null);
  const progress = progressText(state);
  const working = [
    'capture-command-sent',
    'awaiting-device-ready',
    'device-processing-wait',
    'awaiting-media-upload',
  ].includes(state.kind);
  const showCapture = state.kind === 'show-capture-interface' || working;

  return (
    <main className="page capture-page" id="main">
      <h1 className="capture-title">Photobooth capture</h1>
      <ol className="capture-howto" aria-label="How it works">
        {HOW_TO.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>

      <div className="capture-progress" role="status" aria-live="polite">
        {progress && <p>{progress}</p>}
        {state.kind === 'device-processing-wait' && (
          <p className="capture-countdown" data-testid="capture-countdown">
            <span className="capture-countdown-value">{secondsLeft}</span>
            <span> seconds left</span>
          </p>
        )}
      </div>

      {state.kind === 'show-capture-interface' && state.error && (
        <p className="status status-error" role="alert">
          {state.error}
        </p>
      )}

      {showCapture && (
        <button
          type="button"
          className="btn btn-primary capture-button"
          disabled={!(state.kind === 'show-capture-interface' && state.canCapture)}
          aria-busy={working}
          onClick={capture}
        >
          Capture
        </button>
      )}

      {state.kind === 'device-busy' && (
        <div className="card capture-panel" role="alert">
          <h2>Photobooth busy</h2>
          <p>{CAPTURE_MESSAGES.busy}</p>
          <button type="button" className="btn btn-primary" onClick={retry}>
            Retry Connection
          </button>
        </div>
      )}

      {state.kind === 'permanent-error' && (
        <div className="card capture-panel capture-panel-error" role="alert">
          <h2>Something went wrong</h2>
          <p>{state.message}</p>
          <Link className="btn btn-primary" to={paths.regular.transactions.getHref()}>
            Apply for Refund
          </Link>
        </div>
      )}

      {state.kind === 'capture-successful' && (
        <div className="card capture-panel capture-panel-success" role="status" aria-live="polite">
          <h2>{CAPTURE_MESSAGES.success}</h2>
          <Link className="btn btn-primary" to={paths.regular.media.getHref()}>
            Go to My Media
          </Link>
          <RepostConsent mediaIds={state.mediaIds} />
        </div>
      )}
    </main>
  );
}
