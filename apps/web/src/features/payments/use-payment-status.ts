import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { getPaymentStatus } from './api/get-payment-status';
import {
  PAYMENT_STATUS_TIMINGS,
  PaymentStatusController,
  type PaymentParams,
  type PaymentStatusTimings,
  type RedirectTarget,
} from './payment-status-machine';

/**
 * Runs the payment status flow for one transaction (null: the address was invalid). Keep
 * `onRedirect` stable (useCallback): a new one starts the flow again.
 */
export function usePaymentStatus(
  params: PaymentParams | null,
  onRedirect: (to: RedirectTarget, templateId: number | null) => void,
  timings: PaymentStatusTimings = PAYMENT_STATUS_TIMINGS,
) {
  const txnId = params?.txnId ?? null;
  const controller = useMemo(
    () =>
      new PaymentStatusController(
        txnId === null ? null : { status: () => getPaymentStatus(txnId) },
        onRedirect,
        timings,
      ),
    [txnId, onRedirect, timings],
  );
  useEffect(() => {
    controller.start();
    return () => controller.dispose();
  }, [controller]);
  const state = useSyncExternalStore(controller.subscribe, controller.getState);
  /** The template to capture with: the server's word once it said, else the address's. */
  return { state, templateFor: (fallback: number) => controller.templateFor(fallback) };
}
