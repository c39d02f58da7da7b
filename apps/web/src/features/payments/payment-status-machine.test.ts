import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { scaleDurations } from '@/lib/timing-scale';
import {
  PAYMENT_STATUS_MESSAGES,
  PAYMENT_STATUS_TIMINGS,
  PaymentStatusController,
  parsePaymentParams,
  paymentStatusReducer,
  type PaymentStatusApi,
  type PaymentStatusTimings,
  type RedirectTarget,
} from './payment-status-machine';

/** The redirect to `to` comes exactly `ms` from now, not a millisecond earlier. */
async function expectRedirectAfter(
  onRedirect: ReturnType<typeof vi.fn>,
  ms: number,
  to: RedirectTarget,
): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms - 1);
  expect(onRedirect).not.toHaveBeenCalled();
  await vi.advanceTimersByTimeAsync(1);
  expect(onRedirect).toHaveBeenCalledExactlyOnceWith(to, null);
}

/** Status answers from a script ('fail' rejects); the last entry repeats. */
function scriptedStatus(script: string[]) {
  let index = 0;
  return vi.fn(() => {
    const next = script[Math.min(index, script.length - 1)]!;
    index += 1;
    return next === 'fail'
      ? Promise.reject(new Error('network'))
      : Promise.resolve({ state: next });
  });
}

function setup(script: string[] | null) {
  const status = script ? scriptedStatus(script) : null;
  const api: PaymentStatusApi | null = status ? { status } : null;
  const onRedirect = vi.fn();
  const controller = new PaymentStatusController(api, onRedirect, PAYMENT_STATUS_TIMINGS);
  controller.start();
  return { controller, status, onRedirect };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('payment status flow', () => {
  it('checks first after 5 s and, when COMPLETED, goes to capture 2.5 s later', async () => {
    const { controller, status, onRedirect } = setup(['COMPLETED']);
    expect(controller.getState()).toEqual({ kind: 'verifying', checks: 0 });
    await vi.advanceTimersByTimeAsync(4999);
    expect(status).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(status).toHaveBeenCalledTimes(1);
    expect(controller.getState()).toEqual({ kind: 'succeeded' });
    await expectRedirectAfter(onRedirect, 2500, 'capture');
  });

  it('re-checks every 5 s while PENDING and succeeds on a later check', async () => {
    const { controller, status, onRedirect } = setup(['PENDING', 'PENDING', 'COMPLETED']);
    await vi.advanceTimersByTimeAsync(5000);
    expect(controller.getState()).toEqual({ kind: 'verifying', checks: 1 });
    await vi.advanceTimersByTimeAsync(4999);
    expect(status).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(status).toHaveBeenCalledTimes(2);
    expect(controller.getState()).toEqual({ kind: 'verifying', checks: 2 });
    await vi.advanceTimersByTimeAsync(5000);
    expect(status).toHaveBeenCalledTimes(3);
    expect(controller.getState()).toEqual({ kind: 'succeeded' });
    await vi.advanceTimersByTimeAsync(2500);
    expect(onRedirect).toHaveBeenCalledExactlyOnceWith('capture', null);
  });

  it('times out after 4 PENDING checks (at 20 s) and goes back to the booth 6 s later', async () => {
    const { controller, status, onRedirect } = setup(['PENDING']);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(status).toHaveBeenCalledTimes(3);
    expect(controller.getState()).toEqual({ kind: 'verifying', checks: 3 });
    await vi.advanceTimersByTimeAsync(5000);
    expect(status).toHaveBeenCalledTimes(4);
    expect(controller.getState()).toEqual({
      kind: 'failed',
      reason: 'timed-out',
      title: 'Payment Timed Out',
      message: 'Your payment is still pending. Please check your payment app.',
    });
    await expectRedirectAfter(onRedirect, 6000, 'booth');
    // Never a fifth check.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(status).toHaveBeenCalledTimes(4);
    expect(onRedirect).toHaveBeenCalledTimes(1);
  });

  it('fails with a plain message for FAILED (the state for anything else) and goes back to the booth after 6 s', async () => {
    const { controller, onRedirect } = setup(['FAILED']);
    await vi.advanceTimersByTimeAsync(5000);
    expect(controller.getState()).toEqual({
      kind: 'failed',
      reason: 'declined',
      title: 'Payment Failed',
      message: 'The transaction could not be processed. Please try again.',
    });
    await expectRedirectAfter(onRedirect, 6000, 'booth');

    const other = setup(['PENDING', 'REFUNDED']);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(other.controller.getState()).toMatchObject({
      reason: 'declined',
      message: 'The transaction could not be processed (Status: REFUNDED). Please try again.',
    });
    expect(PAYMENT_STATUS_MESSAGES.failedMessage('REFUNDED')).toContain('(Status: REFUNDED)');
  });

  it('treats a failed check as "An Error Occurred" straight away', async () => {
    const { controller, status, onRedirect } = setup(['PENDING', 'fail']);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(status).toHaveBeenCalledTimes(2);
    expect(controller.getState()).toEqual({
      kind: 'failed',
      reason: 'error',
      title: 'An Error Occurred',
      message:
        'We could not verify your payment status. Please contact support if the issue persists.',
    });
    await vi.advanceTimersByTimeAsync(6000);
    expect(onRedirect).toHaveBeenCalledExactlyOnceWith('booth', null);
    expect(status).toHaveBeenCalledTimes(2);
  });

  it('without the payment details shows Invalid URL and goes home after 4 s, checking nothing', async () => {
    const { controller, onRedirect } = setup(null);
    expect(controller.getState()).toEqual({ kind: 'invalid' });
    await expectRedirectAfter(onRedirect, 4000, 'home');
  });

  it('does nothing after dispose, and starts over cleanly on start (strict mode)', async () => {
    const { controller, status, onRedirect } = setup(['COMPLETED']);
    await vi.advanceTimersByTimeAsync(3000);
    controller.dispose();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(status).not.toHaveBeenCalled();
    expect(onRedirect).not.toHaveBeenCalled();

    controller.start();
    await vi.advanceTimersByTimeAsync(5000);
    expect(status).toHaveBeenCalledTimes(1);
    controller.dispose();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(onRedirect).not.toHaveBeenCalled();
  });

  it('ignores an answer that arrives after dispose', async () => {
    let answer: (value: { state: string }) => void = () => undefined;
    const api: PaymentStatusApi = {
      status: () => new Promise((resolve) => (answer = resolve)),
    };
    const onRedirect = vi.fn();
    const controller = new PaymentStatusController(api, onRedirect);
    controller.start();
    await vi.advanceTimersByTimeAsync(5000);
    controller.dispose();
    answer({ state: 'COMPLETED' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(controller.getState()).toEqual({ kind: 'verifying', checks: 0 });
    expect(onRedirect).not.toHaveBeenCalled();
  });

  it('runs on scaled timings for tests, with the same number of checks', async () => {
    const timings = scaleDurations<PaymentStatusTimings>(PAYMENT_STATUS_TIMINGS, 0.1);
    expect(timings).toEqual({
      firstCheckMs: 500,
      recheckMs: 500,
      maxChecks: 4,
      successRedirectMs: 250,
      failureRedirectMs: 600,
      invalidRedirectMs: 400,
    });
    const status = scriptedStatus(['PENDING']);
    const onRedirect = vi.fn();
    const controller = new PaymentStatusController({ status }, onRedirect, timings);
    controller.start();
    await vi.advanceTimersByTimeAsync(2000);
    expect(status).toHaveBeenCalledTimes(4);
    expect(controller.getState()).toMatchObject({ reason: 'timed-out' });
    await vi.advanceTimersByTimeAsync(600);
    expect(onRedirect).toHaveBeenCalledWith('booth', null);
  });
});

describe('paymentStatusReducer', () => {
  it('reads the state case-insensitively and shows an empty one as UNKNOWN', () => {
    const verifying = { kind: 'verifying', checks: 0 } as const;
    expect(
      paymentStatusReducer(verifying, { type: 'CHECKED', state: ' completed ', maxChecks: 4 }),
    ).toEqual({ kind: 'succeeded' });
    expect(
      paymentStatusReducer(verifying, { type: 'CHECKED', state: '', maxChecks: 4 }),
    ).toMatchObject({ message: PAYMENT_STATUS_MESSAGES.failedMessage('UNKNOWN') });
  });

  it('changes nothing once settled', () => {
    const done = { kind: 'succeeded' } as const;
    expect(paymentStatusReducer(done, { type: 'CHECK_FAILED' })).toBe(done);
    const invalid = { kind: 'invalid' } as const;
    expect(
      paymentStatusReducer(invalid, { type: 'CHECKED', state: 'COMPLETED', maxChecks: 4 }),
    ).toBe(invalid);
  });
});

describe('parsePaymentParams', () => {
  it('needs deviceId, template_id and txn_id as positive whole numbers', () => {
    expect(parsePaymentParams(new URLSearchParams('deviceId=3&template_id=9&txn_id=41'))).toEqual({
      deviceId: 3,
      templateId: 9,
      txnId: 41,
    });
    for (const query of [
      '',
      'template_id=9&txn_id=41',
      'deviceId=3&txn_id=41',
      'deviceId=3&template_id=9',
      'deviceId=3&template_id=9&txn_id=',
      'deviceId=0&template_id=9&txn_id=41',
      'deviceId=3&template_id=x&txn_id=41',
      'device_id=3&template_id=9&txn_id=41',
    ]) {
      expect(parsePaymentParams(new URLSearchParams(query)), query).toBeNull();
    }
  });
});

describe('payments that end in the visitor’s words (issue 37)', () => {
  const answering = (answer: { state: string; reason?: string; template_id?: number }) => {
    const onRedirect = vi.fn();
    const controller = new PaymentStatusController(
      { status: vi.fn(() => Promise.resolve(answer)) },
      onRedirect,
      PAYMENT_STATUS_TIMINGS,
    );
    controller.start();
    return { controller, onRedirect };
  };

  it('says a cancelled payment was cancelled, at the first check, and goes back to the booth', async () => {
    const { controller, onRedirect } = answering({ state: 'FAILED', reason: 'cancelled' });
    await vi.advanceTimersByTimeAsync(5000);
    expect(controller.getState()).toEqual({
      kind: 'failed',
      reason: 'cancelled',
      title: PAYMENT_STATUS_MESSAGES.cancelledTitle,
      message: PAYMENT_STATUS_MESSAGES.cancelledMessage,
    });
    await expectRedirectAfter(onRedirect, 6000, 'booth');
  });

  it('says an expired one expired, and a declined one failed', async () => {
    const expired = answering({ state: 'FAILED', reason: 'expired' });
    await vi.advanceTimersByTimeAsync(5000);
    expect(expired.controller.getState()).toMatchObject({
      reason: 'expired',
      title: 'Payment Expired',
    });
    const declined = answering({ state: 'FAILED', reason: 'declined' });
    await vi.advanceTimersByTimeAsync(5000);
    expect(declined.controller.getState()).toMatchObject({
      reason: 'declined',
      title: 'Payment Failed',
    });
  });

  it('goes on to capture with the template the server names, not the address', async () => {
    const { onRedirect } = answering({ state: 'COMPLETED', template_id: 12 });
    await vi.advanceTimersByTimeAsync(5000 + 2500);
    expect(onRedirect).toHaveBeenCalledExactlyOnceWith('capture', 12);
  });
});
