import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import { sandboxOrders, type SandboxOrderRow, sandboxRefunds } from '../../db/schema.js';
import {
  type CheckoutOrder,
  type CheckoutSession,
  type HintHandler,
  type OrderStatus,
  type PaymentProvider,
  ProviderError,
  type RefundRequest,
  type RefundStatus,
} from './payment-provider.js';

/** The sandbox checkout page; under /api so the web app's development proxy reaches it too. */
export const SANDBOX_CHECKOUT_PATH = '/api/sandbox/checkout';

export type SandboxAction = 'pay' | 'fail' | 'cancel' | 'abandon';

const providerId = (prefix: string) => `${prefix}${randomBytes(10).toString('hex').toUpperCase()}`;

/**
 * The built-in test provider: a checkout page served by this server where the visitor chooses
 * Pay, Fail or Abandon. It keeps its own orders (`sandbox_orders`) like a real provider, answers
 * status calls from them, expires unpaid orders, and after Pay or Fail sends our server a hint
 * (the webhook of a real provider) without waiting for it. No money moves.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;
  private hintHandler: HintHandler | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly db: Database,
    private readonly now: () => Date,
    private readonly log: FastifyBaseLogger,
    /** Absolute base for the payment page (PUBLIC_URL); relative when absent. */
    private readonly publicUrl: string | undefined,
  ) {}

  onHint(handler: HintHandler): void {
    this.hintHandler = handler;
  }

  async createCheckout(order: CheckoutOrder): Promise<CheckoutSession> {
    const at = this.now();
    const expiresAt = new Date(at.getTime() + order.expireAfterSeconds * 1000);
    const [row] = await this.db
      .insert(sandboxOrders)
      .values({
        orderId: order.orderId,
        providerOrderId: providerId('SBO'),
        amountPaise: order.amountPaise,
        redirectUrl: order.redirectUrl,
        description: order.description,
        expiresAt,
        createdAt: at,
        updatedAt: at,
      })
      .onConflictDoNothing()
      .returning();
    // Like PhonePe: a merchant order id can be used for one checkout only.
    if (!row) throw new ProviderError('Duplicate merchant order id.', true, 409);
    return {
      paymentUrl: `${this.publicUrl ?? ''}${SANDBOX_CHECKOUT_PATH}/${encodeURIComponent(order.orderId)}`,
      providerOrderId: row.providerOrderId,
      expiresAt,
    };
  }

  async orderStatus(orderId: string): Promise<OrderStatus> {
    const row = await this.order(orderId);
    if (!row) throw new ProviderError('Order not found.', true, 404);
    return {
      state: row.state,
      amountPaise: row.amountPaise,
      providerOrderId: row.providerOrderId,
      cancelled: row.cancelled,
    };
  }

  async refund(request: RefundRequest): Promise<RefundStatus> {
    const order = await this.order(request.orderId);
    if (!order || order.state !== 'COMPLETED') {
      throw new ProviderError('Only a completed order can be refunded.', true, 400);
    }
    if (request.amountPaise > order.amountPaise) {
      throw new ProviderError('Refund amount exceeds the order amount.', true, 400);
    }
    // Refunds to a test "payment method" complete at once.
    const [row] = await this.db
      .insert(sandboxRefunds)
      .values({
        refundId: request.refundId,
        providerRefundId: providerId('SBR'),
        orderId: request.orderId,
        amountPaise: request.amountPaise,
        state: 'COMPLETED',
        createdAt: this.now(),
      })
      .onConflictDoNothing()
      .returning();
    if (!row) return this.refundStatus(request.refundId);
    return { state: row.state, providerRefundId: row.providerRefundId };
  }

  async refundStatus(refundId: string): Promise<RefundStatus> {
    const [row] = await this.db
      .select()
      .from(sandboxRefunds)
      .where(eq(sandboxRefunds.refundId, refundId));
    if (!row) throw new ProviderError('Refund not found.', true, 404);
    return { state: row.state, providerRefundId: row.providerRefundId };
  }

  /** The order as the checkout page shows it; an unpaid order past its expiry is FAILED. */
  async order(orderId: string): Promise<SandboxOrderRow | undefined> {
    const [row] = await this.db
      .select()
      .from(sandboxOrders)
      .where(eq(sandboxOrders.orderId, orderId));
    if (row && row.state === 'PENDING' && row.expiresAt.getTime() <= this.now().getTime()) {
      return (await this.decide(orderId, 'FAILED')) ?? (await this.order(orderId));
    }
    return row;
  }

  /**
   * The visitor's choice on the checkout page. Pay, Fail and Cancel ("Cancel and go back": FAILED
   * and marked cancelled, as a provider reports a payer's cancel) decide a pending order once (a
   * second click changes nothing) and send the hint; Abandon (the API only: no button) leaves it
   * pending until it expires, as when someone closes the payment app. Returns the order afterwards.
   */
  async act(orderId: string, action: SandboxAction): Promise<SandboxOrderRow | undefined> {
    const current = await this.order(orderId);
    if (!current || current.state !== 'PENDING' || action === 'abandon') return current;
    const decided = await this.decide(
      orderId,
      action === 'pay' ? 'COMPLETED' : 'FAILED',
      action === 'cancel',
    );
    if (decided) this.sendHint(orderId);
    return decided ?? (await this.order(orderId));
  }

  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private async decide(orderId: string, state: 'COMPLETED' | 'FAILED', cancelled = false) {
    const [row] = await this.db
      .update(sandboxOrders)
      .set({ state, cancelled, updatedAt: this.now() })
      .where(and(eq(sandboxOrders.orderId, orderId), eq(sandboxOrders.state, 'PENDING')))
      .returning();
    return row;
  }

  /** Fire and forget, as a webhook is; tracked so shutdown and tests can wait for it. */
  private sendHint(orderId: string): void {
    const handler = this.hintHandler;
    if (!handler) return;
    const task = handler({ kind: 'order', orderId })
      .catch((error: unknown) => this.log.warn({ err: error, orderId }, 'sandbox hint failed'))
      .finally(() => this.inFlight.delete(task));
    this.inFlight.add(task);
  }
}
