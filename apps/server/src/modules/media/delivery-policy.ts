import { paiseToRupees } from '../../lib/time.js';

/**
 * The delivery promise, in one place (docs/privacy.md and the refund policy: "digital photos
 * must appear within 1 hour of the session, or it counts as a delivery failure").
 *
 * - A capture the booth never confirmed (`requested`) with nothing uploaded by its deadline
 *   (command wait + countdown + CAPTURE_DELIVERY_MARGIN_SECONDS) is given back: the booth took no
 *   photos, so the visitor's payment or credit is usable again for another try.
 * - A capture the booth took (`accepted`) has until its countdown's end plus
 *   DELIVERY_DEADLINE_MINUTES for every item to arrive. The booth may hold them in its delivery
 *   queue while it is offline (apps/booth-agent/docs/delivery-queue.md), so nothing is decided
 *   before then. At the deadline, all items uploaded: delivered; otherwise a delivery failure:
 *   the payment is refunded to its payment method (credit taken, as credit), the visitor gets an
 *   SMS and the transaction a notice, the booth's error log and the statistics count it, once.
 * - Items that arrive after the deadline are still delivered to My Media; the refund stands.
 */
export type DeadlineOutcome = 'delivered' | 'given_back' | 'delivery_failure';

export function deadlineOutcome(capture: {
  accepted: boolean;
  promised: number;
  delivered: number;
}): DeadlineOutcome {
  if (capture.promised > 0 && capture.delivered >= capture.promised) return 'delivered';
  if (!capture.accepted) return capture.delivered > 0 ? 'delivered' : 'given_back';
  return 'delivery_failure';
}

/** The failure reason kept on a capture that failed its delivery promise. */
export const DELIVERY_FAILED_REASON = 'delivery failure';

/** Our refund id for a delivery failure's refund (one per capture; [A-Za-z0-9_-], ≤ 63). */
export const deliveryRefundId = (captureId: string) => `DF-${captureId}`;
/** The id of its fallback as credit, when the payment method refused the refund. */
export const deliveryCreditRefundId = (captureId: string) => `DF-${captureId}-C`;

export type DeliveryRefund = 'payment' | 'credit' | 'none';

/** The visitor's SMS: what happened, what was refunded and where, and that photos still come. */
export function deliveryFailureSms(failure: {
  refund: DeliveryRefund;
  refundPaise: number;
  /** Credit a payment held, given back as credit with the refund. */
  heldCreditPaise: number;
  promised: number;
  delivered: number;
  booth: string | null;
  deadlineMinutes: number;
}): string {
  const rupees = (paise: number) => `₹${paiseToRupees(paise).toFixed(2)}`;
  const where = failure.booth ? ` at ${failure.booth}` : '';
  const within = hours(failure.deadlineMinutes);
  const what =
    failure.delivered === 0
      ? 'your photos did not reach us'
      : `only ${failure.delivered} of your ${failure.promised} photos reached us`;
  let refund = '';
  if (failure.refund === 'payment') {
    refund = ` We have refunded ${rupees(failure.refundPaise)} to your payment method (it can take 5-7 working days)`;
    refund +=
      failure.heldCreditPaise > 0 ? ` and ${rupees(failure.heldCreditPaise)} to your credit.` : '.';
  } else if (failure.refund === 'credit' && failure.refundPaise > 0) {
    refund = ` ${rupees(failure.refundPaise)} is back in your Flashbooth credit.`;
  }
  return (
    `Flashbooth: Sorry, ${what}${where} within ${within} of your session.${refund}` +
    ' If they arrive later, they will still appear in My Media.' +
    (failure.refund === 'payment' ? ' Details in My Transactions.' : '')
  );
}

/** "1 hour", "90 minutes", "2 hours". */
export function hours(minutes: number): string {
  if (minutes < 60 || minutes % 60 !== 0) return `${minutes} minutes`;
  const count = minutes / 60;
  return count === 1 ? '1 hour' : `${count} hours`;
}
