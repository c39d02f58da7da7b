import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import type { DatabaseHandle } from '../../src/db/client.js';
import { consumePaidEntitlement } from '../../src/modules/payments/entitlement.js';
import { createPaymentProvider } from '../../src/modules/payments/create-payment-provider.js';
import { PaymentsRepository } from '../../src/modules/payments/payments.repository.js';
import { RefundsRepository } from '../../src/modules/payments/refunds.repository.js';
import { PaymentsService } from '../../src/modules/payments/payments.service.js';
import { UsersRepository } from '../../src/modules/users/users.repository.js';
import { UsersService } from '../../src/modules/users/users.service.js';
import { databaseTargets } from '../databases.js';
import { type TestClock, signedIn, signedInProductAdmin, startApp } from '../harness.js';
import {
  createBooth,
  createOrganization,
  createTemplate,
  ScriptedLink,
} from '../media-fixtures.js';
import {
  eventsOf,
  FakePhonePe,
  paymentsApi,
  refundsOf,
  returnUrl,
  transactionRow,
} from '../payments-fixtures.js';

describe.each(databaseTargets)('PhonePe payments on $name', ({ open }) => {
  const fake = new FakePhonePe();
  const link = new ScriptedLink();
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let clock: TestClock;
  let config: Config;
  let api: ReturnType<typeof paymentsApi>;
  let boothId: number;
  let templateId: number;

  beforeAll(async () => {
    await fake.start();
    database = await open();
    ({ app, clock, config } = await startApp(
      database,
      { OTP_SEND_LIMIT_PER_IP: '1000', PAYMENT_RECONCILE_INTERVAL_SECONDS: '0', ...fake.env() },
      { deviceLink: link },
    ));
    fake.nowMs = () => clock.now().getTime();
    api = paymentsApi(app);
    const orgId = await createOrganization(database.db, 'Sunrise Mall');
    templateId = await createTemplate(database.db, { orgIds: [orgId] });
    boothId = (await createBooth(database.db, link, { orgId, pricePaise: 4950 })).id;
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    await fake.stop();
  });

  /** A visitor with a checked-out PhonePe payment. */
  const checkedOut = async () => {
    const visitor = await signedIn(app, 'regular');
    const created = await api.create(visitor.token, boothId, templateId);
    expect(created.statusCode, created.body).toBe(200);
    const txnId = created.json<{ txn_id: number }>().txn_id;
    const checkout = await api.checkout(visitor.token, txnId);
    expect(checkout.statusCode, checkout.body).toBe(200);
    const { orderId } = await transactionRow(database.db, txnId);
    return {
      visitor,
      txnId,
      orderId,
      paymentUrl: checkout.json<{ payment_url: string }>().payment_url,
    };
  };

  const webhook = (
    payload: Record<string, unknown>,
    event = 'checkout.order.completed',
    /** null: no Authorization header at all. */
    authorization?: string | null,
  ) => fake.webhook(app, event, payload, authorization);
  const orderWebhook = (orderId: string, state = 'COMPLETED', amount = 4950) =>
    webhook(
      { merchantId: fake.clientId, merchantOrderId: orderId, state, amount, paymentDetails: [] },
      state === 'COMPLETED' ? 'checkout.order.completed' : 'checkout.order.failed',
    );
  const statusCalls = (orderId: string) =>
    fake.calls.filter((c) => c.path === `/checkout/v2/order/${orderId}/status`).length;

  it('creates the checkout at PhonePe with one cached OAuth token', async () => {
    const tokensBefore = fake.count('POST', '/v1/oauth/token');
    const first = await checkedOut();
    const second = await checkedOut();
    const order = fake.order(first.orderId);
    expect(first.paymentUrl).toBe(`${fake.url}/pay-page/${order.orderId}`);
    expect((await transactionRow(database.db, first.txnId)).providerOrderId).toBe(order.orderId);
    const pay = fake.calls.find(
      (c) =>
        c.path === '/checkout/v2/pay' &&
        (c.body as { merchantOrderId: string }).merchantOrderId === first.orderId,
    )!;
    expect(pay.authorization).toMatch(/^O-Bearer tok-/);
    expect(pay.body).toMatchObject({
      merchantOrderId: first.orderId,
      amount: 4950,
      expireAfter: 900,
      paymentFlow: { type: 'PG_CHECKOUT', merchantUrls: { redirectUrl: returnUrl(first.txnId) } },
    });
    expect(fake.order(second.orderId).amount).toBe(4950);
    // At most one token for both checkouts (none when an earlier test already has one).
    expect(fake.count('POST', '/v1/oauth/token') - tokensBefore).toBeLessThanOrEqual(1);
    expect(fake.count('POST', '/v1/oauth/token')).toBeGreaterThanOrEqual(1);
  });

  it('renews the token before it expires and after PhonePe refuses it', async () => {
    const { txnId, visitor } = await checkedOut();
    const before = fake.count('POST', '/v1/oauth/token');
    // Still well inside the token's life: cached.
    await api.status(visitor.token, txnId);
    expect(fake.count('POST', '/v1/oauth/token')).toBe(before);
    // Within five minutes of its expiry: renewed before use.
    clock.advance(3600 - 240);
    const fresh = await signedIn(app, 'regular', visitor.phone);
    expect((await api.status(fresh.token, txnId)).json()).toMatchObject({ state: 'PENDING' });
    expect(fake.count('POST', '/v1/oauth/token')).toBe(before + 1);
    // Revoked at PhonePe: the 401 makes a new token and the call is repeated once.
    fake.revokeTokens();
    const calls = statusCalls((await transactionRow(database.db, txnId)).orderId);
    expect((await api.status(fresh.token, txnId)).json()).toMatchObject({ state: 'PENDING' });
    expect(fake.count('POST', '/v1/oauth/token')).toBe(before + 2);
    expect(statusCalls((await transactionRow(database.db, txnId)).orderId)).toBe(calls + 2);
  });

  it('refuses a forged webhook without asking PhonePe or changing anything', async () => {
    const { txnId, orderId } = await checkedOut();
    fake.order(orderId).state = 'COMPLETED';
    const body = { merchantOrderId: orderId, state: 'COMPLETED', amount: 4950 };
    const forged = [
      null,
      '',
      'deadbeef',
      // One hex digit off.
      fake.webhookAuthorization().slice(0, -1) +
        (fake.webhookAuthorization().endsWith('0') ? '1' : '0'),
      `Basic ${Buffer.from(`${fake.webhookUsername}:${fake.webhookPassword}`).toString('base64')}`,
      // SHA256 of the wrong password.
      'b1b7b9e5a4d7d2a5a0b6f0f3e0d0c3c5b4a1f2e3d4c5b6a7f8e9d0c1b2a3f4e5',
    ];
    for (const authorization of forged) {
      const response = await webhook(body, 'checkout.order.completed', authorization);
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(response.json().code).toBe('unauthorized');
    }
    expect(statusCalls(orderId)).toBe(0);
    expect((await transactionRow(database.db, txnId)).state).toBe('PENDING');
    expect(await eventsOf(database.db, txnId)).toEqual([]);
    // The genuine header (in any letter case) is accepted.
    const genuine = await webhook(
      body,
      'checkout.order.completed',
      fake.webhookAuthorization().toUpperCase(),
    );
    expect(genuine.statusCode).toBe(200);
    expect((await transactionRow(database.db, txnId)).state).toBe('COMPLETED');
  });

  it('treats the webhook as a hint: the order status call decides', async () => {
    const { txnId, orderId } = await checkedOut();
    // The body claims COMPLETED, PhonePe says PENDING: nothing changes.
    expect((await orderWebhook(orderId)).statusCode).toBe(200);
    expect(statusCalls(orderId)).toBe(1);
    expect((await transactionRow(database.db, txnId)).state).toBe('PENDING');
    // Paid: a completed event completes it; a late failed event (out of order) changes nothing,
    // even if PhonePe would now report FAILED.
    fake.order(orderId).state = 'COMPLETED';
    expect((await orderWebhook(orderId)).statusCode).toBe(200);
    fake.order(orderId).state = 'FAILED';
    expect((await orderWebhook(orderId, 'FAILED')).statusCode).toBe(200);
    const row = await transactionRow(database.db, txnId);
    expect(row.state).toBe('COMPLETED');
    expect((await eventsOf(database.db, txnId)).map((e) => [e.fromState, e.toState])).toEqual([
      ['PENDING', 'COMPLETED'],
    ]);
  });

  it('fulfils once on duplicate webhooks', async () => {
    const { txnId, orderId, visitor } = await checkedOut();
    fake.order(orderId).state = 'COMPLETED';
    const concurrent = await Promise.all(Array.from({ length: 10 }, () => orderWebhook(orderId)));
    expect(concurrent.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    for (let i = 0; i < 3; i += 1) expect((await orderWebhook(orderId)).statusCode).toBe(200);
    expect((await transactionRow(database.db, txnId)).state).toBe('COMPLETED');
    expect((await eventsOf(database.db, txnId)).map((e) => e.toState)).toEqual(['COMPLETED']);
    const claim = { userId: visitor.userId, deviceId: boothId, templateId };
    expect(
      await consumePaidEntitlement(database.db, { ...claim, captureId: randomUUID() }),
    ).toEqual({ transactionId: txnId, amountPaise: 4950, creditPaise: 0 });
    expect(await consumePaidEntitlement(database.db, { ...claim, captureId: randomUUID() })).toBe(
      null,
    );
  });

  it("fulfils once when webhooks race the visitor's return and captures race each other", async () => {
    const { txnId, orderId, visitor } = await checkedOut();
    fake.order(orderId).state = 'COMPLETED';
    fake.statusDelayMs = 25;
    try {
      const responses = await Promise.all([
        ...Array.from({ length: 5 }, () => orderWebhook(orderId)),
        ...Array.from({ length: 5 }, () => api.status(visitor.token, txnId)),
      ]);
      expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
      for (const status of responses.slice(5))
        expect(status.json()).toMatchObject({ state: 'COMPLETED' });
    } finally {
      fake.statusDelayMs = 0;
    }
    expect(statusCalls(orderId)).toBeGreaterThanOrEqual(2);
    expect((await eventsOf(database.db, txnId)).map((e) => e.toState)).toEqual(['COMPLETED']);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        database.db.transaction((tx) =>
          consumePaidEntitlement(tx, {
            userId: visitor.userId,
            deviceId: boothId,
            templateId,
            captureId: randomUUID(),
          }),
        ),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('does not fulfil a payment whose amount differs from ours', async () => {
    const { txnId, orderId, visitor } = await checkedOut();
    fake.order(orderId).state = 'COMPLETED';
    fake.order(orderId).reportedAmount = 100;
    expect((await orderWebhook(orderId, 'COMPLETED', 4950)).statusCode).toBe(200);
    expect(await transactionRow(database.db, txnId)).toMatchObject({
      state: 'FAILED',
      failureReason: 'amount_mismatch',
    });
    expect((await api.status(visitor.token, txnId)).json()).toMatchObject({ state: 'FAILED' });
    // Stays out of reach until a person has looked at it.
    fake.order(orderId).reportedAmount = 4950;
    await orderWebhook(orderId);
    expect((await transactionRow(database.db, txnId)).state).toBe('FAILED');
    expect(
      await consumePaidEntitlement(database.db, {
        userId: visitor.userId,
        deviceId: boothId,
        templateId,
        captureId: randomUUID(),
      }),
    ).toBeNull();
  });

  it('reconciles payments whose webhook never came, expires stale ones and honours a late payment', async () => {
    const paid = await checkedOut();
    const waiting = await checkedOut();
    const declined = await checkedOut();
    fake.order(paid.orderId).state = 'COMPLETED';
    fake.order(declined.orderId).state = 'FAILED';

    // Not due yet: the first check waits for the reconcile interval after checkout.
    await app.payments.reconcile();
    expect((await transactionRow(database.db, paid.txnId)).state).toBe('PENDING');

    clock.advance(61);
    await app.payments.reconcile();
    expect((await transactionRow(database.db, paid.txnId)).state).toBe('COMPLETED');
    expect((await eventsOf(database.db, paid.txnId)).map((e) => e.source)).toEqual(['reconcile']);
    expect(await transactionRow(database.db, declined.txnId)).toMatchObject({
      state: 'FAILED',
      failureReason: 'declined',
    });
    expect((await transactionRow(database.db, waiting.txnId)).state).toBe('PENDING');

    // Past the checkout's expiry and the grace period, PhonePe still says PENDING: expired.
    clock.advance(900 + 600);
    await app.payments.reconcile();
    expect(await transactionRow(database.db, waiting.txnId)).toMatchObject({
      state: 'FAILED',
      failureReason: 'expired',
    });
    // A payment that completes after all is honoured when PhonePe reports it.
    fake.order(waiting.orderId).state = 'COMPLETED';
    expect((await orderWebhook(waiting.orderId)).statusCode).toBe(200);
    const late = await transactionRow(database.db, waiting.txnId);
    expect(late).toMatchObject({ state: 'COMPLETED', failureReason: null });
    expect((await eventsOf(database.db, waiting.txnId)).map((e) => e.toState)).toEqual([
      'FAILED',
      'COMPLETED',
    ]);
  });

  it('lets several server instances reconcile together without checking an order twice', async () => {
    const orders = await Promise.all(Array.from({ length: 8 }, () => checkedOut()));
    for (const { orderId } of orders) fake.order(orderId).state = 'COMPLETED';
    const other = new PaymentsService({
      repository: new PaymentsRepository(database.db),
      refunds: new RefundsRepository(database.db),
      provider: createPaymentProvider(config, database.db, clock.now, app.log),
      users: new UsersService(new UsersRepository(database.db)),
      now: clock.now,
      log: app.log,
      expireAfterSeconds: 900,
      reconcileIntervalSeconds: 60,
      unusedCreditMinutes: 15,
      returnOrigins: [],
    });
    clock.advance(61);
    fake.statusDelayMs = 30;
    try {
      // Two instances start together; two more start while the first checks are in flight.
      const early = [app.payments.reconcile(), other.reconcile()];
      while (!orders.some(({ orderId }) => statusCalls(orderId) > 0)) {
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      await Promise.all([...early, other.reconcile(), app.payments.reconcile()]);
    } finally {
      fake.statusDelayMs = 0;
    }
    for (const { orderId, txnId } of orders) {
      expect(statusCalls(orderId), orderId).toBe(1);
      expect((await transactionRow(database.db, txnId)).state).toBe('COMPLETED');
      expect((await eventsOf(database.db, txnId)).map((e) => e.toState)).toEqual(['COMPLETED']);
    }
  });

  it('refunds to the payment method through PhonePe, settled by webhook or reconciliation', async () => {
    const admin = await signedInProductAdmin(app, database);
    const first = await checkedOut();
    fake.order(first.orderId).state = 'COMPLETED';
    await orderWebhook(first.orderId);

    const started = await api.refund(admin.token, first.txnId, 'source');
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().state).toBe('REFUND_PENDING');
    const [refund] = await refundsOf(database.db, first.txnId);
    expect(refund).toMatchObject({ destination: 'source', state: 'PENDING', amountPaise: 4950 });
    const call = fake.calls.find((c) => c.path === '/payments/v2/refund')!;
    expect(call.body).toEqual({
      merchantRefundId: refund!.merchantRefundId,
      originalMerchantOrderId: first.orderId,
      amount: 4950,
    });
    expect(refund!.providerRefundId).toBe(fake.refunds.get(refund!.merchantRefundId)!.refundId);
    // Visible to the visitor while it runs.
    const listed = (await api.list(first.visitor.token)).json().items[0];
    expect(listed).toMatchObject({ id: first.txnId, state: 'REFUND_PENDING' });

    // A forged refund webhook changes nothing; the genuine one is checked with PhonePe.
    fake.refunds.get(refund!.merchantRefundId)!.state = 'COMPLETED';
    const refundEvent = { merchantRefundId: refund!.merchantRefundId, state: 'COMPLETED' };
    expect((await webhook(refundEvent, 'pg.refund.completed', 'x')).statusCode).toBe(401);
    expect((await transactionRow(database.db, first.txnId)).state).toBe('REFUND_PENDING');
    expect((await webhook(refundEvent, 'pg.refund.completed')).statusCode).toBe(200);
    expect((await transactionRow(database.db, first.txnId)).state).toBe('REFUNDED');

    // No webhook: the reconciler finds the completed refund.
    const second = await checkedOut();
    fake.order(second.orderId).state = 'COMPLETED';
    await orderWebhook(second.orderId);
    expect((await api.refund(admin.token, second.txnId, 'source')).json().state).toBe(
      'REFUND_PENDING',
    );
    const [secondRefund] = await refundsOf(database.db, second.txnId);
    fake.refunds.get(secondRefund!.merchantRefundId)!.state = 'CONFIRMED';
    clock.advance(61);
    expect((await app.payments.reconcile()).refundsSettled).toBe(0);
    fake.refunds.get(secondRefund!.merchantRefundId)!.state = 'COMPLETED';
    clock.advance(61);
    expect((await app.payments.reconcile()).refundsSettled).toBe(1);
    expect((await transactionRow(database.db, second.txnId)).state).toBe('REFUNDED');
  });

  it('gives a refused refund back its COMPLETED state so it can be tried again', async () => {
    const admin = await signedInProductAdmin(app, database);
    const paid = await checkedOut();
    fake.order(paid.orderId).state = 'COMPLETED';
    await orderWebhook(paid.orderId);
    fake.refuseRefunds = true;
    try {
      const refused = await api.refund(admin.token, paid.txnId, 'source');
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toBe(
        'The payment provider refused the refund. Nothing was refunded.',
      );
    } finally {
      fake.refuseRefunds = false;
    }
    expect((await transactionRow(database.db, paid.txnId)).state).toBe('COMPLETED');
    const retried = await api.refund(admin.token, paid.txnId, 'source');
    expect(retried.json().state).toBe('REFUND_PENDING');
    const refunds = await refundsOf(database.db, paid.txnId);
    expect(refunds.map((r) => r.state).sort()).toEqual(['FAILED', 'PENDING']);
  });

  it('acknowledges webhooks for orders it does not know and refuses malformed ones', async () => {
    expect((await orderWebhook('FBUNKNOWNORDER')).statusCode).toBe(200);
    const malformed = await app.inject({
      method: 'POST',
      url: '/api/payments/phonepe/webhook',
      headers: { authorization: fake.webhookAuthorization() },
      payload: { event: 'checkout.order.completed' },
    });
    expect(malformed.statusCode).toBe(400);
    // The sandbox checkout does not exist with PhonePe configured.
    expect(
      (await app.inject({ method: 'GET', url: '/api/sandbox/checkout/FBUNKNOWNORDER' })).statusCode,
    ).toBe(404);
  });
});
