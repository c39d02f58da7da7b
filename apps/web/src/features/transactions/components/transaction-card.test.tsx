import type { Transaction } from '@flashbooth/contracts';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TransactionCard } from './transaction-card';

function transaction(overrides: Partial<Transaction> = {}): Transaction {
  return {
    id: 41,
    phonepe_order_id: 'FB-ORDER-0041',
    amount_rupees: 49.5,
    state: 'PENDING',
    created_at: '2025-05-14T21:05:09',
    org_name: 'Cafe Mocha',
    device_name: null,
    ...overrides,
  };
}

function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

describe('TransactionCard', () => {
  it('shows amount, venue, state, date and time, order id and the refund mail link', () => {
    const html = renderToStaticMarkup(
      <TransactionCard
        transaction={transaction()}
        refundHref="mailto:help@example.com?subject=x"
      />,
    );
    const shown = text(html);
    expect(shown).toContain('₹49.50');
    expect(shown).toContain('Cafe Mocha');
    expect(shown).not.toContain(' : ');
    expect(shown).toContain('Pending');
    expect(shown).toContain('14/05/2025 21:05');
    expect(shown).toContain('FB-ORDER-0041');
    expect(html).toContain('href="mailto:help@example.com?subject=x"');
    expect(shown).toContain('Apply for Refund');
    expect(html).toContain('txn-badge-pending');
  });

  it('shows the delivery-failure notice with the refund and where it went, named by its heading', () => {
    const html = renderToStaticMarkup(
      <TransactionCard
        transaction={transaction({
          id: 7,
          state: 'REFUNDED',
          delivery_failure: {
            failed_at: '2025-05-14T22:05:09',
            deadline_minutes: 60,
            refund_to: 'payment',
            refund_rupees: 49.5,
            refund_pending: false,
            items_promised: 1,
            items_delivered: 0,
            items_arrived: 0,
          },
        })}
        refundHref="mailto:help@example.com"
      />,
    );
    const shown = text(html);
    expect(shown).toContain('Photos not delivered in time');
    expect(shown).toContain('Your photos did not reach us within 1 hour of your session.');
    expect(shown).toContain('₹49.50 was refunded to your payment method.');
    expect(html).toContain('aria-labelledby="txn-7-delivery"');
    expect(html).toContain('id="txn-7-delivery"');
  });

  it('shows no notice for a transaction delivered in time', () => {
    const html = renderToStaticMarkup(
      <TransactionCard transaction={transaction({ delivery_failure: null })} refundHref="x" />,
    );
    expect(html).not.toContain('txn-notice');
  });
});
