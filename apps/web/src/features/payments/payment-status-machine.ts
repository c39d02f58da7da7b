/**
 * The payment status screen (spec: visitor.md sections 4, 5, 8 and 9): after the payment
 * provider sends the visitor back, check the transaction until it is settled, then go on to the
 * capture screen or back home. A pure reducer plus a small controller that runs the timers and
 * calls; it knows nothing about React, so vitest drives it with fake timers.
 */

import { parseId } from '@/lib/parse-id';
import { TimedController } from '@/lib/timed-controller';

/** Payment status texts (spec: visitor.md sections 2, 4, 5 and 8). */
export const PAYMENT_STATUS_MESSAGES = {
  invalidTitle: 'Invalid URL',
  invalidMessage: 'Missing payment details. Redirecting to home...',
  verifyingTitle: 'Verifying Your Payment',
  verifyingMessage: 'Please keep this page open while we confirm your payment.',
  success: 'Payment Successful! Redirecting you to the photobooth...',
  failedTitle: 'Payment Failed',
  /** A state the screen knows (FAILED) is not repeated to the visitor in capitals. */
  failedMessage: (status: string) =>
    status.toUpperCase() === 'FAILED'
      ? 'The transaction could not be processed. Please try again.'
      : `The transaction could not be processed (Status: ${status}). Please try again.`,
  timedOutTitle: 'Payment Timed Out',
  timedOutMessage: 'Your payment is still pending. Please check your payment app.',
  /** Ours (issue 37): the visitor cancelled on the provider's page; nothing was charged. */
  cancelledTitle: 'Payment Cancelled',
  cancelledMessage:
    'You cancelled the payment, so nothing was charged. You can pick a template again at the photobooth.',
  /** Ours (issue 37): the checkout was left open until it expired; nothing was charged. */
  expiredTitle: 'Payment Expired',
  expiredMessage:
    'The payment was not finished in time, so nothing was charged. You can start again at the photobooth.',
  errorTitle: 'An Error Occurred',
  errorMessage:
    'We could not verify your payment status. Please contact support if the issue persists.',
} as const;

/** Spec section 9: the payment status timings. Production always uses these values. */
export const PAYMENT_STATUS_TIMINGS = {
  firstCheckMs: 5000,
  recheckMs: 5000,
  maxChecks: 4,
  successRedirectMs: 2500,
  failureRedirectMs: 6000,
  invalidRedirectMs: 4000,
} as const;

export type PaymentStatusTimings = {
  -readonly [K in keyof typeof PAYMENT_STATUS_TIMINGS]: number;
};

export interface PaymentParams {
  deviceId: number;
  templateId: number;
  txnId: number;
}

/**
 * Spec section 5: the screen needs deviceId, template_id and txn_id in the query. One that is
 * missing, or is not a positive whole number, makes the address invalid.
 */
export function parsePaymentParams(query: URLSearchParams): PaymentParams | null {
  const deviceId = parseId(query.get('deviceId'));
  const templateId = parseId(query.get('template_id'));
  const txnId = parseId(query.get('txn_id'));
  if (deviceId === null || templateId === null || txnId === null) return null;
  return { deviceId, templateId, txnId };
}

export type FailureReason = 'declined' | 'cancelled' | 'expired' | 'timed-out' | 'error';

export type PaymentStatusState =
  | { kind: 'invalid' }
  /** `checks`: how many status checks have answered PENDING so far. */
  | { kind: 'verifying'; checks: number }
  | { kind: 'succeeded' }
  | { kind: 'failed'; reason: FailureReason; title: string; message: string };

export type PaymentStatusEvent =
  | {
      type: 'CHECKED';
      state: string;
      maxChecks: number;
      /** Why a FAILED payment failed, when the server says (cancelled, expired, declined). */
      reason?: string | null;
    }
  | { type: 'CHECK_FAILED' };

export const INITIAL_PAYMENT_STATUS: PaymentStatusState = { kind: 'verifying', checks: 0 };

function failed(reason: FailureReason, status = ''): PaymentStatusState {
  switch (reason) {
    case 'declined':
      return {
        kind: 'failed',
        reason,
        title: PAYMENT_STATUS_MESSAGES.failedTitle,
        message: PAYMENT_STATUS_MESSAGES.failedMessage(status),
      };
    case 'cancelled':
      return {
        kind: 'failed',
        reason,
        title: PAYMENT_STATUS_MESSAGES.cancelledTitle,
        message: PAYMENT_STATUS_MESSAGES.cancelledMessage,
      };
    case 'expired':
      return {
        kind: 'failed',
        reason,
        title: PAYMENT_STATUS_MESSAGES.expiredTitle,
        message: PAYMENT_STATUS_MESSAGES.expiredMessage,
      };
    case 'timed-out':
      return {
        kind: 'failed',
        reason,
        title: PAYMENT_STATUS_MESSAGES.timedOutTitle,
        message: PAYMENT_STATUS_MESSAGES.timedOutMessage,
      };
    case 'error':
      return {
        kind: 'failed',
        reason,
        title: PAYMENT_STATUS_MESSAGES.errorTitle,
        message: PAYMENT_STATUS_MESSAGES.errorMessage,
      };
  }
}

/**
 * Spec section 4: COMPLETED succeeds; PENDING is checked again until `maxChecks` checks in all
 * have answered, then it has timed out; any other state failed; a failed check is an error.
 * Events that do not apply to the current state change nothing.
 */
export function paymentStatusReducer(
  state: PaymentStatusState,
  event: PaymentStatusEvent,
): PaymentStatusState {
  if (state.kind !== 'verifying') return state;
  switch (event.type) {
    case 'CHECK_FAILED':
      return failed('error');
    case 'CHECKED': {
      const status = typeof event.state === 'string' ? event.state.trim() : '';
      const normalized = status.toUpperCase();
      if (normalized === 'COMPLETED') return { kind: 'succeeded' };
      if (normalized === 'PENDING') {
        const checks = state.checks + 1;
        return checks >= event.maxChecks ? failed('timed-out') : { kind: 'verifying', checks };
      }
      // Said in the visitor's words when the server knows why (issue 37).
      if (normalized === 'FAILED' && event.reason === 'cancelled') return failed('cancelled');
      if (normalized === 'FAILED' && event.reason === 'expired') return failed('expired');
      return failed('declined', status || 'UNKNOWN');
    }
  }
}

export type RedirectTarget = 'capture' | 'booth' | 'home';

/**
 * Where a settled screen goes, and after how long: success to the capture screen after 2.5 s;
 * a failure back to the photobooth after 6 s, where the visitor can try again (the spec sends
 * it to the site's home, which left a visitor at the booth with no way back: issue 20 item 3);
 * an invalid address home after 4 s.
 */
export function redirectFor(
  state: PaymentStatusState,
  timings: PaymentStatusTimings,
): { to: RedirectTarget; afterMs: number } | null {
  switch (state.kind) {
    case 'invalid':
      return { to: 'home', afterMs: timings.invalidRedirectMs };
    case 'succeeded':
      return { to: 'capture', afterMs: timings.successRedirectMs };
    case 'failed':
      return { to: 'booth', afterMs: timings.failureRedirectMs };
    case 'verifying':
      return null;
  }
}

/** The one call the screen makes, injected so tests need no network. */
export interface PaymentStatusApi {
  status(): Promise<{ state: string; reason?: string | null; template_id?: number | null }>;
}

function initialState(api: PaymentStatusApi | null): PaymentStatusState {
  return api ? INITIAL_PAYMENT_STATUS : { kind: 'invalid' };
}

/**
 * Runs the screen: timers and checks, feeding the reducer, then one redirect. Without an API
 * (an invalid address) it only waits and goes home. `start()` (re)starts it, `dispose()`
 * cancels whatever is under way (a later `start()` works again, as React's strict mode needs).
 */
export class PaymentStatusController extends TimedController<PaymentStatusState> {
  /**
   * The template the payment is for, as the server last said (issue 37: a pick on another tab
   * may have moved an open payment to another template); null until it said.
   */
  private templateId: number | null = null;

  constructor(
    private readonly api: PaymentStatusApi | null,
    private readonly onRedirect: (to: RedirectTarget, templateId: number | null) => void,
    private readonly timings: PaymentStatusTimings = PAYMENT_STATUS_TIMINGS,
  ) {
    super(initialState(api));
  }

  start(): void {
    const run = this.cancel();
    this.setState(initialState(this.api));
    void this.verify(run);
  }

  private async verify(run: number): Promise<void> {
    const api = this.api;
    if (api) {
      // Spec: the first check after 5 s, then every 5 s while the payment is pending.
      let delay = this.timings.firstCheckMs;
      while (this.state.kind === 'verifying') {
        await this.wait(delay);
        if (run !== this.run) return;
        let event: PaymentStatusEvent;
        try {
          const answer = await api.status();
          if (typeof answer.template_id === 'number') this.templateId = answer.template_id;
          event = {
            type: 'CHECKED',
            state: answer.state,
            maxChecks: this.timings.maxChecks,
            reason: answer.reason ?? null,
          };
        } catch {
          event = { type: 'CHECK_FAILED' };
        }
        if (run !== this.run) return;
        this.setState(paymentStatusReducer(this.state, event));
        delay = this.timings.recheckMs;
      }
    }
    const redirect = redirectFor(this.state, this.timings);
    if (!redirect) return;
    await this.wait(redirect.afterMs);
    if (run !== this.run) return;
    this.onRedirect(redirect.to, this.templateId);
  }

  /** The template to capture with: the server's word, else the address's. */
  templateFor(fallback: number): number {
    return this.templateId ?? fallback;
  }
}
