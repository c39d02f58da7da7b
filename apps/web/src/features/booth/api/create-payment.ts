import type { PaymentCreate, PaymentCreateResult } from '@flashbooth/contracts';
import { apiRequest } from '@/lib/api-client';
import { BOOTH_MESSAGES } from '../booth-model';

/** POST payments/create (regular API): a payment transaction for this booth and template. */
export function createPayment(body: PaymentCreate): Promise<PaymentCreateResult> {
  return apiRequest<PaymentCreateResult>('regular', 'payments/create', {
    method: 'POST',
    body,
    fallbackMessage: BOOTH_MESSAGES.paymentFailed,
  });
}
