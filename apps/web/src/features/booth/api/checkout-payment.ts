import type { PaymentCheckout, PaymentCheckoutResult } from '@flashbooth/contracts';
import { apiRequest } from '@/lib/api-client';
import { BOOTH_MESSAGES } from '../booth-model';

/**
 * POST payments/checkout (regular API): the provider's payment page for a transaction; the
 * provider sends the visitor back to `redirect_url` afterwards.
 */
export function checkoutPayment(body: PaymentCheckout): Promise<PaymentCheckoutResult> {
  return apiRequest<PaymentCheckoutResult>('regular', 'payments/checkout', {
    method: 'POST',
    body,
    fallbackMessage: BOOTH_MESSAGES.paymentFailed,
  });
}
