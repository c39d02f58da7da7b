import type { DeliveryFailureNotice, Transaction } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import {
  TRANSACTION_MESSAGES,
  deadlineInWords,
  deliveryFailureView,
  formatAmount,
  orderIdLabel,
  refundMailto,
  isCreditLine,
  stateBadge,
  transactionBadge,
  transactionKey,
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
    expect(stateBadge('REFUNDED')).toEqual({ label: 'Refunded', tone: 'other' });
    expect(stateBadge('SOMETHING_ELSE')).toEqual({ label: 'SOMETHING_ELSE', tone: 'other' });
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

describe('delivery failure notice', () => {
  function notice(overrides: Partial<DeliveryFailureNotice> = {}): DeliveryFailureNotice {
    return {
      failed_at: '2025-05-14T11:20:30',
      deadline_minutes: 60,
      refund_to: 'payment',
      refund_rupees: 49.5,
      refund_pending: false,
      items_promised: 2,
      items_delivered: 0,
      items_arrived: 0,
      ...overrides,
    };
  }

  it('says the deadline in words', () => {
    expect(deadlineInWords(60)).toBe('1 hour');
    expect(deadlineInWords(120)).toBe('2 hours');
    expect(deadlineInWords(90)).toBe('90 minutes');
    expect(deadlineInWords(45)).toBe('45 minutes');
  });

  it('a paid session with nothing delivered: refunded to the payment method', () => {
    expect(deliveryFailureView(notice())).toEqual({
      title: 'Photos not delivered in time',
      what: 'Your photos did not reach us within 1 hour of your session.',
      refund: '₹49.50 was refunded to your payment method.',
      later: 'If your photos arrive later, they will still appear in My Media.',
    });
  });

  it('a refund still on its way says how long it can take', () => {
    expect(deliveryFailureView(notice({ refund_pending: true })).refund).toBe(
      '₹49.50 is being refunded to your payment method. It can take 5-7 working days to show.',
    );
  });

  it('a partial delivery, refunded as credit, with a photo that came later', () => {
    const view = deliveryFailureView(
      notice({
        refund_to: 'credit',
        refund_rupees: 99,
        items_promised: 3,
        items_delivered: 1,
        items_arrived: 2,
        deadline_minutes: 90,
      }),
    );
    expect(view.what).toBe('Only 1 of your 3 photos reached us within 90 minutes of your session.');
    expect(view.refund).toBe('₹99.00 was added back to your Flashbooth credit.');
    expect(view.later).toBe('1 photo arrived later and is in My Media. The refund stands.');
  });

  it('everything arrived late: the refund stands', () => {
    expect(deliveryFailureView(notice({ items_arrived: 2 })).later).toBe(
      '2 photos arrived later and are in My Media. The refund stands.',
    );
  });

  it('a free session has nothing to refund', () => {
    expect(deliveryFailureView(notice({ refund_to: 'none', refund_rupees: 0 })).refund).toBe(
      'This session was free, so there was nothing to refund.',
    );
  });
});

describe('transactionBadge (issue 37)', () => {
  it('says how a payment ended in the visitor’s words, one capitalisation', () => {
    const of = (overrides: Partial<Transaction>) => transactionBadge(transaction(overrides)).label;
    expect(of({ state: 'FAILED', failure_reason: 'cancelled' })).toBe('Cancelled');
    expect(of({ state: 'FAILED', failure_reason: 'expired' })).toBe('Expired');
    expect(of({ state: 'FAILED', failure_reason: 'declined' })).toBe('Failed');
    expect(of({ state: 'REFUNDED', refund_to: 'credit' })).toBe('Added to your credit');
    expect(of({ state: 'REFUNDED', refund_to: 'payment' })).toBe('Refunded');
    expect(of({ state: 'REFUND_PENDING', refund_to: 'payment' })).toBe('Refund pending');
    expect(of({ kind: 'credit', state: 'CREDIT_USED' })).toBe('Paid with credit');
    expect(of({ kind: 'credit', state: 'CREDIT_RETURNED' })).toBe('Credit returned');
    // No raw capitals for any state the server sends.
    for (const state of [
      'COMPLETED',
      'PENDING',
      'FAILED',
      'REFUND_PENDING',
      'REFUNDED',
      'CREDIT_USED',
      'CREDIT_RETURNED',
    ]) {
      expect(of({ state })).not.toMatch(/^[A-Z_]{2,}$/);
    }
  });

  it('keys payments and credit lines apart', () => {
    expect(transactionKey({ kind: 'credit', id: 4 })).not.toBe(
      transactionKey({ kind: 'payment', id: 4 }),
    );
    expect(isCreditLine({ kind: 'credit' })).toBe(true);
    expect(isCreditLine({})).toBe(false);
  });
});
