import type { Transaction } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import {
  TRANSACTION_MESSAGES,
  formatAmount,
  orderIdLabel,
  refundMailto,
  stateBadge,
  venueLabel,
} from './transactions-model';

function transaction(overrides: Partial<Transaction> = {}): Transaction {
  return {
    id: 41,
    phonepe_order_id: 'FB-ORDER-0041',
    amount_rupees: 49.5,
    state: 'COMPLETED',
    created_at: '2025-05-14T10:20:30',
    org_name: 'Cafe Mocha',
    device_name: 'Lobby Booth',
    ...overrides,
  };
}

/** The decoded subject and body of a mailto link. */
function readMailto(href: string) {
  const url = new URL(href);
  return {
    address: url.pathname,
    subject: url.searchParams.get('subject'),
    body: url.searchParams.get('body'),
  };
}

describe('formatAmount', () => {
  it('shows rupees with two decimals', () => {
    expect(formatAmount(49.5)).toBe('₹49.50');
    expect(formatAmount(100)).toBe('₹100.00');
    expect(formatAmount(0)).toBe('₹0.00');
    expect(formatAmount(0.1 + 0.2)).toBe('₹0.30');
    expect(formatAmount(Number.NaN)).toBe('₹0.00');
    expect(formatAmount(undefined)).toBe('₹0.00');
  });
});

describe('venueLabel', () => {
  it('joins org and device, or uses whichever there is, or General Transaction', () => {
    expect(venueLabel({ org_name: 'Cafe Mocha', device_name: 'Lobby Booth' })).toBe(
      'Cafe Mocha : Lobby Booth',
    );
    expect(venueLabel({ org_name: 'Cafe Mocha', device_name: null })).toBe('Cafe Mocha');
    expect(venueLabel({ org_name: null, device_name: 'Lobby Booth' })).toBe('Lobby Booth');
    expect(venueLabel({ org_name: '  ', device_name: 'Lobby Booth' })).toBe('Lobby Booth');
    expect(venueLabel({ org_name: null, device_name: null })).toBe('General Transaction');
    expect(venueLabel({ org_name: '', device_name: '' })).toBe(
      TRANSACTION_MESSAGES.generalTransaction,
    );
  });
});

describe('stateBadge', () => {
  it('names the three known states and keeps any other value', () => {
    expect(stateBadge('COMPLETED')).toEqual({ label: 'Completed', tone: 'success' });
    expect(stateBadge('PENDING')).toEqual({ label: 'Pending', tone: 'pending' });
    expect(stateBadge('FAILED')).toEqual({ label: 'Failed', tone: 'failed' });
    expect(stateBadge('REFUNDED')).toEqual({ label: 'REFUNDED', tone: 'other' });
    expect(stateBadge('')).toEqual({ label: 'Unknown', tone: 'other' });
    expect(stateBadge(null)).toEqual({ label: 'Unknown', tone: 'other' });
    expect(stateBadge(undefined)).toEqual({ label: 'Unknown', tone: 'other' });
  });
});

describe('orderIdLabel', () => {
  it('shows the provider order id, or says it is not there', () => {
    expect(orderIdLabel({ phonepe_order_id: 'FB-1' })).toBe('FB-1');
    expect(orderIdLabel({ phonepe_order_id: null })).toBe('Not available');
  });
});

describe('refundMailto', () => {
  const user = { id: 7, name: 'Asha Rao', phone: '+919876543210' };

  it('mails support with a subject and a body holding every detail', () => {
    const href = refundMailto('support@flashbooth.example', transaction(), user);
    expect(href.startsWith('mailto:support@flashbooth.example?subject=')).toBe(true);
    // Spaces as %20, never "+" (mail apps show a plus sign literally).
    expect(href).not.toContain('+Order');
    const mail = readMailto(href);
    expect(mail.address).toBe('support@flashbooth.example');
    expect(mail.subject).toBe('Refund Request - Order FB-ORDER-0041');
    const lines = mail.body!.split('\r\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'Order ID: FB-ORDER-0041',
        'Transaction ID: 41',
        'Amount: ₹49.50',
        'Date: 14/05/2025 10:20 (UTC)',
        'Venue: Cafe Mocha : Lobby Booth',
        'Name: Asha Rao',
        'Phone: +919876543210',
        'User ID: 7',
      ]),
    );
  });

  it('keeps the mail readable when details are missing', () => {
    const mail = readMailto(
      refundMailto(
        'help@example.com',
        transaction({ phonepe_order_id: null, org_name: null, device_name: null }),
        null,
      ),
    );
    expect(mail.subject).toBe('Refund Request - Order Not available');
    expect(mail.body).toContain('Venue: General Transaction');
    expect(mail.body).toContain('Name: Not available');
    expect(mail.body).toContain('Phone: Not available');
    expect(mail.body).toContain('User ID: Not available');
  });

  it('encodes characters that would break the link', () => {
    const href = refundMailto(
      'support@flashbooth.example',
      transaction({ phonepe_order_id: 'A&B?C#D', org_name: 'Tom & Jerry' }),
      user,
    );
    expect(href.match(/\?/g)).toHaveLength(1);
    expect(href).not.toContain('#');
    const mail = readMailto(href);
    expect(mail.subject).toBe('Refund Request - Order A&B?C#D');
    expect(mail.body).toContain('Venue: Tom & Jerry : Lobby Booth');
  });
});
