import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import {
  type CheckoutOrder,
  type CheckoutSession,
  type OrderStatus,
  type PaymentProvider,
  ProviderError,
  type ProviderRefundState,
  type RefundRequest,
  type RefundStatus,
} from './payment-provider.js';

/** PhonePe's hosts (Standard Checkout v2): UAT ("sandbox") and production. */
export const PHONEPE_HOSTS = {
  sandbox: {
    authUrl: 'https://api-preprod.phonepe.com/apis/pg-sandbox',
    apiUrl: 'https://api-preprod.phonepe.com/apis/pg-sandbox',
  },
  production: {
    authUrl: 'https://api.phonepe.com/apis/identity-manager',
    apiUrl: 'https://api.phonepe.com/apis/pg',
  },
} as const;

export interface PhonePeConfig {
  clientId: string;
  clientSecret: string;
  clientVersion: string;
  /** Base of `/v1/oauth/token`, without a trailing slash. */
  authUrl: string;
  /** Base of `/checkout/v2/...` and `/payments/v2/...`, without a trailing slash. */
  apiUrl: string;
  /** The webhook credentials configured on the PhonePe dashboard. */
  webhookUsername: string;
  webhookPassword: string;
  /** Per call; PhonePe recommends answering webhooks within a few seconds, calls are similar. */
  timeoutMs?: number;
}

const TokenSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  /** Epoch seconds. */
  expires_at: z.number().nullish(),
  issued_at: z.number().nullish(),
  expires_in: z.number().nullish(),
});

const PayResponseSchema = z.object({
  orderId: z.string(),
  state: z.string(),
  /** Epoch milliseconds. */
  expireAt: z.number(),
  redirectUrl: z.url(),
});

const OrderStatusSchema = z.object({
  orderId: z.string().nullish(),
  state: z.enum(['PENDING', 'COMPLETED', 'FAILED']),
  amount: z.number().int(),
});

const RefundSchema = z.object({
  refundId: z.string().nullish(),
  state: z.enum(['PENDING', 'CONFIRMED', 'COMPLETED', 'FAILED']),
});

/** CONFIRMED means PhonePe accepted the refund but the money has not reached the payer yet. */
const refundState = (state: z.infer<typeof RefundSchema>['state']): ProviderRefundState =>
  state === 'CONFIRMED' ? 'PENDING' : state;

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * PhonePe Standard Checkout v2 over its REST API: an OAuth client-credentials token (cached and
 * renewed before it expires), create payment, order status, refund and refund status, and the
 * webhook's `Authorization: SHA256(username:password)` check.
 */
export class PhonePeProvider implements PaymentProvider {
  readonly name = 'phonepe' as const;
  private token: { value: string; type: string; renewAt: number } | undefined;
  private tokenRequest: Promise<{ value: string; type: string }> | undefined;
  private readonly expectedWebhookHash: Buffer;

  constructor(
    private readonly config: PhonePeConfig,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.expectedWebhookHash = sha256(
      createHash('sha256')
        .update(`${config.webhookUsername}:${config.webhookPassword}`)
        .digest('hex'),
    );
  }

  /**
   * True when a webhook's Authorization header is SHA256(username:password) in hex. Both sides
   * are hashed again to a fixed length so the comparison takes the same time for any input.
   */
  verifyWebhook(authorization: string | undefined): boolean {
    if (!authorization) return false;
    const given = authorization
      .trim()
      .replace(/^SHA256\s+/i, '')
      .toLowerCase();
    return timingSafeEqual(sha256(given), this.expectedWebhookHash);
  }

  async createCheckout(order: CheckoutOrder): Promise<CheckoutSession> {
    const body = await this.call('POST', '/checkout/v2/pay', {
      merchantOrderId: order.orderId,
      amount: order.amountPaise,
      expireAfter: order.expireAfterSeconds,
      metaInfo: { udf1: order.description.slice(0, 256) },
      paymentFlow: {
        type: 'PG_CHECKOUT',
        message: order.description.slice(0, 256),
        merchantUrls: { redirectUrl: order.redirectUrl },
      },
    });
    const parsed = parse(PayResponseSchema, body, 'create payment');
    return {
      paymentUrl: parsed.redirectUrl,
      providerOrderId: parsed.orderId,
      expiresAt: new Date(parsed.expireAt),
    };
  }

  async orderStatus(orderId: string): Promise<OrderStatus> {
    const body = await this.call(
      'GET',
      `/checkout/v2/order/${encodeURIComponent(orderId)}/status?details=false`,
    );
    const parsed = parse(OrderStatusSchema, body, 'order status');
    return {
      state: parsed.state,
      amountPaise: parsed.amount,
      providerOrderId: parsed.orderId ?? null,
    };
  }

  async refund(request: RefundRequest): Promise<RefundStatus> {
    const body = await this.call('POST', '/payments/v2/refund', {
      merchantRefundId: request.refundId,
      originalMerchantOrderId: request.orderId,
      amount: request.amountPaise,
    });
    const parsed = parse(RefundSchema, body, 'refund');
    return { state: refundState(parsed.state), providerRefundId: parsed.refundId ?? null };
  }

  async refundStatus(refundId: string): Promise<RefundStatus> {
    const body = await this.call(
      'GET',
      `/payments/v2/refund/${encodeURIComponent(refundId)}/status`,
    );
    const parsed = parse(RefundSchema, body, 'refund status');
    return { state: refundState(parsed.state), providerRefundId: parsed.refundId ?? null };
  }

  /** An API call with the cached token; a 401 drops the token and retries once with a new one. */
  private async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    for (let attempt = 0; ; attempt += 1) {
      const token = await this.accessToken();
      const response = await this.send(`${this.config.apiUrl}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          authorization: `${token.type} ${token.value}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (response.status === 401 && attempt === 0) {
        this.token = undefined;
        await response.arrayBuffer();
        continue;
      }
      return this.readJson(response, `${method} ${path.split('?')[0]}`);
    }
  }

  private async accessToken(): Promise<{ value: string; type: string }> {
    const cached = this.token;
    if (cached && this.now().getTime() < cached.renewAt) return cached;
    // Concurrent callers share one token request.
    this.tokenRequest ??= this.fetchToken().finally(() => {
      this.tokenRequest = undefined;
    });
    return this.tokenRequest;
  }

  private async fetchToken(): Promise<{ value: string; type: string }> {
    const response = await this.send(`${this.config.authUrl}/v1/oauth/token`, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        client_id: this.config.clientId,
        client_version: this.config.clientVersion,
        client_secret: this.config.clientSecret,
        grant_type: 'client_credentials',
      }).toString(),
    });
    const parsed = parse(TokenSchema, await this.readJson(response, 'oauth token'), 'oauth token');
    const nowMs = this.now().getTime();
    const issuedMs = parsed.issued_at ? parsed.issued_at * 1000 : nowMs;
    const expiresMs = parsed.expires_at
      ? parsed.expires_at * 1000
      : nowMs + (parsed.expires_in ?? 600) * 1000;
    // Renew ahead of expiry: five minutes early, or halfway through a shorter lifetime.
    const margin = Math.min(300_000, Math.max(0, (expiresMs - issuedMs) / 2));
    const token = {
      value: parsed.access_token,
      type: parsed.token_type || 'O-Bearer',
      renewAt: expiresMs - margin,
    };
    this.token = token;
    return token;
  }

  private async send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, {
        ...init,
        signal: AbortSignal.timeout(this.config.timeoutMs ?? 10_000),
      });
    } catch (error) {
      throw new ProviderError('PhonePe is not reachable.', false, undefined, { cause: error });
    }
  }

  private async readJson(response: Response, what: string): Promise<unknown> {
    const text = await response.text();
    if (!response.ok) {
      // Too many requests and server errors may pass; other refusals will not.
      const definitive = response.status < 500 && response.status !== 429;
      throw new ProviderError(
        `PhonePe ${what} answered ${response.status}: ${text.slice(0, 200)}`,
        definitive,
        response.status,
      );
    }
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new ProviderError(`PhonePe ${what} answered with no JSON.`, false, response.status, {
        cause: error,
      });
    }
  }
}

function parse<T extends z.ZodType>(schema: T, body: unknown, what: string): z.infer<T> {
  const result = schema.safeParse(body);
  if (!result.success) {
    throw new ProviderError(`PhonePe ${what} answered an unexpected body.`, false, undefined, {
      cause: result.error,
    });
  }
  return result.data;
}
