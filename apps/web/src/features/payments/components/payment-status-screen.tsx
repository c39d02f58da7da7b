import { useCallback, useEffect, useMemo, useRef } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { BrandMark } from '@/components/layout/brand-logo';
import { paths } from '@/config/paths';
import { useScaledTimings } from '@/lib/timing-scale';
import { LineIcon } from '@/components/ui/line-icon';
import {
  PAYMENT_STATUS_MESSAGES,
  PAYMENT_STATUS_TIMINGS,
  parsePaymentParams,
  type PaymentParams,
  type PaymentStatusState,
  type PaymentStatusTimings,
  type RedirectTarget,
} from '../payment-status-machine';
import { usePaymentStatus } from '../use-payment-status';
import './payment-status.css';

type Tone = 'busy' | 'success' | 'danger' | 'warning';

function toneOf(state: PaymentStatusState): Tone {
  switch (state.kind) {
    case 'verifying':
      return 'busy';
    case 'succeeded':
      return 'success';
    case 'invalid':
      return 'warning';
    case 'failed':
      return state.reason === 'declined' || state.reason === 'error' ? 'danger' : 'warning';
  }
}

/** A tick, a cross, or an exclamation mark. */
const ICON_STROKES: Record<Exclude<Tone, 'busy'>, string[]> = {
  success: ['M20 6 9 17l-5-5'],
  danger: ['M18 6 6 18', 'm6 6 12 12'],
  warning: ['M12 7v6', 'M12 17v.5'],
};

function StateIcon({ tone }: { tone: Tone }) {
  if (tone === 'busy') {
    return <span className="spinner payment-spinner" aria-hidden="true" />;
  }
  return (
    <span className={`payment-icon payment-icon-${tone}`} aria-hidden="true">
      <LineIcon size={30} strokeWidth={2.6}>
        {ICON_STROKES[tone].map((d) => (
          <path key={d} d={d} />
        ))}
      </LineIcon>
    </span>
  );
}

/** Payment status (spec: visitor.md sections 2, 4, 5 and 8): /payment-status?deviceId&template_id&txn_id. */
export function PaymentStatusScreen() {
  const [query] = useSearchParams();
  const navigate = useNavigate();
  const params = useMemo(() => parsePaymentParams(query), [query]);
  const timings = useScaledTimings<PaymentStatusTimings>(PAYMENT_STATUS_TIMINGS, query);

  const onRedirect = useCallback(
    (to: RedirectTarget, templateId: number | null) => {
      // Replace: Back from the next screen must not land on a finished payment check.
      if (to === 'capture' && params) {
        // The template the payment is for now (the server's word), else the address's.
        void navigate(
          paths.regular.capture.getHref(params.deviceId, templateId ?? params.templateId),
          { replace: true },
        );
      } else if (to === 'booth' && params) {
        void navigate(paths.regular.booth.getHref(params.deviceId), { replace: true });
      } else {
        void navigate(paths.home.getHref(), { replace: true });
      }
    },
    [navigate, params],
  );
  const { state, templateFor } = usePaymentStatus(params, onRedirect, timings);
  // The link goes where the redirect goes: the template the payment is for now.
  const shown = params ? { ...params, templateId: templateFor(params.templateId) } : null;
  return <PaymentStatusView state={state} params={shown} />;
}

/** One stage of the screen: the verifying spinner, the success line, or a failure panel. */
export function PaymentStatusView({
  state,
  params,
}: {
  state: PaymentStatusState;
  params: PaymentParams | null;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const tone = toneOf(state);
  const stage = state.kind === 'failed' ? `failed-${state.reason}` : state.kind;

  // Each new stage starts from its heading, so keyboard and screen-reader users hear it first.
  useEffect(() => {
    headingRef.current?.focus();
  }, [stage]);

  let title: string;
  let message: string | null;
  switch (state.kind) {
    case 'invalid':
      title = PAYMENT_STATUS_MESSAGES.invalidTitle;
      message = PAYMENT_STATUS_MESSAGES.invalidMessage;
      break;
    case 'verifying':
      title = PAYMENT_STATUS_MESSAGES.verifyingTitle;
      message = PAYMENT_STATUS_MESSAGES.verifyingMessage;
      break;
    case 'succeeded':
      title = PAYMENT_STATUS_MESSAGES.success;
      message = null;
      break;
    case 'failed':
      title = state.title;
      message = state.message;
      break;
  }
  const problem = tone === 'danger' || tone === 'warning';

  return (
    <main className="page payment-page" id="main">
      <p className="payment-brand">
        <BrandMark size={28} />
        <span>Flashbooth</span>
      </p>
      <section
        className={`card payment-card payment-card-${tone}`}
        role={problem ? 'alert' : 'status'}
        aria-busy={state.kind === 'verifying'}
        data-testid="payment-status"
        data-state={stage}
      >
        <StateIcon tone={tone} />
        <h1 className="payment-title" ref={headingRef} tabIndex={-1}>
          {title}
        </h1>
        {message && <p className="payment-message">{message}</p>}
        {params && state.kind !== 'invalid' && (
          <p className="payment-reference">Transaction #{params.txnId}</p>
        )}

        {state.kind === 'succeeded' && params && (
          <div className="payment-actions">
            <Link
              className="btn btn-primary"
              replace
              to={paths.regular.capture.getHref(params.deviceId, params.templateId)}
            >
              Go to the photobooth now
            </Link>
          </div>
        )}
        {state.kind === 'failed' && params && (
          <p className="payment-note">
            You will be taken back to the photobooth to try again in a few seconds.
          </p>
        )}
        {problem && (
          <div className="payment-actions">
            {state.kind === 'failed' && params && (
              <Link
                className="btn btn-primary"
                replace
                to={paths.regular.booth.getHref(params.deviceId)}
              >
                Try again at the photobooth
              </Link>
            )}
            <Link
              className={state.kind === 'failed' ? 'btn btn-secondary' : 'btn btn-primary'}
              replace
              to={paths.home.getHref()}
            >
              Go to home
            </Link>
          </div>
        )}
      </section>
    </main>
  );
}
