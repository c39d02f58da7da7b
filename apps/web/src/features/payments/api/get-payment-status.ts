import type { PaymentStatus } from '@flashbooth/contracts';
import { apiRequest } from '@/lib/api-client';
import { PAYMENT_STATUS_MESSAGES } from '../payment-status-machine';

/** GET payments/{id}/status (regular API): the transaction's state. */
export function getPaymentStatus(txnId: number, signal?: AbortSignal): Promise<PaymentStatus> {
  return apiRequest<PaymentStatus>('regular', `payments/${txnId}/status`, {
    fallbackMessage: PAYMENT_STATUS_MESSAGES.errorMessage,
    signal,
  });
}
