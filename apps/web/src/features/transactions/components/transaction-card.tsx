import type { Transaction } from '@flashbooth/contracts';
import { utcTimestampParts } from '@/lib/format-date';
import { LineIcon } from '@/components/ui/line-icon';
import {
  TRANSACTION_MESSAGES,
  deliveryFailureView,
  formatAmount,
  isCreditLine,
  orderIdLabel,
  transactionBadge,
  venueLabel,
} from '../transactions-model';

interface TransactionCardProps {
  transaction: Transaction;
  /** The prefilled refund mail for this transaction. */
  refundHref: string;
}

/**
 * One transaction: amount, venue, state, date and time, order id, the server's notice when its
 * photos were not delivered in time (and what was refunded), and Apply for Refund.
 */
export function TransactionCard({ transaction, refundHref }: TransactionCardProps) {
  const badge = transactionBadge(transaction);
  const credit = isCreditLine(transaction);
  const when = utcTimestampParts(transaction.created_at);
  const venue = venueLabel(transaction);
  const failure = transaction.delivery_failure
    ? deliveryFailureView(transaction.delivery_failure)
    : null;
  const noticeId = `txn-${transaction.id}-delivery`;
  return (
    <article
      className="card txn-card"
      data-testid="transaction-card"
      data-kind={transaction.kind ?? 'payment'}
      aria-label={`${formatAmount(transaction.amount_rupees)}, ${venue}, ${badge.label}`}
    >
      <div className="txn-card-top">
        <p className="txn-amount">{formatAmount(transaction.amount_rupees)}</p>
        <span className={`txn-badge txn-badge-${badge.tone}`} data-testid="transaction-state">
          {badge.label}
        </span>
      </div>
      <p className="txn-venue">{venue}</p>
      <dl className="txn-details">
        <div className="txn-detail">
          <dt>Date</dt>
          <dd>
            {when ? (
              <>
                {when.date} <span className="txn-time">{when.time}</span>
              </>
            ) : (
              transaction.created_at
            )}
          </dd>
        </div>
        {!credit && (transaction.credit_rupees ?? 0) > 0 ? (
          <div className="txn-detail">
            <dt>Credit used</dt>
            <dd data-testid="transaction-credit">{formatAmount(transaction.credit_rupees)}</dd>
          </div>
        ) : null}
        {transaction.template_name ? (
          <div className="txn-detail">
            <dt>Template</dt>
            <dd data-testid="transaction-template">{transaction.template_name}</dd>
          </div>
        ) : null}
        {credit ? (
          <div className="txn-detail">
            <dt>Paid with</dt>
            <dd>Flashbooth credit</dd>
          </div>
        ) : (
          <div className="txn-detail">
            <dt>Order ID</dt>
            <dd className="txn-order" data-testid="transaction-order-id">
              {orderIdLabel(transaction)}
            </dd>
          </div>
        )}
      </dl>
      {failure ? (
        <section
          className="txn-notice"
          aria-labelledby={noticeId}
          data-testid="transaction-delivery-failure"
        >
          <LineIcon size={20} className="txn-notice-icon">
            <circle cx="12" cy="12" r="9" />
            <path d="M12 7.5v5.5M12 16.5v.01" />
          </LineIcon>
          <div className="txn-notice-body">
            <h2 id={noticeId} className="txn-notice-title">
              {failure.title}
            </h2>
            <p>{failure.what}</p>
            <p className="txn-notice-refund">{failure.refund}</p>
            <p>{failure.later}</p>
          </div>
        </section>
      ) : null}
      {!credit && (
        <a className="btn btn-secondary txn-refund" href={refundHref}>
          <LineIcon size={18}>
            <rect x="3" y="5" width="18" height="14" rx="2" />
            <path d="m3 7 9 6 9-6" />
          </LineIcon>
          {TRANSACTION_MESSAGES.refund}
        </a>
      )}
    </article>
  );
}

/** A placeholder card while a page loads. */
export function TransactionCardSkeleton() {
  return (
    <div className="card txn-card txn-card-skeleton" aria-hidden="true">
      <div className="txn-card-top">
        <div className="skeleton" style={{ width: 110, height: 28 }} />
        <div className="skeleton" style={{ width: 84, height: 24, borderRadius: 999 }} />
      </div>
      <div className="skeleton" style={{ width: '60%', height: 14 }} />
      <div className="skeleton" style={{ width: '80%', height: 14 }} />
      <div className="skeleton" style={{ width: '100%', height: 44, borderRadius: 999 }} />
    </div>
  );
}
