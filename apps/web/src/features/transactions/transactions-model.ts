import type { DeliveryFailureNotice, Transaction, User } from '@flashbooth/contracts';
import { formatUtcTimestamp } from '@/lib/format-date';

/** My Transactions texts (spec: visitor.md sections 2 and 8). */
export const TRANSACTION_MESSAGES = {
  loadFailed: 'Could not load your transactions. Please try again later.',
  emptyTitle: 'No Transactions Found',
  emptySearching: 'Try adjusting your search query.',
  emptyNone: 'When you make payments, they will appear here.',
  searchPlaceholder: 'Search by Order ID, venue name...',
  generalTransaction: 'General Transaction',
  refund: 'Apply for Refund',
} as const;

/** Spec section 9: page size 10 for transactions. */
export const TRANSACTIONS_PAGE_SIZE = 10;

/** Spec: the rupee with two decimals; an unreadable amount shows as 0.00. */
export function formatAmount(amountRupees: number | null | undefined): string {
  const amount =
    typeof amountRupees === 'number' && Number.isFinite(amountRupees) ? amountRupees : 0;
  return `₹${amount.toFixed(2)}`;
}

const present = (value: string | null | undefined): value is string =>
  typeof value === 'string' && value.trim() !== '';

/** Spec: "org : device", or the org alone, the device alone, or "General Transaction". */
export function venueLabel(transaction: Pick<Transaction, 'org_name' | 'device_name'>): string {
  const org = present(transaction.org_name) ? transaction.org_name.trim() : null;
  const device = present(transaction.device_name) ? transaction.device_name.trim() : null;
  if (org && device) return `${org} : ${device}`;
  return org ?? device ?? TRANSACTION_MESSAGES.generalTransaction;
}

export type StateTone = 'success' | 'pending' | 'failed' | 'other';

const KNOWN_STATES: Record<string, { label: string; tone: StateTone }> = {
  COMPLETED: { label: 'Completed', tone: 'success' },
  PENDING: { label: 'Pending', tone: 'pending' },
  FAILED: { label: 'Failed', tone: 'failed' },
  // Ours (issue 37): one wording, one capitalisation, in the visitor's words.
  REFUND_PENDING: { label: 'Refund pending', tone: 'pending' },
  REFUNDED: { label: 'Refunded', tone: 'other' },
  CREDIT_USED: { label: 'Paid with credit', tone: 'success' },
  CREDIT_RETURNED: { label: 'Credit returned', tone: 'other' },
};

/**
 * Spec: COMPLETED, PENDING, FAILED read Completed, Pending, Failed; others as-is, or "Unknown".
 * Ours (issue 37): a failed payment the visitor cancelled reads Cancelled, one left to expire
 * Expired; a refund to the payment method Refunded (Refund pending on its way), and a payment
 * that became credit "Added to your credit"; a capture paid with credit "Paid with credit".
 */
export function stateBadge(
  state: string | null | undefined,
  detail: Pick<Transaction, 'failure_reason' | 'refund_to'> = {},
): { label: string; tone: StateTone } {
  if (!present(state)) return { label: 'Unknown', tone: 'other' };
  const known = state.trim();
  if (known === 'FAILED' && detail.failure_reason === 'cancelled') {
    return { label: 'Cancelled', tone: 'other' };
  }
  if (known === 'FAILED' && detail.failure_reason === 'expired') {
    return { label: 'Expired', tone: 'other' };
  }
  if (known === 'REFUNDED' && detail.refund_to === 'credit') {
    return { label: 'Added to your credit', tone: 'success' };
  }
  return KNOWN_STATES[known] ?? { label: known, tone: 'other' };
}

/** A line's badge: its state with what the server says about why. */
export function transactionBadge(transaction: Transaction): { label: string; tone: StateTone } {
  return stateBadge(transaction.state, transaction);
}

/** Whether the line is a capture paid with credit (no order at a provider). */
export function isCreditLine(transaction: Pick<Transaction, 'kind'>): boolean {
  return transaction.kind === 'credit';
}

/** A line's key in the list: payments and credit lines have ids of their own. */
export function transactionKey(transaction: Pick<Transaction, 'kind' | 'id'>): string {
  return `${transaction.kind ?? 'payment'}-${transaction.id}`;
}

/** What the card shows as the order id; the provider's id may be missing on a failed start. */
export function orderIdLabel(transaction: Pick<Transaction, 'phonepe_order_id'>): string {
  return present(transaction.phonepe_order_id) ? transaction.phonepe_order_id : 'Not available';
}

export type RefundUser = Pick<User, 'id' | 'name' | 'phone'> | null | undefined;

/**
 * Spec section 7: a mailto to the support address with a prefilled subject and a body holding
 * the order id, internal id, amount, date, venue, user name, phone and user id. Encoded with
 * encodeURIComponent (spaces as %20: mail apps show a "+" literally).
 */
export function refundMailto(
  supportEmail: string,
  transaction: Transaction,
  user: RefundUser,
): string {
  const orderId = orderIdLabel(transaction);
  const subject = `Refund Request - Order ${orderId}`;
  const body = [
    'Hello Flashbooth Support,',
    '',
    'I would like to request a refund for this transaction:',
    '',
    `Order ID: ${orderId}`,
    `Transaction ID: ${transaction.id}`,
    `Amount: ${formatAmount(transaction.amount_rupees)}`,
    `Date: ${formatUtcTimestamp(transaction.created_at)} (UTC)`,
    `Venue: ${venueLabel(transaction)}`,
    `Status: ${transactionBadge(transaction).label}`,
    '',
    `Name: ${present(user?.name) ? user.name : 'Not available'}`,
    `Phone: ${present(user?.phone) ? user.phone : 'Not available'}`,
    `User ID: ${user?.id ?? 'Not available'}`,
    '',
    'Reason for the refund:',
    '',
  ].join('\r\n');
  return `mailto:${supportEmail}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}

/** What the transaction card says about a delivery failure the server refunded. */
export interface DeliveryFailureView {
  title: string;
  /** What happened: how many items reached us by the deadline. */
  what: string;
  /** What was refunded and where, or that nothing was charged. */
  refund: string;
  /** Items that came after the deadline, and that the refund stands. */
  later: string;
}

/** "1 hour", "90 minutes", "2 hours" (the server's DELIVERY_DEADLINE_MINUTES). */
export function deadlineInWords(minutes: number): string {
  if (minutes < 60 || minutes % 60 !== 0) return `${minutes} minutes`;
  const hours = minutes / 60;
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

const items = (n: number) => (n === 1 ? '1 photo' : `${n} photos`);

/**
 * The delivery-failure notice in the tone of the refund policy: photos that did not all arrive
 * within the promised time, the refund made by itself (to the payment method, or as credit when
 * the method refused it), and what happens to photos that arrive later.
 */
export function deliveryFailureView(notice: DeliveryFailureNotice): DeliveryFailureView {
  const within = deadlineInWords(notice.deadline_minutes);
  const what =
    notice.items_delivered === 0
      ? `Your photos did not reach us within ${within} of your session.`
      : `Only ${notice.items_delivered} of your ${items(notice.items_promised)} reached us within ${within} of your session.`;
  const amount = formatAmount(notice.refund_rupees);
  let refund: string;
  if (notice.refund_to === 'payment') {
    refund = notice.refund_pending
      ? `${amount} is being refunded to your payment method. It can take 5-7 working days to show.`
      : `${amount} was refunded to your payment method.`;
  } else if (notice.refund_to === 'credit' && notice.refund_rupees > 0) {
    refund = `${amount} was added back to your Flashbooth credit.`;
  } else {
    refund = 'This session was free, so there was nothing to refund.';
  }
  const arrivedLater = Math.max(0, notice.items_arrived - notice.items_delivered);
  const later =
    arrivedLater > 0
      ? `${items(arrivedLater)} arrived later and ${arrivedLater === 1 ? 'is' : 'are'} in My Media. The refund stands.`
      : 'If your photos arrive later, they will still appear in My Media.';
  return { title: 'Photos not delivered in time', what, refund, later };
}
