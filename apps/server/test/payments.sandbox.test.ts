import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import type { DatabaseHandle } from '../src/db/client.js';
import { creditLedger, sandboxOrders } from '../src/db/schema.js';
import { consumePaidEntitlement } from '../src/modules/payments/entitlement.js';
import { databaseTargets } from './databases.js';
import { type TestClock, signedIn, signedInProductAdmin, startApp } from './harness.js';
import { createBooth, createOrganization, createTemplate, ScriptedLink } from './media-fixtures.js';
import {
  claimPaidCapture,
  creditsOf,
  eventsOf,
  ledgerOf,
  paymentsApi,
  refundsOf,
  returnUrl,
  transactionRow,
} from './payments-fixtures.js';

describe.each(databaseTargets)('sandbox payments on $name', ({ open }) => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let clock: TestClock;
  let superPhone: string;
  let api: ReturnType<typeof paymentsApi>;
  const link = new ScriptedLink();
  let orgId: number;
  let templateId: number;
  let booth: { id: number };

  beforeAll(async () => {
    database = await open();
    ({ app, clock, superPhone } = await startApp(
      database,
      { OTP_SEND_LIMIT_PER_IP: '1000', PAYMENT_RECONCILE_INTERVAL_SECONDS: '0' },
      { deviceLink: link },
    ));
    api = paymentsApi(app);
    orgId = await createOrganization(database.db, 'Sunrise Mall');
    templateId = await createTemplate(database.db, { orgIds: [orgId] });
    booth = await createBooth(database.db, link, { orgId, pricePaise: 4950, name: 'Atrium Booth' });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  /** create + checkout; returns the transaction id and the sandbox page's path. */
  const startPayment = async (token: string, deviceId = booth.id) => {
    const created = await api.create(token, deviceId, templateId);
    expect(created.statusCode, created.body).toBe(200);
    const txnId = created.json<{ txn_id: number }>().txn_id;
    const checkout = await api.checkout(token, txnId);
    expect(checkout.statusCode, checkout.body).toBe(200);
    return { txnId, paymentUrl: checkout.json<{ payment_url: string }>().payment_url };
  };
  /** The capture a completed payment entitles the visitor to at this booth, if any (used up). */
  const claimCapture = (userId: number) =>
    claimPaidCapture(database.db, { userId, deviceId: booth.id, templateId });
  const act = (paymentUrl: string, action: string) =>
    app.inject({
      method: 'POST',
      url: paymentUrl,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ action }).toString(),
    });

  it('records the price, serves a marked test checkout and completes on Pay with a redirect back', async () => {
    const visitor = await signedIn(app, 'regular');
    const { txnId, paymentUrl } = await startPayment(visitor.token);
    const row = await transactionRow(database.db, txnId);
    expect(row).toMatchObject({ amountPaise: 4950, state: 'PENDING', provider: 'sandbox' });
    expect(row.orderId).toMatch(/^FB\d{8}[0-9A-F]{12}$/);
    expect(paymentUrl).toBe(`/api/sandbox/checkout/${row.orderId}`);

    const page = await app.inject({ method: 'GET', url: paymentUrl });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('TEST PAYMENT');
    expect(page.body).toContain('no money moves');
    expect(page.body).toContain('₹49.50');
    expect(page.body).toContain('Sunrise Mall · Atrium Booth');
    expect(page.body).toContain('name="viewport"');
    expect(page.body).toMatch(/value="pay"[\s\S]*value="fail"[\s\S]*value="abandon"/);
    // The form may return the browser to the payment status screen's origin, nowhere else.
    expect(page.headers['content-security-policy']).toContain(
      "form-action 'self' http://localhost",
    );

    // Before paying, the status is pending.
    expect((await api.status(visitor.token, txnId)).json()).toEqual({ state: 'PENDING' });

    const paid = await act(paymentUrl, 'pay');
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(returnUrl(txnId));
    // The sandbox's hint alone completes it (no status call from the visitor yet).
    await app.payments.provider.settled!();
    expect((await transactionRow(database.db, txnId)).state).toBe('COMPLETED');
    expect((await api.status(visitor.token, txnId)).json()).toEqual({ state: 'COMPLETED' });
    const events = await eventsOf(database.db, txnId);
    expect(events.map((e) => [e.fromState, e.toState, e.source])).toEqual([
      ['PENDING', 'COMPLETED', 'webhook'],
    ]);

    // A second click on the (back-navigated) page changes nothing and still returns.
    const again = await act(paymentUrl, 'fail');
    expect(again.statusCode).toBe(303);
    await app.payments.provider.settled!();
    expect((await transactionRow(database.db, txnId)).state).toBe('COMPLETED');
    const donePage = await app.inject({ method: 'GET', url: paymentUrl });
    expect(donePage.body).toContain('This test payment is complete.');
    expect(donePage.body).toContain(`href="${returnUrl(txnId).replace(/&/g, '&amp;')}"`);

    // The visitor is entitled to one capture at this booth with this template.
    const consumed = await claimCapture(visitor.userId);
    expect(consumed?.transactionId).toBe(txnId);
  });

  it('asks only for the price minus the credit on the test checkout, and gives the credit back on Fail', async () => {
    const visitor = await signedIn(app, 'regular');
    const admin = await signedIn(app, 'enterprise', superPhone);
    const granted = await api.grant(admin.token, visitor.userId, {
      amount_rupees: 30,
      note: 'Welcome',
    });
    expect(granted.statusCode, granted.body).toBe(200);
    const paid = await startPayment(visitor.token);
    expect(await transactionRow(database.db, paid.txnId)).toMatchObject({
      amountPaise: 1950,
      creditPaise: 3000,
    });
    expect(await creditsOf(database.db, visitor.userId)).toBe(0);
    const page = await app.inject({ method: 'GET', url: paid.paymentUrl });
    expect(page.body).toContain('₹19.50');
    expect(page.body).not.toContain('₹49.50');
    await act(paid.paymentUrl, 'pay');
    await app.payments.provider.settled!();
    expect((await api.status(visitor.token, paid.txnId)).json()).toEqual({ state: 'COMPLETED' });
    expect(await claimCapture(visitor.userId)).toEqual({
      transactionId: paid.txnId,
      amountPaise: 1950,
      creditPaise: 3000,
    });
    expect(await creditsOf(database.db, visitor.userId)).toBe(0);

    // A second grant, a second payment, and Fail: the held credit comes back once.
    await api.grant(admin.token, visitor.userId, { amount_rupees: 10 });
    const failed = await startPayment(visitor.token);
    expect((await transactionRow(database.db, failed.txnId)).amountPaise).toBe(3950);
    await act(failed.paymentUrl, 'fail');
    await app.payments.provider.settled!();
    expect((await api.status(visitor.token, failed.txnId)).json()).toEqual({ state: 'FAILED' });
    expect(await creditsOf(database.db, visitor.userId)).toBe(1000);
    const ledger = await ledgerOf(database.db, visitor.userId);
    expect(ledger.map((row) => [row.reason, row.deltaPaise, row.paymentTransactionId])).toEqual([
      ['grant', 3000, null],
      ['payment_hold', -3000, paid.txnId],
      ['grant', 1000, null],
      ['payment_hold', -1000, failed.txnId],
      ['payment_release', 1000, failed.txnId],
    ]);
    // The balance is the sum of the ledger.
    expect(ledger.reduce((sum, row) => sum + row.deltaPaise, 0)).toBe(1000);
  });

  it('fails on Fail and returns to the redirect URL', async () => {
    const visitor = await signedIn(app, 'regular');
    const { txnId, paymentUrl } = await startPayment(visitor.token);
    const failed = await act(paymentUrl, 'fail');
    expect(failed.statusCode).toBe(303);
    expect(failed.headers.location).toBe(returnUrl(txnId));
    expect((await api.status(visitor.token, txnId)).json()).toEqual({ state: 'FAILED' });
    await app.payments.provider.settled!();
    const row = await transactionRow(database.db, txnId);
    expect(row).toMatchObject({ state: 'FAILED', failureReason: 'declined' });
    expect((await eventsOf(database.db, txnId)).map((e) => e.toState)).toEqual(['FAILED']);
  });

  it('leaves an abandoned payment pending until the reconciler expires it', async () => {
    const visitor = await signedIn(app, 'regular');
    const { txnId, paymentUrl } = await startPayment(visitor.token);
    const abandoned = await act(paymentUrl, 'abandon');
    expect(abandoned.statusCode).toBe(303);
    expect(abandoned.headers.location).toBe(returnUrl(txnId));
    expect((await api.status(visitor.token, txnId)).json()).toEqual({ state: 'PENDING' });

    // Not stale yet: the reconciler asks the provider (still pending) and leaves it.
    clock.advance(120);
    await app.payments.reconcile();
    expect((await transactionRow(database.db, txnId)).state).toBe('PENDING');

    // Past the checkout's expiry and the grace period: the provider expired it too.
    clock.advance(900 + 600);
    await app.payments.reconcile();
    const row = await transactionRow(database.db, txnId);
    expect(row.state).toBe('FAILED');
    // The sandbox, like PhonePe, reports its expired order as FAILED itself.
    expect(row.failureReason).toBe('declined');
    // (The access token expired meanwhile: sign in again.)
    const again = await signedIn(app, 'regular', visitor.phone);
    expect((await api.status(again.token, txnId)).json()).toEqual({ state: 'FAILED' });
    // The expired page no longer offers Pay.
    const page = await app.inject({ method: 'GET', url: paymentUrl });
    expect(page.body).not.toContain('value="pay"');
    expect(page.body).toContain('did not go through');
  });

  it('expires a payment whose checkout was never opened', async () => {
    const visitor = await signedIn(app, 'regular');
    const created = await api.create(visitor.token, booth.id, templateId);
    const txnId = created.json<{ txn_id: number }>().txn_id;
    await app.payments.reconcile();
    expect((await transactionRow(database.db, txnId)).state).toBe('PENDING');
    clock.advance(901);
    await app.payments.reconcile();
    expect(await transactionRow(database.db, txnId)).toMatchObject({
      state: 'FAILED',
      failureReason: 'expired',
    });
    const again = await signedIn(app, 'regular', visitor.phone);
    const late = await api.checkout(again.token, txnId);
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('conflict');
  });

  it('repeats the same checkout and refuses return addresses of other sites', async () => {
    const visitor = await signedIn(app, 'regular');
    const created = await api.create(visitor.token, booth.id, templateId);
    const txnId = created.json<{ txn_id: number }>().txn_id;
    for (const bad of [
      'https://evil.example/payment-status',
      'javascript:alert(1)',
      'http://localhost.evil.example/x',
    ]) {
      const refused = await api.checkout(visitor.token, txnId, bad);
      expect(refused.statusCode, bad).toBe(400);
      expect(refused.json().message).toMatch(/redirect_url/);
    }
    const first = await api.checkout(visitor.token, txnId);
    const second = await api.checkout(visitor.token, txnId);
    expect(second.json()).toEqual(first.json());
    const orders = await database.db
      .select()
      .from(sandboxOrders)
      .where(eq(sandboxOrders.orderId, (await transactionRow(database.db, txnId)).orderId));
    expect(orders).toHaveLength(1);
  });

  it('lets only the owner check out, see the status and list a transaction', async () => {
    const owner = await signedIn(app, 'regular');
    const other = await signedIn(app, 'regular');
    const { txnId } = await startPayment(owner.token);
    for (const response of [
      await api.checkout(other.token, txnId),
      await api.status(other.token, txnId),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Transaction not found.', code: 'not_found' });
    }
    expect((await api.list(other.token)).json()).toEqual({ items: [], total_count: 0 });
    expect((await api.list(owner.token)).json().items.map((t: { id: number }) => t.id)).toEqual([
      txnId,
    ]);
    // Staff tokens and anonymous callers are refused by the visitor API.
    const staff = await signedIn(app, 'enterprise');
    expect((await api.status(staff.token, txnId)).statusCode).toBe(401);
    expect(
      (await app.inject({ method: 'GET', url: `/api/regular/payments/${txnId}/status` }))
        .statusCode,
    ).toBe(401);
    expect((await api.create(staff.token, booth.id, templateId)).statusCode).toBe(401);
    // A capture entitlement is the owner's alone.
    await act(`/api/sandbox/checkout/${(await transactionRow(database.db, txnId)).orderId}`, 'pay');
    await app.payments.provider.settled!();
    const claim = { deviceId: booth.id, templateId, captureId: randomUUID() };
    expect(
      await consumePaidEntitlement(database.db, { ...claim, userId: other.userId }),
    ).toBeNull();
    expect(
      await consumePaidEntitlement(database.db, { ...claim, userId: owner.userId }),
    ).not.toBeNull();
  });

  it('refuses payments for free, unknown or unlinked booths and templates not offered there', async () => {
    const visitor = await signedIn(app, 'regular');
    const free = await createBooth(database.db, link, { orgId, pricePaise: 0 });
    const unlinked = await createBooth(database.db, link, { orgId: null, pricePaise: 100 });
    const otherOrg = await createOrganization(database.db, 'Harbour Café');
    const elsewhere = await createTemplate(database.db, { orgIds: [otherOrg] });
    const empty = await createTemplate(database.db, { orgIds: [orgId], slots: 0 });
    const cases: [number, number, number, string][] = [
      [free.id, templateId, 409, 'This photobooth is free: no payment is needed.'],
      [unlinked.id, templateId, 404, 'Device not found.'],
      [999_999, templateId, 404, 'Device not found.'],
      [booth.id, 999_999, 404, 'Template not found.'],
      [booth.id, elsewhere, 400, 'This template is not available at this photobooth.'],
      [booth.id, empty, 400, 'This template has no photo slots yet. Please pick another one.'],
    ];
    for (const [deviceId, template, status, message] of cases) {
      const response = await api.create(visitor.token, deviceId, template);
      expect(response.statusCode, message).toBe(status);
      expect(response.json().message).toBe(message);
    }
    const invalid = await app.inject({
      method: 'POST',
      url: '/api/regular/payments/create',
      headers: { authorization: `Bearer ${visitor.token}` },
      payload: { device_id: 'x', template_id: templateId },
    });
    expect(invalid.statusCode).toBe(400);
    expect((await api.list(visitor.token)).json().total_count).toBe(0);
  });

  it('lists transactions newest first with paging and search by order id, venue and booth', async () => {
    const visitor = await signedIn(app, 'regular');
    const harbour = await createOrganization(database.db, 'Harbour Café');
    const harbourTemplate = await createTemplate(database.db, { orgIds: [harbour] });
    const pier = await createBooth(database.db, link, {
      orgId: harbour,
      pricePaise: 12_000,
      name: 'Pier Booth',
    });
    const ids: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      const atPier = i % 3 === 0;
      const response = await api.create(
        visitor.token,
        atPier ? pier.id : booth.id,
        atPier ? harbourTemplate : templateId,
      );
      ids.push(response.json<{ txn_id: number }>().txn_id);
      clock.advance(1);
    }
    const newestFirst = [...ids].reverse();

    const firstPage = (await api.list(visitor.token)).json();
    expect(firstPage.total_count).toBe(12);
    expect(firstPage.items.map((t: { id: number }) => t.id)).toEqual(newestFirst.slice(0, 10));
    // ids[9] was made at the pier booth.
    const item = firstPage.items.find((t: { id: number }) => t.id === ids[9]);
    const order = (await transactionRow(database.db, ids[9]!)).orderId;
    expect(item).toEqual({
      id: ids[9],
      phonepe_order_id: order,
      amount_rupees: 120,
      credit_rupees: 0,
      state: 'PENDING',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
      org_name: 'Harbour Café',
      device_name: 'Pier Booth',
    });
    const secondPage = (await api.list(visitor.token, { limit: '10', offset: '10' })).json();
    expect(secondPage.items.map((t: { id: number }) => t.id)).toEqual(newestFirst.slice(10));
    expect(secondPage.total_count).toBe(12);

    const byOrder = (
      await api.list(visitor.token, { search: order.slice(-8).toLowerCase() })
    ).json();
    expect(byOrder.items.map((t: { id: number }) => t.id)).toEqual([ids[9]]);
    expect(byOrder.total_count).toBe(1);
    const byVenue = (await api.list(visitor.token, { search: 'harbour' })).json();
    expect(byVenue.total_count).toBe(4);
    expect(byVenue.items.every((t: { org_name: string }) => t.org_name === 'Harbour Café')).toBe(
      true,
    );
    const byBooth = (await api.list(visitor.token, { search: 'Atrium', limit: '3' })).json();
    expect(byBooth.total_count).toBe(8);
    expect(byBooth.items).toHaveLength(3);
    // Pattern characters are taken literally.
    expect((await api.list(visitor.token, { search: '%' })).json().total_count).toBe(0);
  });

  it('lets product admins refund as credit (visible to the visitor) and to the payment method', async () => {
    const visitor = await signedIn(app, 'regular');
    const member = await signedIn(app, 'enterprise');
    const admin = await signedInProductAdmin(app, database);

    const pending = await startPayment(visitor.token);
    expect((await api.refund(admin.token, pending.txnId, 'credit')).statusCode).toBe(409);

    const paid = await startPayment(visitor.token);
    await act(paid.paymentUrl, 'pay');
    await app.payments.provider.settled!();
    const refusedMember = await api.refund(member.token, paid.txnId, 'credit');
    expect(refusedMember.statusCode).toBe(403);
    expect((await api.refund(visitor.token, paid.txnId, 'credit')).statusCode).toBe(401);
    expect((await api.refund(admin.token, 999_999, 'credit')).statusCode).toBe(404);
    const badBody = await app.inject({
      method: 'POST',
      url: `/api/enterprise/transactions/${paid.txnId}/refund`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: { to: 'cash' },
    });
    expect(badBody.statusCode).toBe(400);

    const before = await creditsOf(database.db, visitor.userId);
    const credited = await api.refund(admin.token, paid.txnId, 'credit');
    expect(credited.statusCode, credited.body).toBe(200);
    expect(credited.json()).toMatchObject({
      id: paid.txnId,
      state: 'REFUNDED',
      amount_rupees: 49.5,
    });
    expect(await creditsOf(database.db, visitor.userId)).toBe(before + 4950);
    const ledger = await database.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, visitor.userId), eq(creditLedger.reason, 'refund')));
    expect(ledger.map((row) => row.deltaPaise)).toEqual([4950]);
    const [refundRow] = await refundsOf(database.db, paid.txnId);
    expect(refundRow).toMatchObject({
      destination: 'credit',
      state: 'COMPLETED',
      requestedBy: admin.userId,
      creditLedgerId: ledger[0]!.id,
    });
    // Refunded once only, and no longer entitles a capture.
    expect((await api.refund(admin.token, paid.txnId, 'credit')).statusCode).toBe(409);
    expect(await creditsOf(database.db, visitor.userId)).toBe(before + 4950);
    const listed = (await api.list(visitor.token)).json().items;
    expect(listed.find((t: { id: number }) => t.id === paid.txnId).state).toBe('REFUNDED');
    expect((await api.status(visitor.token, paid.txnId)).json()).toEqual({ state: 'FAILED' });
    expect(await claimCapture(visitor.userId)).toBeNull();

    // Now the credit covers the price: no payment is needed (the capture takes the credit).
    const covered = await api.create(visitor.token, booth.id, templateId);
    expect(covered.statusCode).toBe(409);
    expect(covered.json()).toEqual({
      message: 'Your credit covers this photobooth: no payment is needed.',
      code: 'conflict',
    });

    // To the payment method (another visitor, without credit): the sandbox refunds at once.
    const payer = await signedIn(app, 'regular');
    const second = await startPayment(payer.token);
    await act(second.paymentUrl, 'pay');
    await app.payments.provider.settled!();
    const toSource = await api.refund(admin.token, second.txnId, 'source');
    expect(toSource.statusCode, toSource.body).toBe(200);
    expect(toSource.json().state).toBe('REFUNDED');
    expect(await creditsOf(database.db, payer.userId)).toBe(0);
    expect(await creditsOf(database.db, visitor.userId)).toBe(before + 4950);
    expect((await eventsOf(database.db, second.txnId)).map((e) => e.toState)).toEqual([
      'COMPLETED',
      'REFUND_PENDING',
      'REFUNDED',
    ]);
  });

  it('concurrent refunds of one payment refund it once', async () => {
    const visitor = await signedIn(app, 'regular');
    const admin = await signedInProductAdmin(app, database);
    const paid = await startPayment(visitor.token);
    await act(paid.paymentUrl, 'pay');
    await app.payments.provider.settled!();
    const before = await creditsOf(database.db, visitor.userId);
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        api.refund(admin.token, paid.txnId, i % 2 === 0 ? 'credit' : 'source'),
      ),
    );
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.statusCode === 409)).toHaveLength(5);
    const refunds = await refundsOf(database.db, paid.txnId);
    expect(refunds).toHaveLength(1);
    const credited = refunds[0]!.destination === 'credit' ? 4950 : 0;
    expect(await creditsOf(database.db, visitor.userId)).toBe(before + credited);
  });

  it('answers 404 pages for unknown sandbox orders', async () => {
    const page = await app.inject({ method: 'GET', url: '/api/sandbox/checkout/FBNOSUCHORDER' });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('TEST PAYMENT');
    expect((await act('/api/sandbox/checkout/FBNOSUCHORDER', 'pay')).statusCode).toBe(404);
  });
});

describe('payment configuration', () => {
  const base = {
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    DATA_DIR: '/tmp/flashbooth-config-test',
  };
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig({ ...base, ...env });
      return '';
    } catch (error) {
      if (error instanceof ConfigError) return error.message;
      throw error;
    }
  };

  it('uses the sandbox by default outside production only', () => {
    expect(loadConfig({ ...base, NODE_ENV: 'development' }).payments.provider).toBe('sandbox');
    expect(problems({ NODE_ENV: 'production', SMS_PROVIDER: 'sns' })).toContain(
      'PAYMENT_PROVIDER: required when NODE_ENV=production',
    );
    const explicit = loadConfig({
      ...base,
      NODE_ENV: 'production',
      SMS_PROVIDER: 'sns',
      PAYMENT_PROVIDER: 'sandbox',
    });
    expect(explicit.payments.provider).toBe('sandbox');
  });

  it('names every missing PhonePe variable and every bad payment value', () => {
    const message = problems({ PAYMENT_PROVIDER: 'phonepe', PHONEPE_CLIENT_ID: 'abc' });
    for (const name of [
      'PHONEPE_CLIENT_SECRET',
      'PHONEPE_WEBHOOK_USERNAME',
      'PHONEPE_WEBHOOK_PASSWORD',
    ]) {
      expect(message).toContain(`${name}: required when PAYMENT_PROVIDER=phonepe`);
    }
    expect(message).not.toContain('PHONEPE_CLIENT_ID');
    expect(problems({ PAYMENT_PROVIDER: 'stripe' })).toContain('PAYMENT_PROVIDER');
    expect(problems({ PAYMENT_EXPIRE_AFTER_SECONDS: '60' })).toContain(
      'PAYMENT_EXPIRE_AFTER_SECONDS',
    );
    expect(problems({ PAYMENT_RETURN_ORIGINS: 'https://a.example/path' })).toContain(
      'PAYMENT_RETURN_ORIGINS',
    );
    expect(problems({ PHONEPE_API_URL: 'ftp://x' })).toContain('PHONEPE_API_URL');
  });

  it('picks PhonePe production hosts in production unless told otherwise', () => {
    const phonepe = {
      PAYMENT_PROVIDER: 'phonepe',
      PHONEPE_CLIENT_ID: 'id',
      PHONEPE_CLIENT_SECRET: 'secret',
      PHONEPE_WEBHOOK_USERNAME: 'user_name',
      PHONEPE_WEBHOOK_PASSWORD: 'passw0rd1',
    };
    const production = loadConfig({
      ...base,
      ...phonepe,
      NODE_ENV: 'production',
      SMS_PROVIDER: 'sns',
    });
    expect(production.payments.phonepe?.env).toBe('production');
    expect(loadConfig({ ...base, ...phonepe }).payments.phonepe?.env).toBe('sandbox');
  });
});
