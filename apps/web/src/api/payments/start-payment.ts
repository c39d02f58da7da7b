import type {
  PaymentCheckout,
  PaymentCheckoutResult,
  PaymentCreate,
  PaymentCreateResult,
} from '@flashbooth/contracts';
import { PAYMENT_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { paths } from '@/config/paths';
import { ApiError, apiRequest } from '@/lib/api-client';

/**
 * Starting a payment for a booth and template (visitor spec: Template pick and payment): the
 * booth screen on a template pick, and the capture screen when the visitor's credit does not
 * cover the booth. Shared here because two features start payments.
 */

/** POST payments/create (regular API): a payment transaction for this booth and template. */
export function createPayment(body: PaymentCreate): Promise<PaymentCreateResult> {
  return apiRequest<PaymentCreateResult>('regular', 'payments/create', {
    method: 'POST',
    body,
    fallbackMessage: PAYMENT_MESSAGES.initiateFailed,
  });
}

/**
 * POST payments/checkout (regular API): the provider's payment page for a transaction; the
 * provider sends the visitor back to `redirect_url` afterwards.
 */
export function checkoutPayment(body: PaymentCheckout): Promise<PaymentCheckoutResult> {
  return apiRequest<PaymentCheckoutResult>('regular', 'payments/checkout', {
    method: 'POST',
    body,
    fallbackMessage: PAYMENT_MESSAGES.initiateFailed,
  });
}

/**
 * Spec (Template pick and payment): the provider sends the visitor back to the payment status
 * screen with the booth, the template and the transaction in the query.
 */
export function paymentReturnUrl(
  origin: string,
  ids: { deviceId: number; templateId: number; txnId: number },
): string {
  const query = new URLSearchParams({
    deviceId: String(ids.deviceId),
    template_id: String(ids.templateId),
    txn_id: String(ids.txnId),
  });
  return `${origin}${paths.paymentStatus.path}?${query.toString()}`;
}

/**
 * The payment page to open, or null when the answer is not a web address: only http(s), so a
 * bad answer can never run script in this page. A relative address is the server's own page.
 */
export function safePaymentUrl(raw: unknown, origin: string): string | null {
  if (typeof raw !== 'string' || raw.trim() === '') return null;
  try {
    const url = new URL(raw, origin);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The two payment calls, injected so the sequence is tested without a network. */
export interface PaymentStartApi {
  create(body: PaymentCreate): Promise<Partial<PaymentCreateResult> | null>;
  checkout(body: PaymentCheckout): Promise<Partial<PaymentCheckoutResult> | null>;
}

export type PaymentStart =
  | { ok: true; paymentUrl: string }
  /** `code`: the server's refusal code when it said why (an offline or busy booth). */
  | { ok: false; message: string; code?: string };

/**
 * Refusals a visitor must read as they are: the booth cannot take them now, or they have paid
 * here already (issue 37: the screen then offers the payment made instead of a new one).
 */
const BOOTH_REFUSALS = new Set(['booth_offline', 'booth_busy', 'booth_updating', 'already_paid']);

/**
 * Spec: create a payment transaction for the device and template, then a payment link whose
 * return address is the payment status screen. A booth that cannot take the visitor now is
 * refused with the server's own words (offline, busy, updating); any other failure, and an
 * answer without txn_id or payment_url, is "Could not initiate payment. Please try again or
 * contact support."
 */
export async function startPayment(
  api: PaymentStartApi,
  input: { deviceId: number; templateId: number; origin: string },
): Promise<PaymentStart> {
  const failed: PaymentStart = { ok: false, message: PAYMENT_MESSAGES.initiateFailed };
  try {
    const created = await api.create({ device_id: input.deviceId, template_id: input.templateId });
    const txnId = created?.txn_id;
    if (typeof txnId !== 'number' || !Number.isSafeInteger(txnId) || txnId <= 0) return failed;
    const checkout = await api.checkout({
      txn_id: txnId,
      redirect_url: paymentReturnUrl(input.origin, {
        deviceId: input.deviceId,
        templateId: input.templateId,
        txnId,
      }),
    });
    const paymentUrl = safePaymentUrl(checkout?.payment_url, input.origin);
    return paymentUrl ? { ok: true, paymentUrl } : failed;
  } catch (error) {
    if (error instanceof ApiError && BOOTH_REFUSALS.has(error.code)) {
      return { ok: false, message: error.message, code: error.code };
    }
    return failed;
  }
}

const paymentApi: PaymentStartApi = { create: createPayment, checkout: checkoutPayment };

/**
 * The two calls of a payment's start (startPayment): the answer says how it went, so the call
 * itself never fails.
 */
export function useStartPayment() {
  return useMutation({
    mutationFn: ({ deviceId, templateId }: { deviceId: number; templateId: number }) =>
      startPayment(paymentApi, { deviceId, templateId, origin: window.location.origin }),
  });
}

/**
 * A paid pick: set up the payment, then leave for the provider's page. `processing` stays true
 * until the browser has left, and comes back false when the visitor returns with Back (the
 * page may be restored from the back-forward cache as it was left).
 */
export function usePaymentRedirect(onError: (failure: { message: string; code?: string }) => void) {
  const start = useStartPayment();
  const { mutateAsync, reset } = start;
  /** On the way to the provider's page: the call is over, the page not yet gone. */
  const [leaving, setLeaving] = useState(false);
  // A second tap in the same moment, before the screen shows the first as busy.
  const busy = useRef(false);
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      busy.current = false;
      setLeaving(false);
      reset();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [reset]);
  const pay = useCallback(
    async (deviceId: number, templateId: number) => {
      if (busy.current) return;
      busy.current = true;
      const result = await mutateAsync({ deviceId, templateId });
      if (result.ok) {
        setLeaving(true);
        window.location.assign(result.paymentUrl);
        return;
      }
      busy.current = false;
      onError(result);
    },
    [mutateAsync, onError],
  );
  return { processing: start.isPending || leaving, pay };
}
