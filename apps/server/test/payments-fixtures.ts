import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../src/db/client.js';
import {
  creditLedger,
  paymentEvents,
  paymentRefunds,
  paymentTransactions,
  users,
} from '../src/db/schema.js';
import { consumePaidEntitlement } from '../src/modules/payments/entitlement.js';
import { bearer } from './harness.js';

/** Calls of the visitor API for payments. */
export const paymentsApi = (app: FastifyInstance) => ({
  create: (token: string, deviceId: number, templateId: number) =>
    app.inject({
      method: 'POST',
      url: '/api/regular/payments/create',
      headers: bearer(token),
      payload: { device_id: deviceId, template_id: templateId },
    }),
  checkout: (token: string, txnId: number, redirectUrl = returnUrl(txnId)) =>
    app.inject({
      method: 'POST',
      url: '/api/regular/payments/checkout',
      headers: bearer(token),
      payload: { txn_id: txnId, redirect_url: redirectUrl },
    }),
  status: (token: string, txnId: number) =>
    app.inject({
      method: 'GET',
      url: `/api/regular/payments/${txnId}/status`,
      headers: bearer(token),
    }),
  list: (token: string, query: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: '/api/regular/transactions', headers: bearer(token), query }),
  refund: (token: string, txnId: number, to: 'source' | 'credit') =>
    app.inject({
      method: 'POST',
      url: `/api/enterprise/transactions/${txnId}/refund`,
      headers: bearer(token),
      payload: { to },
    }),
  /** A staff credit grant (`{ amount_rupees, note? }`; tests send bad bodies too). */
  grant: (token: string, userId: number, payload: unknown) =>
    app.inject({
      method: 'POST',
      url: `/api/enterprise/users/${userId}/credits`,
      headers: bearer(token),
      payload: payload as object,
    }),
});

/** The payment status screen's address on this server (inject's host is localhost:80). */
export const returnUrl = (txnId: number) =>
  `http://localhost:80/payment-status?deviceId=1&template_id=1&txn_id=${txnId}`;

export async function transactionRow(db: Database, id: number) {
  const [row] = await db.select().from(paymentTransactions).where(eq(paymentTransactions.id, id));
  if (!row) throw new Error(`no transaction ${id}`);
  return row;
}

export async function eventsOf(db: Database, id: number) {
  return db
    .select()
    .from(paymentEvents)
    .where(eq(paymentEvents.transactionId, id))
    .orderBy(paymentEvents.id);
}

/** A visitor's credit ledger, oldest first. */
export function ledgerOf(db: Database, userId: number) {
  return db
    .select()
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId))
    .orderBy(asc(creditLedger.id));
}

export function refundsOf(db: Database, txnId: number) {
  return db.select().from(paymentRefunds).where(eq(paymentRefunds.transactionId, txnId));
}

/** Uses up the capture a completed payment entitles the visitor to at that booth, if any. */
export function claimPaidCapture(
  db: Database,
  claim: { userId: number; deviceId: number; templateId: number },
) {
  return consumePaidEntitlement(db, { ...claim, captureId: randomUUID() });
}

export async function creditsOf(db: Database, userId: number) {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  return row!.creditsPaise;
}

interface FakeOrder {
  merchantOrderId: string;
  orderId: string;
  amount: number;
  /** What the status call reports as the amount (a test may make it differ). */
  reportedAmount: number;
  state: 'PENDING' | 'COMPLETED' | 'FAILED';
  expireAt: number;
  redirectUrl: string;
}

interface FakeRefund {
  merchantRefundId: string;
  refundId: string;
  originalMerchantOrderId: string;
  amount: number;
  state: 'PENDING' | 'CONFIRMED' | 'COMPLETED' | 'FAILED';
}

/**
 * A local stand-in for PhonePe's Standard Checkout v2 API (OAuth token, pay, order status,
 * refund, refund status), strict about credentials and tokens, recording every call.
 */
export class FakePhonePe {
  readonly clientId = 'FLASHBOOTHUAT';
  readonly clientSecret = 'fake-client-secret';
  readonly webhookUsername = 'flashbooth_hook';
  readonly webhookPassword = 'hookPassw0rd';
  readonly orders = new Map<string, FakeOrder>();
  readonly refunds = new Map<string, FakeRefund>();
  readonly calls: { method: string; path: string; body: unknown; authorization?: string }[] = [];
  tokenLifetimeSeconds = 3600;
  /** The fake's clock in epoch ms (tokens' issued_at / expires_at follow it). */
  nowMs = () => Date.now();
  /** Delay before answering status calls (to widen race windows). */
  statusDelayMs = 0;
  /** Refuse refunds with 400 when set. */
  refuseRefunds = false;
  private readonly tokens = new Map<string, number>();
  private server: Server | undefined;
  url = '';

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        response.writeHead(500).end(String(error));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** The env an app needs to use this fake. */
  env(): Record<string, string> {
    return {
      PAYMENT_PROVIDER: 'phonepe',
      PHONEPE_CLIENT_ID: this.clientId,
      PHONEPE_CLIENT_SECRET: this.clientSecret,
      PHONEPE_WEBHOOK_USERNAME: this.webhookUsername,
      PHONEPE_WEBHOOK_PASSWORD: this.webhookPassword,
      PHONEPE_AUTH_URL: this.url,
      PHONEPE_API_URL: this.url,
    };
  }

  /** The Authorization header PhonePe sends with webhooks: SHA256(username:password). */
  webhookAuthorization(): string {
    return createHash('sha256')
      .update(`${this.webhookUsername}:${this.webhookPassword}`)
      .digest('hex');
  }

  /**
   * Delivers a webhook to `app` as PhonePe does: `{ event, payload }` with the Authorization
   * header PhonePe sends (another value to test refusals, null for none).
   */
  webhook(
    app: FastifyInstance,
    event: string,
    payload: Record<string, unknown>,
    authorization: string | null = this.webhookAuthorization(),
  ) {
    return app.inject({
      method: 'POST',
      url: '/api/payments/phonepe/webhook',
      headers: authorization === null ? {} : { authorization },
      payload: { event, payload },
    });
  }

  /** Forgets every token issued (as after a key rotation): the next call answers 401. */
  revokeTokens(): void {
    this.tokens.clear();
  }

  count(method: string, pathPrefix: string): number {
    return this.calls.filter((c) => c.method === method && c.path.startsWith(pathPrefix)).length;
  }

  order(merchantOrderId: string): FakeOrder {
    const order = this.orders.get(merchantOrderId);
    if (!order) throw new Error(`no PhonePe order ${merchantOrderId}`);
    return order;
  }

  private async handle(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', 'http://fake');
    const method = request.method ?? 'GET';
    const body =
      request.headers['content-type']?.startsWith('application/x-www-form-urlencoded') === true
        ? Object.fromEntries(new URLSearchParams(text))
        : text
          ? (JSON.parse(text) as unknown)
          : undefined;
    this.calls.push({
      method,
      path: url.pathname,
      body,
      ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
    });
    const send = (status: number, payload: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(payload));
    };

    if (method === 'POST' && url.pathname === '/v1/oauth/token') {
      const form = body as Record<string, string>;
      if (
        form.client_id !== this.clientId ||
        form.client_secret !== this.clientSecret ||
        form.grant_type !== 'client_credentials' ||
        form.client_version !== '1'
      ) {
        return send(401, { code: 'UNAUTHORIZED', message: 'bad client credentials' });
      }
      const token = `tok-${randomBytes(8).toString('hex')}`;
      const issued = Math.floor(this.nowMs() / 1000);
      const expires = issued + this.tokenLifetimeSeconds;
      this.tokens.set(token, expires * 1000);
      return send(200, {
        access_token: token,
        encrypted_access_token: token,
        expires_in: null,
        issued_at: issued,
        expires_at: expires,
        session_expires_at: expires,
        token_type: 'O-Bearer',
      });
    }

    const auth = /^O-Bearer (\S+)$/.exec(request.headers.authorization ?? '');
    const expiry = auth ? this.tokens.get(auth[1]!) : undefined;
    if (expiry === undefined || expiry <= this.nowMs()) {
      return send(401, { code: 'UNAUTHORIZED', message: 'token missing or expired' });
    }

    if (method === 'POST' && url.pathname === '/checkout/v2/pay') {
      const pay = body as {
        merchantOrderId: string;
        amount: number;
        expireAfter: number;
        paymentFlow: { type: string; merchantUrls: { redirectUrl: string } };
      };
      if (this.orders.has(pay.merchantOrderId)) {
        return send(400, { code: 'BAD_REQUEST', message: 'Duplicate merchantOrderId' });
      }
      if (pay.paymentFlow?.type !== 'PG_CHECKOUT' || !(pay.amount >= 100)) {
        return send(400, { code: 'BAD_REQUEST', message: 'Invalid request' });
      }
      const order: FakeOrder = {
        merchantOrderId: pay.merchantOrderId,
        orderId: `OMO${randomBytes(8).toString('hex').toUpperCase()}`,
        amount: pay.amount,
        reportedAmount: pay.amount,
        state: 'PENDING',
        expireAt: this.nowMs() + pay.expireAfter * 1000,
        redirectUrl: pay.paymentFlow.merchantUrls.redirectUrl,
      };
      this.orders.set(order.merchantOrderId, order);
      return send(200, {
        orderId: order.orderId,
        state: 'PENDING',
        expireAt: order.expireAt,
        redirectUrl: `${this.url}/pay-page/${order.orderId}`,
      });
    }

    const status = /^\/checkout\/v2\/order\/([^/]+)\/status$/.exec(url.pathname);
    if (method === 'GET' && status) {
      if (this.statusDelayMs > 0) await new Promise((r) => setTimeout(r, this.statusDelayMs));
      const order = this.orders.get(decodeURIComponent(status[1]!));
      if (!order) return send(404, { code: 'NOT_FOUND', message: 'Order not found' });
      return send(200, {
        orderId: order.orderId,
        state: order.state,
        amount: order.reportedAmount,
        expireAt: order.expireAt,
        paymentDetails: [],
      });
    }

    if (method === 'POST' && url.pathname === '/payments/v2/refund') {
      const refund = body as {
        merchantRefundId: string;
        originalMerchantOrderId: string;
        amount: number;
      };
      const order = this.orders.get(refund.originalMerchantOrderId);
      if (this.refuseRefunds || !order || order.state !== 'COMPLETED') {
        return send(400, { code: 'BAD_REQUEST', message: 'Refund not allowed' });
      }
      const row: FakeRefund = {
        merchantRefundId: refund.merchantRefundId,
        refundId: `OMR${randomBytes(8).toString('hex').toUpperCase()}`,
        originalMerchantOrderId: refund.originalMerchantOrderId,
        amount: refund.amount,
        state: 'PENDING',
      };
      this.refunds.set(row.merchantRefundId, row);
      return send(200, { refundId: row.refundId, amount: row.amount, state: row.state });
    }

    const refundStatus = /^\/payments\/v2\/refund\/([^/]+)\/status$/.exec(url.pathname);
    if (method === 'GET' && refundStatus) {
      const row = this.refunds.get(decodeURIComponent(refundStatus[1]!));
      if (!row) return send(404, { code: 'NOT_FOUND', message: 'Refund not found' });
      return send(200, {
        originalMerchantOrderId: row.originalMerchantOrderId,
        amount: row.amount,
        state: row.state,
        refundId: row.refundId,
      });
    }
    return send(404, { code: 'NOT_FOUND', message: `no route ${method} ${url.pathname}` });
  }
}
