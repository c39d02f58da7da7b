import { describe, expect, it } from 'vitest';
import { deadlineOutcome, deliveryFailureSms, deliveryRefundId, hours } from './delivery-policy.js';

describe('the delivery promise', () => {
  it('decides a capture at its deadline from what arrived and whether the booth took it', () => {
    expect(deadlineOutcome({ accepted: true, promised: 2, delivered: 2 })).toBe('delivered');
    expect(deadlineOutcome({ accepted: true, promised: 2, delivered: 1 })).toBe('delivery_failure');
    expect(deadlineOutcome({ accepted: true, promised: 1, delivered: 0 })).toBe('delivery_failure');
    // Never confirmed by the booth: no photos were taken, so the entitlement is given back.
    expect(deadlineOutcome({ accepted: false, promised: 1, delivered: 0 })).toBe('given_back');
    expect(deadlineOutcome({ accepted: false, promised: 2, delivered: 1 })).toBe('delivered');
  });

  it('tells the visitor what happened and what was refunded where', () => {
    const base = { promised: 1, delivered: 0, booth: 'Atrium', deadlineMinutes: 60 };
    expect(
      deliveryFailureSms({ ...base, refund: 'payment', refundPaise: 4950, heldCreditPaise: 0 }),
    ).toBe(
      'Flashbooth: Sorry, your photos did not reach us at Atrium within 1 hour of your session.' +
        ' We have refunded ₹49.50 to your payment method (it can take 5-7 working days).' +
        ' If they arrive later, they will still appear in My Media. Details in My Transactions.',
    );
    expect(
      deliveryFailureSms({ ...base, refund: 'payment', refundPaise: 4000, heldCreditPaise: 950 }),
    ).toContain(
      'refunded ₹40.00 to your payment method (it can take 5-7 working days) and ₹9.50 to your credit.',
    );
    expect(
      deliveryFailureSms({
        ...base,
        promised: 3,
        delivered: 1,
        booth: null,
        refund: 'credit',
        refundPaise: 2000,
        heldCreditPaise: 0,
      }),
    ).toBe(
      'Flashbooth: Sorry, only 1 of your 3 photos reached us within 1 hour of your session.' +
        ' ₹20.00 is back in your Flashbooth credit. If they arrive later, they will still appear in My Media.',
    );
    expect(
      deliveryFailureSms({ ...base, refund: 'none', refundPaise: 0, heldCreditPaise: 0 }),
    ).not.toContain('₹');
  });

  it('words the deadline and names the refund after the capture', () => {
    expect([hours(60), hours(120), hours(90), hours(0)]).toEqual([
      '1 hour',
      '2 hours',
      '90 minutes',
      '0 minutes',
    ]);
    const id = deliveryRefundId('3c66d6b9-9aee-4aae-aefa-df7f0d85b652');
    expect(id).toMatch(/^[A-Za-z0-9_-]{1,63}$/);
  });
});
