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
});
