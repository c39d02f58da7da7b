import type { Visit, VisitCapture, VisitPayment } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import {
  captureKindBadge,
  motionPrintText,
  coveredWithoutPayment,
  decidePick,
  formatRupees,
  parseDeviceId,
  previewAspectRatio,
  priceBadge,
  printLabel,
  decideVisitPick,
  visitNotice,
} from './booth-model';

describe('priceBadge', () => {
  it('is FREE when the price is 0, whatever the credits', () => {
    expect(priceBadge(0, 0)).toEqual({ kind: 'free', label: 'FREE' });
    expect(priceBadge(0, 100)).toEqual({ kind: 'free', label: 'FREE' });
    expect(priceBadge(0, undefined)).toEqual({ kind: 'free', label: 'FREE' });
  });

  it('is FREE/PREPAID when the credits cover the price', () => {
    expect(priceBadge(49.5, 49.5)).toEqual({ kind: 'prepaid', label: 'FREE/PREPAID' });
    expect(priceBadge(49.5, 200)).toEqual({ kind: 'prepaid', label: 'FREE/PREPAID' });
  });

  it('asks to pay the difference when there are some credits', () => {
    expect(priceBadge(49.5, 20)).toEqual({ kind: 'to-pay', label: 'To pay ₹29.50' });
    // Rupee arithmetic to the paisa, not floating point.
    expect(priceBadge(49.5, 0.3).label).toBe('To pay ₹49.20');
    // The provider is asked for at least ₹1: credit is held only down to that.
    expect(priceBadge(50, 49.5).label).toBe('To pay ₹1.00');
    expect(priceBadge(0.3, 0.1).label).toBe('To pay ₹0.30');
  });

  it('shows the full price with two decimals when there are no credits', () => {
    expect(priceBadge(49.5, 0)).toEqual({ kind: 'price', label: 'Price ₹49.50' });
    expect(priceBadge(100, undefined).label).toBe('Price ₹100.00');
    expect(priceBadge(100, null).label).toBe('Price ₹100.00');
    // Negative or nonsense credits count as none.
    expect(priceBadge(100, -5).label).toBe('Price ₹100.00');
    expect(priceBadge(100, Number.NaN).label).toBe('Price ₹100.00');
  });
});

describe('coveredWithoutPayment', () => {
  it('is true for a free booth or enough credits', () => {
    expect(coveredWithoutPayment(0, undefined)).toBe(true);
    expect(coveredWithoutPayment(10, 10)).toBe(true);
    expect(coveredWithoutPayment(0.3, 0.1 + 0.2)).toBe(true);
    expect(coveredWithoutPayment(10, 9.99)).toBe(false);
  });
});

describe('decidePick', () => {
  it('waits while the device or the user is loading', () => {
    expect(decidePick({ priceRupees: undefined, creditsRupees: 0, userStatus: 'success' })).toEqual(
      { kind: 'loading' },
    );
    expect(decidePick({ priceRupees: 0, creditsRupees: undefined, userStatus: 'pending' })).toEqual(
      { kind: 'loading' },
    );
  });

  it('goes to capture when the booth is free or the credits cover it', () => {
    expect(decidePick({ priceRupees: 0, creditsRupees: 0, userStatus: 'success' }).kind).toBe(
      'capture',
    );
    expect(decidePick({ priceRupees: 0, creditsRupees: undefined, userStatus: 'error' }).kind).toBe(
      'capture',
    );
    expect(decidePick({ priceRupees: 49.5, creditsRupees: 50, userStatus: 'success' }).kind).toBe(
      'capture',
    );
  });

  it('needs a payment when the credits fall short', () => {
    expect(decidePick({ priceRupees: 49.5, creditsRupees: 20, userStatus: 'success' }).kind).toBe(
      'payment',
    );
  });

  it('cannot decide a paid booth without the user record', () => {
    expect(
      decidePick({ priceRupees: 49.5, creditsRupees: undefined, userStatus: 'error' }),
    ).toEqual({ kind: 'user-failed' });
  });
});

describe('parseDeviceId', () => {
  it('accepts positive whole numbers only', () => {
    expect(parseDeviceId('42')).toBe(42);
    expect(parseDeviceId(undefined)).toBeNull();
    expect(parseDeviceId('')).toBeNull();
    expect(parseDeviceId('0')).toBeNull();
    expect(parseDeviceId('-3')).toBeNull();
    expect(parseDeviceId('4.2')).toBeNull();
    expect(parseDeviceId('abc')).toBeNull();
    expect(parseDeviceId('12abc')).toBeNull();
    expect(parseDeviceId('9'.repeat(20))).toBeNull();
  });
});

describe('template labels', () => {
  it('describes the print layout', () => {
    expect(printLabel({ is_cut: false, is_duplicated: true })).toEqual({
      title: '1 large print',
      detail: null,
    });
    expect(printLabel({ is_cut: true, is_duplicated: true })).toEqual({
      title: '2 strips',
      detail: 'Duplicate',
    });
    expect(printLabel({ is_cut: true, is_duplicated: false })).toEqual({
      title: '2 strips',
      detail: 'Unique Sides',
    });
  });

  it('uses 3:2 for landscape and 2:3 for portrait previews', () => {
    expect(previewAspectRatio('landscape')).toBe('3 / 2');
    expect(previewAspectRatio('portrait')).toBe('2 / 3');
  });

  it('formats rupees with two decimals', () => {
    expect(formatRupees(49.5)).toBe('₹49.50');
    expect(formatRupees(0)).toBe('₹0.00');
  });
});

describe('motionPrintText', () => {
  it('tells a motion template that prints from one that does not', () => {
    expect(motionPrintText(true)).toBe('Print included');
    expect(motionPrintText(false)).toBe('Digital only');
  });
});

describe('captureKindBadge', () => {
  it('labels every kind, and only motion kinds move', () => {
    expect(captureKindBadge('photo')).toEqual({ label: 'Photo', motion: false, detail: null });
    expect(captureKindBadge('boomerang')).toEqual({
      label: 'Boomerang',
      motion: true,
      detail: 'Back & forth loop',
    });
    expect(captureKindBadge('gif').label).toBe('GIF');
    expect(captureKindBadge('video').motion).toBe(true);
  });
});

describe('the visit on the booth page (issue 37)', () => {
  const base: Visit = {
    device_id: 2,
    template: { id: 5, name: 'Café Classic', capture_kind: 'photo' },
    location_confirmed: true,
    payment: null,
    capture: null,
    updated_at: '2026-12-05T10:00:00',
  };
  const payment = (state: VisitPayment['state'], paymentUrl: string | null = null) => ({
    txn_id: 9,
    state,
    amount_rupees: 49.5,
    credit_rupees: 0,
    payment_url: paymentUrl,
    expires_at: '2026-12-05T10:15:00',
    updated_at: '2026-12-05T10:00:00',
  });
  const capture = (state: VisitCapture['state']): VisitCapture => ({
    capture_id: 'c',
    state,
    template_id: 5,
    capture_kind: 'photo',
    media_ids: [1],
    uploaded_count: 0,
    total_captures: 3,
    record_seconds: 0,
    requested_at: '2026-12-05T10:00:00',
    accepted_at: null,
    finished_at: null,
    since_accepted_ms: null,
    credit_used_rupees: 0,
  });

  it('shows a payment made and not used first, with its template', () => {
    expect(visitNotice({ ...base, payment: payment('paid') })).toEqual({
      kind: 'paid',
      templateId: 5,
      templateName: 'Café Classic',
      amountRupees: 49.5,
    });
    expect(decideVisitPick({ ...base, payment: payment('paid') })).toEqual({ kind: 'capture' });
  });

  it('leads back to an open checkout instead of opening a second one', () => {
    const open = { ...base, payment: payment('pending', '/api/sandbox/checkout/FB1') };
    expect(visitNotice(open)).toMatchObject({
      kind: 'checkout',
      paymentUrl: '/api/sandbox/checkout/FB1',
    });
    expect(decideVisitPick(open)).toEqual({
      kind: 'checkout',
      paymentUrl: '/api/sandbox/checkout/FB1',
    });
  });

  it('leads back to a capture under way, whatever template was tapped', () => {
    for (const state of ['requested', 'counting_down', 'taking_photos', 'processing'] as const) {
      const running = { ...base, capture: capture(state), payment: payment('used') };
      expect(visitNotice(running)).toMatchObject({ kind: 'capturing', templateId: 5 });
      expect(decideVisitPick(running)).toEqual({ kind: 'resume', templateId: 5 });
    }
  });

  it('says nothing of a round that is over, and leaves the decision to the spec', () => {
    for (const state of ['used', 'cancelled', 'failed', 'expired', 'refunded'] as const) {
      expect(visitNotice({ ...base, payment: payment(state) })).toBeNull();
      expect(decideVisitPick({ ...base, payment: payment(state) })).toEqual({ kind: 'spec' });
    }
    expect(visitNotice({ ...base, capture: capture('delivered') })).toBeNull();
    expect(visitNotice({ ...base, payment: payment('credited') })).toEqual({
      kind: 'credited',
      amountRupees: 49.5,
    });
    expect(visitNotice(undefined)).toBeNull();
  });
});
