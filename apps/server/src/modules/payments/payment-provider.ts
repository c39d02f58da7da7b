/**
 * One interface for every payment provider (DESIGN.md stack table: `sandbox` and PhonePe
 * Standard Checkout v2). The server never trusts what arrives from the visitor's browser or in a
 * webhook: an order is paid only when `orderStatus` says COMPLETED for the amount we asked.
 */
export type ProviderName = 'sandbox' | 'phonepe';

/** The provider's own order states (PhonePe's words, which the spec also uses). */
export type ProviderOrderState = 'PENDING' | 'COMPLETED' | 'FAILED';
export type ProviderRefundState = 'PENDING' | 'COMPLETED' | 'FAILED';

export interface CheckoutOrder {
  /** Our merchant order id (unique, [A-Za-z0-9_-], at most 63 characters). */
  orderId: string;
  amountPaise: number;
  /** Where the provider sends the visitor afterwards, paid or not. */
  redirectUrl: string;
  /** How long the visitor has to pay. */
  expireAfterSeconds: number;
  /** A short text the payment page may show (venue and booth). */
  description: string;
}

export interface CheckoutSession {
  paymentUrl: string;
  providerOrderId: string;
  expiresAt: Date;
}

export interface OrderStatus {
  state: ProviderOrderState;
  /** What the provider says the order is for, in paise; compared with ours before fulfilment. */
  amountPaise: number;
  providerOrderId: string | null;
  /** A FAILED order the payer cancelled at the provider's page (when the provider says so). */
  cancelled?: boolean;
}

export interface RefundRequest {
  /** Our refund id (unique, [A-Za-z0-9_-], at most 63 characters). */
  refundId: string;
  orderId: string;
  amountPaise: number;
}

export interface RefundStatus {
  state: ProviderRefundState;
  providerRefundId: string | null;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  createCheckout(order: CheckoutOrder): Promise<CheckoutSession>;
  orderStatus(orderId: string): Promise<OrderStatus>;
  refund(request: RefundRequest): Promise<RefundStatus>;
  refundStatus(refundId: string): Promise<RefundStatus>;
  /** Waits for work the provider started on its own (the sandbox's webhook hints). */
  settled?(): Promise<void>;
}

/**
 * A failed provider call. `definitive` when the provider answered and refused (4xx: unknown
 * order, bad request), so the call will not succeed by retrying; otherwise (network, timeout,
 * 5xx) the outcome is unknown and must be checked again later.
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly definitive: boolean,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ProviderError';
  }
}

/** The provider tells us something changed for an order or a refund: a hint, never a verdict. */
export type ProviderHint =
  { kind: 'order'; orderId: string } | { kind: 'refund'; refundId: string };
export type HintHandler = (hint: ProviderHint) => Promise<void>;
