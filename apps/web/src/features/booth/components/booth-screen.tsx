import { SearchBox } from '@/components/ui/search-box';
import type { VisitorTemplate } from '@flashbooth/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { BOOTH_AVAILABILITY_MESSAGES, boothAvailability } from '@flashbooth/contracts/rules';
import { type Ref, useCallback, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { LineIcon } from '@/components/ui/line-icon';
import { LoadErrorPanel } from '@/components/ui/list-states';
import { usePaymentRedirect } from '@/api/payments/start-payment';
import { useSelf } from '@/api/users/get-self';
import { captureRunning, pickAtVisit, useVisit, visitQueryKey } from '@/api/visits/visit';
import { ApiError } from '@/lib/api-client';
import { deviceTemplatesQueryOptions, useDeviceTemplates } from '../api/get-device-templates';
import { isNotFound, useBoothDevice } from '../api/get-device';
import {
  BOOTH_MESSAGES,
  BOOTH_STATUS_MS,
  decidePick,
  decideVisitPick,
  parseDeviceId,
  priceBadge,
  visitNotice,
} from '../booth-model';
import { forgetHere, hintedHere, rememberHere } from '../here-hint';
import { CONFIRMED_FRAGMENT, LocationDialog } from './location-dialog';
import { PaymentOverlay } from './payment-overlay';
import { ScrollHint } from './scroll-hint';
import { TemplateCardSkeleton } from './template-card';
import { TemplateList } from './template-list';
import { VisitBanner } from './visit-banner';
import './booth.css';

/** A dead end with a way home: a bad link, an unknown booth or a failed load. */
function BoothProblem({
  title,
  message,
  onRetry,
}: {
  title: string;
  message: string;
  onRetry?: () => void;
}) {
  return (
    <main className="page booth-page" id="main">
      <div className="card panel-message booth-panel booth-problem" role="alert">
        <h1 className="booth-problem-title">{title}</h1>
        <p>{message}</p>
        <div className="booth-problem-actions">
          {onRetry && (
            <button type="button" className="btn btn-secondary" onClick={onRetry}>
              Try again
            </button>
          )}
          <Link className="btn btn-primary" to={paths.home.getHref()}>
            Go to home
          </Link>
        </div>
      </div>
    </main>
  );
}

/** Behind the location dialog and while the booth loads. */
function BoothSkeleton() {
  return (
    <div className="booth-skeleton" aria-busy="true" data-testid="booth-skeleton">
      <span className="visually-hidden" role="status">
        Loading photobooth…
      </span>
      <div className="booth-header" aria-hidden="true">
        <div className="booth-header-text">
          <div className="skeleton booth-skeleton-title" />
          <div className="skeleton booth-skeleton-line" style={{ width: '50%' }} />
        </div>
        <div className="skeleton booth-skeleton-badge" />
      </div>
      <div className="skeleton booth-skeleton-search" aria-hidden="true" />
      <div className="card-grid booth-grid" aria-hidden="true">
        {Array.from({ length: 6 }, (_, index) => (
          <TemplateCardSkeleton key={index} portrait={index % 3 === 1} />
        ))}
      </div>
    </div>
  );
}

const UNAVAILABLE_TITLES = {
  offline: 'This photobooth is offline',
  busy: 'This photobooth is busy',
  updating: 'This photobooth is updating',
} as const;

/**
 * Why the booth cannot take the visitor now, above the templates; the page keeps asking (the
 * device query polls) and the notice goes away by itself when the booth is back.
 */
function BoothUnavailable({
  availability,
  ref,
}: {
  availability: keyof typeof UNAVAILABLE_TITLES;
  ref: Ref<HTMLElement>;
}) {
  return (
    <section
      ref={ref}
      tabIndex={-1}
      className={`card booth-unavailable booth-unavailable-${availability}`}
      role="status"
      aria-live="polite"
      data-testid="booth-unavailable"
    >
      <span className="spinner booth-unavailable-spinner" aria-hidden="true" />
      <div>
        <h2 className="booth-unavailable-title">{UNAVAILABLE_TITLES[availability]}</h2>
        <p>{BOOTH_AVAILABILITY_MESSAGES[availability]}</p>
        <p className="booth-unavailable-note">
          No payment is taken while it is unavailable. This page updates by itself when it is back.
        </p>
      </div>
    </section>
  );
}

function PinIcon() {
  return (
    <LineIcon size={16}>
      <path d="M12 21s-7-6.2-7-11.5A7 7 0 0 1 19 9.5C19 14.8 12 21 12 21Z" />
      <circle cx="12" cy="9.5" r="2.5" />
    </LineIcon>
  );
}

/**
 * Booth template selection (spec: visitor.md section 2): the visitor confirms the booth, then
 * picks a template; credits that cover the price (or a free booth) go straight to capture,
 * anything else goes through the payment provider and comes back to the payment status screen.
 */
export function BoothScreen({ deviceIdParam }: { deviceIdParam: string | undefined }) {
  const deviceId = parseDeviceId(deviceIdParam);
  if (deviceId === null) {
    return (
      <BoothProblem
        title={BOOTH_MESSAGES.missingDeviceId}
        message="This photobooth link is incomplete. Please scan the QR code on the photobooth again."
      />
    );
  }
  return <BoothSelection key={deviceId} deviceId={deviceId} />;
}

function BoothSelection({ deviceId }: { deviceId: number }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const device = useBoothDevice(deviceId);
  // Always fresh on opening a booth: the credits decide between capture and payment.
  const self = useSelf('regular', { staleTime: 0 });
  // Where the visitor is at this booth, as the server records it (issue 37).
  const visit = useVisit(deviceId);
  // Yes, I'm Here tapped in the page's HTML, before this script ran (LocationDialog); or told
  // lately at this booth (the visit remembers it: back from a payment, on a reload).
  const [tapped, setTapped] = useState(
    () => typeof window !== 'undefined' && window.location.hash === CONFIRMED_FRAGMENT,
  );
  const confirmed = tapped || visit.data?.location_confirmed === true;
  // Answered in this tab lately (here-hint.ts): the dialog waits for the visit to say so.
  const [hinted] = useState(() => hintedHere(deviceId));
  const askHere = !confirmed && !(hinted && visit.isPending);
  useEffect(() => {
    if (tapped || visit.data?.location_confirmed === true) rememberHere(deviceId);
    else if (visit.data) forgetHere();
  }, [visit.data, tapped, deviceId]);
  const confirm = useCallback(() => {
    setTapped(true);
    // Remembered on the visit; a failure only means the dialog is asked again next time.
    void pickAtVisit(deviceId).catch(() => undefined);
  }, [deviceId]);
  /** On the way to a page outside the app (an open checkout). */
  const [leaving, setLeaving] = useState(false);
  const picking = useRef(false);
  const [search, setSearch] = useState('');
  // Templates load while the visitor reads the dialog, so the list is ready when they confirm.
  const templates = useDeviceTemplates(deviceId, search, device.isSuccess);
  const { status, show } = useTimedStatus(BOOTH_STATUS_MS);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const unavailableRef = useRef<HTMLElement>(null);
  const refetchDevice = device.refetch;
  const refetchVisit = visit.refetch;
  const paymentFailed = useCallback(
    (failure: { message: string; code?: string }) => {
      if (failure.code === 'already_paid') {
        // Paid already (on another tab or phone): the visit shows it first, with Capture now.
        void refetchVisit();
        show('info', failure.message);
        return;
      }
      show('error', failure.message);
      // The server saw the booth go offline or get busy: show it on the page at once.
      if (failure.code) void refetchDevice();
    },
    [show, refetchDevice, refetchVisit],
  );
  const payment = usePaymentRedirect(paymentFailed);
  const availability = device.data ? boothAvailability(device.data.status) : 'available';

  // The dialog closes onto the page: start from its heading, not the top of the document.
  useEffect(() => {
    if (confirmed) headingRef.current?.focus();
  }, [confirmed]);
  // The early tap's fragment has done its work (the visit remembers it from now on).
  useEffect(() => {
    if (window.location.hash === CONFIRMED_FRAGMENT) {
      const { pathname, search } = window.location;
      window.history.replaceState(window.history.state, '', `${pathname}${search}`);
      void pickAtVisit(deviceId).catch(() => undefined);
    }
  }, [deviceId]);
  // Back from the provider's page with Back: the page may be restored as it was left.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      setLeaving(false);
      picking.current = false;
      void refetchVisit();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [refetchVisit]);

  if (device.isError) {
    return isNotFound(device.error) ? (
      <BoothProblem title="Photobooth not found" message={BOOTH_MESSAGES.deviceNotFound} />
    ) : (
      <BoothProblem
        title="Photobooth unavailable"
        message={BOOTH_MESSAGES.deviceLoadFailed}
        onRetry={() => void device.refetch()}
      />
    );
  }

  const runSearch = (term: string) => {
    // A search always starts again from the first page, even when the term is unchanged.
    void queryClient.resetQueries({
      queryKey: deviceTemplatesQueryOptions(deviceId, term).queryKey,
      exact: true,
    });
    setSearch(term);
  };

  const toCapture = (templateId: number, captureKind?: VisitorTemplate['capture_kind']) =>
    // The capture screen's texts follow the kind before the booth confirms it.
    void navigate(paths.regular.capture.getHref(deviceId, templateId), {
      state: captureKind ? { captureKind } : null,
    });

  const pick = async (template: VisitorTemplate) => {
    if (picking.current) return;
    const current = visit.data?.capture;
    if (current && captureRunning(current.state)) {
      // A capture of this visit is under way: back to it, whatever was tapped.
      toCapture(current.template_id ?? template.id);
      return;
    }
    if (availability !== 'available') {
      // The notice already says why: bring it into view rather than repeat it over the cards.
      unavailableRef.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
      unavailableRef.current?.focus({ preventScroll: true });
      return;
    }
    const decision = decidePick({
      priceRupees: device.data?.price_rupees,
      creditsRupees: self.data?.credits_rupees,
      userStatus: self.status,
    });
    if (decision.kind === 'loading') {
      show('info', BOOTH_MESSAGES.stillLoading);
      return;
    }
    if (decision.kind === 'user-failed') {
      show('error', BOOTH_MESSAGES.userFailed);
      return;
    }
    // The pick is the visit's: a finished round is let go, an open payment follows the pick.
    picking.current = true;
    let recorded;
    try {
      recorded = await pickAtVisit(deviceId, template.id);
      queryClient.setQueryData(visitQueryKey(deviceId), recorded);
    } catch (error) {
      picking.current = false;
      if (error instanceof ApiError && error.code === 'capture_in_progress') {
        const latest = (await refetchVisit()).data?.capture;
        toCapture(latest?.template_id ?? template.id);
        return;
      }
      show('error', error instanceof ApiError ? error.message : BOOTH_MESSAGES.pickFailed);
      return;
    }
    picking.current = false;
    const next = decideVisitPick(recorded);
    switch (next.kind) {
      case 'resume':
        toCapture(next.templateId);
        return;
      case 'capture':
        toCapture(template.id, template.capture_kind);
        return;
      case 'checkout':
        // Credit that covers the price now beats an open checkout (it is left to expire).
        if (decision.kind === 'capture') {
          toCapture(template.id, template.capture_kind);
          return;
        }
        // The visit's open checkout: the same payment, not a second one.
        setLeaving(true);
        window.location.assign(next.paymentUrl);
        return;
      case 'spec':
        if (decision.kind === 'capture') toCapture(template.id, template.capture_kind);
        else void payment.pay(deviceId, template.id);
        return;
    }
  };
  const notice = visitNotice(visit.data);

  const badge = device.data
    ? device.data.price_rupees > 0 && self.isPending
      ? null
      : priceBadge(device.data.price_rupees, self.data?.credits_rupees)
    : null;

  return (
    <>
      <main className="page booth-page" id="main" inert={payment.processing || leaving}>
        {!confirmed || !device.data ? (
          <BoothSkeleton />
        ) : (
          <>
            <header className="booth-header">
              <div className="booth-header-text">
                <h1 className="page-title booth-title focus-heading" ref={headingRef} tabIndex={-1}>
                  Select Your Template
                </h1>
                <p className="booth-where">
                  <PinIcon />
                  <span>
                    {device.data.org_name && (
                      <>
                        <span className="booth-where-org">{device.data.org_name}</span>
                        <span aria-hidden="true"> · </span>
                      </>
                    )}
                    {device.data.name}
                  </span>
                </p>
              </div>
              {badge ? (
                <p className={`booth-badge booth-badge-${badge.kind}`} data-testid="price-badge">
                  {badge.label}
                </p>
              ) : (
                <div className="skeleton booth-skeleton-badge" aria-hidden="true" />
              )}
            </header>

            {notice && <VisitBanner notice={notice} deviceId={deviceId} />}

            {availability !== 'available' && notice?.kind !== 'capturing' && (
              <BoothUnavailable ref={unavailableRef} availability={availability} />
            )}

            {self.isError && (
              <LoadErrorPanel
                className="booth-user-error"
                message={BOOTH_MESSAGES.userFailed}
                query={self}
                buttonClassName="btn btn-link"
              />
            )}

            {/* The screen's messages, under its heading (the shared toast). */}
            <Toast status={status} ms={BOOTH_STATUS_MS} />

            <SearchBox
              label="Search templates"
              placeholder="Search templates"
              applied={search}
              onSearch={runSearch}
            />

            <TemplateList
              query={templates}
              search={search}
              onPick={(template) => void pick(template)}
              onClearSearch={() => runSearch('')}
              onLoadMoreFailed={() => show('error', BOOTH_MESSAGES.templatesFailed)}
            />

            <ScrollHint hidden={status !== null} />
          </>
        )}

        <LocationDialog open={askHere} device={device.data} onConfirm={confirm} />
      </main>
      <PaymentOverlay open={payment.processing || leaving} />
    </>
  );
}
