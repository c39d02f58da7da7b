import type { Ref } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { formatRupees, type VisitNotice } from '../booth-model';

/**
 * The visitor's place at this booth, above the templates (issue 37): drawn from the server's
 * visit, so it is the same after a reload, on another tab or on a second phone.
 */
export function VisitBanner({
  notice,
  deviceId,
  ref,
}: {
  notice: VisitNotice;
  deviceId: number;
  ref?: Ref<HTMLElement>;
}) {
  const captureHref = (templateId: number) => paths.regular.capture.getHref(deviceId, templateId);
  switch (notice.kind) {
    case 'capturing':
      return (
        <section
          ref={ref}
          tabIndex={-1}
          className="card booth-visit booth-visit-capturing"
          role="status"
          data-testid="visit-banner"
        >
          <span className="spinner booth-visit-spinner" aria-hidden="true" />
          <div className="booth-visit-text">
            <h2 className="booth-visit-title">Your photos are being taken</h2>
            <p>
              {notice.templateName ? `${notice.templateName}: ` : ''}the photobooth is working on
              your capture.
            </p>
          </div>
          <Link className="btn btn-primary booth-visit-action" to={captureHref(notice.templateId)}>
            Back to your capture
          </Link>
        </section>
      );
    case 'paid':
      return (
        <section
          ref={ref}
          tabIndex={-1}
          className="card booth-visit booth-visit-paid"
          role="status"
          data-testid="visit-banner"
        >
          <div className="booth-visit-text">
            <h2 className="booth-visit-title">Paid: {notice.templateName}</h2>
            <p>
              Your payment of {formatRupees(notice.amountRupees)} is ready to use. Capture now, or
              pick another template below: the payment goes with it.
            </p>
          </div>
          <Link className="btn btn-primary booth-visit-action" to={captureHref(notice.templateId)}>
            Capture now
          </Link>
        </section>
      );
    case 'checkout':
      return (
        <section
          ref={ref}
          tabIndex={-1}
          className="card booth-visit booth-visit-checkout"
          role="status"
          data-testid="visit-banner"
        >
          <div className="booth-visit-text">
            <h2 className="booth-visit-title">Payment not finished: {notice.templateName}</h2>
            <p>
              Your payment of {formatRupees(notice.amountRupees)} is still open. Continue it, or
              pick another template below: the same payment is used.
            </p>
          </div>
          <a className="btn btn-primary booth-visit-action" href={notice.paymentUrl}>
            Continue to payment
          </a>
        </section>
      );
    case 'credited':
      return (
        <section
          ref={ref}
          tabIndex={-1}
          className="card booth-visit booth-visit-credited"
          role="status"
          data-testid="visit-banner"
        >
          <div className="booth-visit-text">
            <h2 className="booth-visit-title">Added to your credit</h2>
            <p>
              Your unused payment of {formatRupees(notice.amountRupees)} was added to your
              Flashbooth credit. It pays for your next photo.
            </p>
          </div>
        </section>
      );
  }
}
