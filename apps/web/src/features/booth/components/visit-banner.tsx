import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { formatRupees, type VisitNotice } from '../booth-model';

/** What a notice says: its title, its words and the one thing to do about it. */
function noticeContent(
  notice: VisitNotice,
  deviceId: number,
): { title: string; body: string; action: ReactNode } {
  const captureLink = (templateId: number, label: string) => (
    <Link
      className="btn btn-primary booth-visit-action"
      to={paths.regular.capture.getHref(deviceId, templateId)}
    >
      {label}
    </Link>
  );
  switch (notice.kind) {
    case 'capturing':
      return {
        title: 'Your photos are being taken',
        body: `${notice.templateName ? `${notice.templateName}: ` : ''}the photobooth is working on your capture.`,
        action: captureLink(notice.templateId, 'Back to your capture'),
      };
    case 'paid':
      return {
        title: `Paid: ${notice.templateName}`,
        body: `Your payment of ${formatRupees(notice.amountRupees)} is ready to use. Capture now, or pick another template below: the payment goes with it.`,
        action: captureLink(notice.templateId, 'Capture now'),
      };
    case 'checkout':
      return {
        title: `Payment not finished: ${notice.templateName}`,
        body: `Your payment of ${formatRupees(notice.amountRupees)} is still open. Continue it, or pick another template below: the same payment is used.`,
        action: (
          <a className="btn btn-primary booth-visit-action" href={notice.paymentUrl}>
            Continue to payment
          </a>
        ),
      };
    case 'credited':
      return {
        title: 'Added to your credit',
        body: `Your unused payment of ${formatRupees(notice.amountRupees)} was added to your Flashbooth credit. It pays for your next photo.`,
        action: null,
      };
  }
}

/**
 * The visitor's place at this booth, above the templates (issue 37): drawn from the server's
 * visit, so it is the same after a reload, on another tab or on a second phone.
 */
export function VisitBanner({ notice, deviceId }: { notice: VisitNotice; deviceId: number }) {
  const { title, body, action } = noticeContent(notice, deviceId);
  return (
    <section
      className={`card booth-visit booth-visit-${notice.kind}`}
      role="status"
      data-testid="visit-banner"
    >
      {notice.kind === 'capturing' && (
        <span className="spinner booth-visit-spinner" aria-hidden="true" />
      )}
      <div className="booth-visit-text">
        <h2 className="booth-visit-title">{title}</h2>
        <p>{body}</p>
      </div>
      {action}
    </section>
  );
}
