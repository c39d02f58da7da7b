import { useCallback, useEffect, useState } from 'react';
import { isCaptureKind, type CaptureKind } from '@flashbooth/contracts/rules';
import { Link, useLocation, useSearchParams } from 'react-router';
import { usePaymentRedirect } from '@/api/payments/start-payment';
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
import {
  howToSteps,
  madeThing,
  motionMoment,
  motionSecondsLabel,
  motionStageText,
  successText,
  type MotionMoment,
  type MotionStage,
} from '../capture-kind-texts';
import { countdownLabel, secondsLeftUntil } from '../countdown';
import { useCaptureFlow } from '../use-capture-flow';
import { CapturedPhoto } from './captured-photo';
import './capture.css';

function progressText(state: CaptureState, kind: CaptureKind, stage: MotionStage | null): string {
  switch (state.kind) {
    case 'initial-ping':
      return 'Connecting to the photobooth…';
    case 'ping-retry-pending':
      return 'Still connecting to the photobooth…';
    case 'show-capture-interface':
      return state.canCapture
        ? 'The photobooth is ready for you.'
        : 'The photobooth is getting ready…';
    case 'device-offline':
      return 'Waiting for the photobooth to come back online…';
    case 'capture-command-sent':
      return 'Starting capture…';
    case 'awaiting-device-ready':
      return 'Getting the photobooth ready…';
    case 'device-processing-wait':
      return kind === 'photo' || stage === null
        ? 'Look at the photobooth and strike a pose!'
        : motionStageText(kind, stage);
    case 'awaiting-media-upload':
      return kind === 'photo' ? 'Uploading your photos…' : `Uploading your ${madeThing(kind)}…`;
    default:
      return '';
  }
}

/**
 * A motion capture's stage (the booth's countdown, the recording, the booth making the clip),
 * moving on by itself at each stage's end; null for a photo or outside the booth's session.
 */
function useMotionMoment(state: CaptureState, countdownMs: number): MotionMoment | null {
  const motion =
    state.kind === 'device-processing-wait' && state.captureKind !== 'photo' ? state : null;
  const [now, setNow] = useState(() => Date.now());
  const moment = motion
    ? motionMoment(motion.readyAt, countdownMs, motion.recordSeconds, now)
    : null;
  const nextAt = moment && moment.stage !== 'making' ? moment.endsAt : null;
  useEffect(() => {
    if (nextAt === null) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, nextAt - Date.now()) + 15);
    return () => clearTimeout(timer);
  }, [nextAt]);
  return moment;
}

/**
 * The seconds left until `endsAt`, changing on whole seconds. Mounted afresh for each `endsAt`
 * (keyed by it), so the first figure is read from the clock at that moment: a reading from
 * before the wait began showed 45, then 39 a moment later. Read again whenever the page comes
 * back into view.
 */
function Countdown({
  endsAt,
  label = countdownLabel,
}: {
  endsAt: number;
  /** The words beside the figure ("seconds left"). */
  label?: (seconds: number) => string;
}) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      const at = Date.now();
      setNow(at);
      // Wake just after the next whole second before the end.
      if (at < endsAt) timer = setTimeout(tick, ((endsAt - at) % 1000 || 1000) + 15);
    };
    timer = setTimeout(tick, ((endsAt - Date.now()) % 1000 || 1000) + 15);
    const onVisible = () => {
      if (document.visibilityState === 'visible') setNow(Date.now());
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [endsAt]);
  const seconds = secondsLeftUntil(endsAt, now);
  return (
    // Outside the live region: a screen reader is told to strike a pose once, not a number
    // every second.
    <p className="capture-countdown" data-testid="capture-countdown">
      <span className="capture-countdown-value">{seconds}</span>
      <span> {label(seconds)}</span>
    </p>
  );
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
  // The booth page says which kind was picked; the capture's answer says it for certain.
  // It is kept once known: the states after the booth's session do not carry it.
  const hint = (useLocation().state as { captureKind?: unknown } | null)?.captureKind;
  const [kind, setKind] = useState<CaptureKind>(isCaptureKind(hint) ? hint : 'photo');
  if ('captureKind' in state && state.captureKind && state.captureKind !== kind) {
    setKind(state.captureKind);
  }
  const moment = useMotionMoment(state, timings.perCaptureWaitMs);
  const [payError, setPayError] = useState<string | null>(null);
  const payment = usePaymentRedirect(
    useCallback((failure: { message: string; code?: string }) => {
      setPayError(failure.message);
    }, []),
  );
  const boothHref = paths.regular.booth.getHref(deviceId);
  const progress = progressText(state, kind, moment?.stage ?? null);
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
        {howToSteps(kind).map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>

      <div className="capture-progress" role="status" aria-live="polite">
        {progress && <p>{progress}</p>}
      </div>
      {state.kind === 'device-processing-wait' &&
        (moment && moment.stage !== 'making' ? (
          <div
            className={`capture-motion capture-motion-${moment.stage}`}
            data-testid="capture-motion"
          >
            {moment.stage === 'recording' && (
              <span className="capture-rec" aria-hidden="true">
                <span className="capture-rec-dot" /> REC
              </span>
            )}
            <Countdown
              key={`${moment.stage}-${moment.endsAt}`}
              endsAt={moment.endsAt}
              label={(seconds) => motionSecondsLabel(moment.stage, seconds)}
            />
          </div>
        ) : (
          <Countdown key={state.endsAt} endsAt={state.endsAt} />
        ))}

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
        <div className="card capture-panel capture-panel-wait" role="alert">
          <h2>{state.status === 'updating' ? 'Photobooth updating' : 'Photobooth busy'}</h2>
          <p>{state.message ?? CAPTURE_MESSAGES.busy}</p>
          <button type="button" className="btn btn-primary" onClick={retry}>
            Retry Connection
          </button>
        </div>
      )}

      {state.kind === 'device-offline' && (
        <div className="card capture-panel capture-panel-wait" role="alert">
          <h2>Photobooth offline</h2>
          <p>{CAPTURE_MESSAGES.offline}</p>
          <p className="capture-panel-note">
            Nothing is charged while it is offline. This screen goes on by itself when the
            photobooth is back.
          </p>
          <Link className="btn btn-secondary" to={boothHref}>
            Back to the photobooth
          </Link>
        </div>
      )}

      {state.kind === 'needs-payment' && (
        <div className="card capture-panel capture-panel-wait" role="alert">
          <h2>Payment needed</h2>
          <p>{CAPTURE_MESSAGES.paymentRequired}</p>
          {payError && <p className="status status-error">{payError}</p>}
          <button
            type="button"
            className="btn btn-primary"
            disabled={payment.processing}
            aria-busy={payment.processing}
            onClick={() => {
              setPayError(null);
              void payment.pay(deviceId, templateId);
            }}
          >
            {payment.processing
              ? 'Opening the payment page…'
              : state.priceRupees !== null
                ? `Pay ₹${state.priceRupees.toFixed(2)}`
                : 'Pay'}
          </button>
          <Link className="btn btn-secondary" to={boothHref}>
            Choose another template
          </Link>
        </div>
      )}

      {state.kind === 'permanent-error' && (
        <div className="card capture-panel capture-panel-error" role="alert">
          <h2>Something went wrong</h2>
          <p>{state.message}</p>
          {state.action === 'refund' && (
            <Link className="btn btn-primary" to={paths.regular.transactions.getHref()}>
              Apply for Refund
            </Link>
          )}
          {state.action === 'retry' && (
            <>
              <button type="button" className="btn btn-primary" onClick={retry}>
                Try again
              </button>
              <p className="capture-panel-note">Nothing was charged for this attempt.</p>
            </>
          )}
          {state.action === 'back' && (
            <Link className="btn btn-primary" to={boothHref}>
              Back to the photobooth
            </Link>
          )}
        </div>
      )}

      {state.kind === 'capture-successful' && (
        <div className="card capture-panel capture-panel-success" role="status" aria-live="polite">
          <h2>{successText(kind)}</h2>
          <CapturedPhoto
            mediaIds={state.mediaIds}
            alt={
              kind === 'photo' ? 'The photo you just took' : `Your ${madeThing(kind)}, as a still`
            }
          />
          <Link className="btn btn-primary" to={paths.regular.media.getHref()}>
            Go to My Media
          </Link>
          <RepostConsent mediaIds={state.mediaIds} />
        </div>
      )}
    </main>
  );
}
