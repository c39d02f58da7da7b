import { describe, expect, it, vi } from 'vitest';
import {
  BOOTH_MESSAGES,
  coveredWithoutPayment,
  decidePick,
  formatRupees,
  parseDeviceId,
  previewAspectRatio,
  priceBadge,
  paymentReturnUrl,
  printLabel,
  safePaymentUrl,
  startPayment,
  type PaymentStartApi,
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

describe('paymentReturnUrl', () => {
  it('points the provider back at the payment status screen with the three ids', () => {
    expect(
      paymentReturnUrl('https://booths.example.com', { deviceId: 7, templateId: 12, txnId: 345 }),
    ).toBe('https://booths.example.com/payment-status?deviceId=7&template_id=12&txn_id=345');
  });
});

describe('safePaymentUrl', () => {
  const origin = 'http://localhost:8080';
  it('accepts absolute http(s) addresses and resolves relative ones against the origin', () => {
    expect(safePaymentUrl('https://pay.example.com/checkout?o=1', origin)).toBe(
      'https://pay.example.com/checkout?o=1',
    );
    expect(safePaymentUrl('/api/regular/payments/sandbox/9', origin)).toBe(
      'http://localhost:8080/api/regular/payments/sandbox/9',
    );
  });

  it('refuses anything that is not a web address', () => {
    expect(safePaymentUrl('javascript:alert(1)', origin)).toBeNull();
    expect(safePaymentUrl('data:text/html,hi', origin)).toBeNull();
    expect(safePaymentUrl('', origin)).toBeNull();
    expect(safePaymentUrl('   ', origin)).toBeNull();
    expect(safePaymentUrl(undefined, origin)).toBeNull();
    expect(safePaymentUrl(42, origin)).toBeNull();
  });
});

describe('startPayment', () => {
  const input = { deviceId: 7, templateId: 12, origin: 'https://booths.example.com' };
  const failed = { ok: false, message: BOOTH_MESSAGES.paymentFailed };

  function api(overrides: Partial<PaymentStartApi> = {}): PaymentStartApi {
    return {
      create: vi.fn(() => Promise.resolve({ txn_id: 345 })),
      checkout: vi.fn(() => Promise.resolve({ payment_url: 'https://pay.example.com/p/345' })),
      ...overrides,
    };
  }

  it('creates the transaction, asks for a link that returns to payment status, and opens it', async () => {
    const calls = api();
    await expect(startPayment(calls, input)).resolves.toEqual({
      ok: true,
      paymentUrl: 'https://pay.example.com/p/345',
    });
    expect(calls.create).toHaveBeenCalledWith({ device_id: 7, template_id: 12 });
    expect(calls.checkout).toHaveBeenCalledWith({
      txn_id: 345,
      redirect_url:
        'https://booths.example.com/payment-status?deviceId=7&template_id=12&txn_id=345',
    });
  });

  it('fails with the spec message when create fails or returns no txn_id', async () => {
    const rejected = api({ create: () => Promise.reject(new Error('500')) });
    await expect(startPayment(rejected, input)).resolves.toEqual(failed);
    expect(rejected.checkout).not.toHaveBeenCalled();

    for (const answer of [{}, null, { txn_id: 0 }, { txn_id: 1.5 }]) {
      const calls = api({ create: () => Promise.resolve(answer) });
      await expect(startPayment(calls, input)).resolves.toEqual(failed);
      expect(calls.checkout).not.toHaveBeenCalled();
    }
  });

  it('fails with the spec message when checkout fails or returns no usable payment_url', async () => {
    await expect(
      startPayment(api({ checkout: () => Promise.reject(new Error('502')) }), input),
    ).resolves.toEqual(failed);
    for (const answer of [{}, null, { payment_url: '' }, { payment_url: 'javascript:void 0' }]) {
      await expect(
        startPayment(api({ checkout: () => Promise.resolve(answer) }), input),
      ).resolves.toEqual(failed);
    }
  });
});
