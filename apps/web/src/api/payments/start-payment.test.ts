import { PAYMENT_MESSAGES } from '@flashbooth/contracts/rules';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import {
  paymentReturnUrl,
  safePaymentUrl,
  startPayment,
  type PaymentStartApi,
} from './start-payment';

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
  const failed = { ok: false, message: PAYMENT_MESSAGES.initiateFailed };

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

  it("passes on the server's words when the booth cannot take the visitor now", async () => {
    const offline = new ApiError('This photobooth is offline right now.', 409, 'booth_offline');
    await expect(
      startPayment(api({ create: () => Promise.reject(offline) }), input),
    ).resolves.toEqual({
      ok: false,
      message: 'This photobooth is offline right now.',
      code: 'booth_offline',
    });
    const busy = new ApiError('The photobooth is busy with another visitor.', 409, 'booth_busy');
    await expect(
      startPayment(api({ checkout: () => Promise.reject(busy) }), input),
    ).resolves.toMatchObject({ ok: false, code: 'booth_busy' });
    // Any other refusal keeps the spec's message.
    const other = new ApiError('Payment not found.', 404, 'not_found');
    await expect(
      startPayment(api({ create: () => Promise.reject(other) }), input),
    ).resolves.toEqual(failed);
  });
});
