import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sandboxOrders } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { signedIn } from '../harness.js';
import { creditsOf, eventsOf, ledgerOf, returnUrl, transactionRow } from '../payments-fixtures.js';
import { useSandboxSuite } from './sandbox-suite.js';

describe.each(databaseTargets)(
  'sandbox payments: checkout, completion and expiry on $name',
  ({ open }) => {
    const s = useSandboxSuite(open);
    const { startPayment, claimCapture, act } = s;

    it('records the price, serves a marked test checkout and completes on Pay with a redirect back', async () => {
      const visitor = await signedIn(s.app, 'regular');
      const { txnId, paymentUrl } = await startPayment(visitor.token);
      const row = await transactionRow(s.database.db, txnId);
      expect(row).toMatchObject({ amountPaise: 4950, state: 'PENDING', provider: 'sandbox' });
      expect(row.orderId).toMatch(/^FB\d{8}[0-9A-F]{12}$/);
      expect(paymentUrl).toBe(`/api/sandbox/checkout/${row.orderId}`);

      const page = await s.app.inject({ method: 'GET', url: paymentUrl });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('TEST PAYMENT');
      expect(page.body).toContain('no money moves');
      expect(page.body).toContain('₹49.50');
      expect(page.body).toContain('Sunrise Mall · Atrium Booth');
      expect(page.body).toContain('name="viewport"');
      expect(page.body).toMatch(/value="pay"[\s\S]*value="fail"[\s\S]*value="cancel"/);
      // The form may return the browser to the payment status screen's origin, nowhere else.
      expect(page.headers['content-security-policy']).toContain(
        "form-action 'self' http://localhost",
      );

      // Before paying, the status is pending.
      expect((await s.api.status(visitor.token, txnId)).json()).toMatchObject({ state: 'PENDING' });

      const paid = await act(paymentUrl, 'pay');
      expect(paid.statusCode).toBe(303);
      expect(paid.headers.location).toBe(returnUrl(txnId));
      // The sandbox's hint alone completes it (no status call from the visitor yet).
      await s.app.payments.provider.settled!();
      expect((await transactionRow(s.database.db, txnId)).state).toBe('COMPLETED');
      expect((await s.api.status(visitor.token, txnId)).json()).toMatchObject({
        state: 'COMPLETED',
      });
      const events = await eventsOf(s.database.db, txnId);
      expect(events.map((e) => [e.fromState, e.toState, e.source])).toEqual([
        ['PENDING', 'COMPLETED', 'webhook'],
      ]);

      // A second click on the (back-navigated) page changes nothing and still returns.
      const again = await act(paymentUrl, 'fail');
      expect(again.statusCode).toBe(303);
      await s.app.payments.provider.settled!();
      expect((await transactionRow(s.database.db, txnId)).state).toBe('COMPLETED');
      const donePage = await s.app.inject({ method: 'GET', url: paymentUrl });
      expect(donePage.body).toContain('This test payment is complete.');
      expect(donePage.body).toContain(`href="${returnUrl(txnId).replace(/&/g, '&amp;')}"`);

      // The visitor is entitled to one capture at this booth with this template.
      const consumed = await claimCapture(visitor.userId);
      expect(consumed?.transactionId).toBe(txnId);
    });

    it('asks only for the price minus the credit on the test checkout, and gives the credit back on Fail', async () => {
      const visitor = await signedIn(s.app, 'regular');
      const admin = await signedIn(s.app, 'enterprise', s.superPhone);
      const granted = await s.api.grant(admin.token, visitor.userId, {
        amount_rupees: 30,
        note: 'Welcome',
      });
      expect(granted.statusCode, granted.body).toBe(200);
      const paid = await startPayment(visitor.token);
      expect(await transactionRow(s.database.db, paid.txnId)).toMatchObject({
        amountPaise: 1950,
        creditPaise: 3000,
      });
      expect(await creditsOf(s.database.db, visitor.userId)).toBe(0);
      const page = await s.app.inject({ method: 'GET', url: paid.paymentUrl });
      expect(page.body).toContain('₹19.50');
      expect(page.body).not.toContain('₹49.50');
      await act(paid.paymentUrl, 'pay');
      await s.app.payments.provider.settled!();
      expect((await s.api.status(visitor.token, paid.txnId)).json()).toMatchObject({
        state: 'COMPLETED',
      });
      expect(await claimCapture(visitor.userId)).toEqual({
        transactionId: paid.txnId,
        amountPaise: 1950,
        creditPaise: 3000,
      });
      expect(await creditsOf(s.database.db, visitor.userId)).toBe(0);

      // A second grant, a second payment, and Fail: the held credit comes back once.
      await s.api.grant(admin.token, visitor.userId, { amount_rupees: 10 });
      const failed = await startPayment(visitor.token);
      expect((await transactionRow(s.database.db, failed.txnId)).amountPaise).toBe(3950);
      await act(failed.paymentUrl, 'fail');
      await s.app.payments.provider.settled!();
      expect((await s.api.status(visitor.token, failed.txnId)).json()).toMatchObject({
        state: 'FAILED',
      });
      expect(await creditsOf(s.database.db, visitor.userId)).toBe(1000);
      const ledger = await ledgerOf(s.database.db, visitor.userId);
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
      const visitor = await signedIn(s.app, 'regular');
      const { txnId, paymentUrl } = await startPayment(visitor.token);
      const failed = await act(paymentUrl, 'fail');
      expect(failed.statusCode).toBe(303);
      expect(failed.headers.location).toBe(returnUrl(txnId));
      expect((await s.api.status(visitor.token, txnId)).json()).toEqual({
        state: 'FAILED',
        reason: 'declined',
        device_id: s.booth.id,
        template_id: s.templateId,
      });
      await s.app.payments.provider.settled!();
      const row = await transactionRow(s.database.db, txnId);
      expect(row).toMatchObject({ state: 'FAILED', failureReason: 'declined' });
      expect((await eventsOf(s.database.db, txnId)).map((e) => e.toState)).toEqual(['FAILED']);
    });

    it('ends a payment cancelled on the checkout as cancelled at once, with nothing pending', async () => {
      const visitor = await signedIn(s.app, 'regular');
      const { txnId, paymentUrl } = await startPayment(visitor.token);
      const cancelled = await act(paymentUrl, 'cancel');
      expect(cancelled.statusCode).toBe(303);
      expect(cancelled.headers.location).toBe(returnUrl(txnId));
      await s.app.payments.provider.settled!();
      // The provider's word arrived with its hint: no status call was needed.
      expect(await transactionRow(s.database.db, txnId)).toMatchObject({
        state: 'FAILED',
        failureReason: 'cancelled',
      });
      expect((await s.api.status(visitor.token, txnId)).json()).toEqual({
        state: 'FAILED',
        reason: 'cancelled',
        device_id: s.booth.id,
        template_id: s.templateId,
      });
      const page = await s.app.inject({ method: 'GET', url: paymentUrl });
      expect(page.body).toContain('This test payment was cancelled.');
      const listed = (await s.api.list(visitor.token)).json();
      expect(listed.items[0]).toMatchObject({
        id: txnId,
        state: 'FAILED',
        failure_reason: 'cancelled',
      });
      // The next pick opens a new checkout: a cancelled one is never reused.
      const next = await startPayment(visitor.token);
      expect(next.txnId).not.toBe(txnId);
    });

    it('leaves an abandoned payment pending until the reconciler expires it', async () => {
      const visitor = await signedIn(s.app, 'regular');
      const { txnId, paymentUrl } = await startPayment(visitor.token);
      const abandoned = await act(paymentUrl, 'abandon');
      expect(abandoned.statusCode).toBe(303);
      expect(abandoned.headers.location).toBe(returnUrl(txnId));
      expect((await s.api.status(visitor.token, txnId)).json()).toMatchObject({ state: 'PENDING' });

      // Not stale yet: the reconciler asks the provider (still pending) and leaves it.
      s.clock.advance(120);
      await s.app.payments.reconcile();
      expect((await transactionRow(s.database.db, txnId)).state).toBe('PENDING');

      // Past the checkout's expiry and the grace period: the provider expired it too.
      s.clock.advance(900 + 600);
      await s.app.payments.reconcile();
      const row = await transactionRow(s.database.db, txnId);
      expect(row.state).toBe('FAILED');
      // The sandbox, like PhonePe, reports its expired order as FAILED itself: an order left
      // open ends at the provider's expiry and says so (issue 37).
      expect(row.failureReason).toBe('expired');
      // (The access token expired meanwhile: sign in again.)
      const again = await signedIn(s.app, 'regular', visitor.phone);
      expect((await s.api.status(again.token, txnId)).json()).toMatchObject({ state: 'FAILED' });
      // The expired page no longer offers Pay.
      const page = await s.app.inject({ method: 'GET', url: paymentUrl });
      expect(page.body).not.toContain('value="pay"');
      expect(page.body).toContain('did not go through');
    });

    it('expires a payment whose checkout was never opened', async () => {
      const visitor = await signedIn(s.app, 'regular');
      const created = await s.api.create(visitor.token, s.booth.id, s.templateId);
      const txnId = created.json<{ txn_id: number }>().txn_id;
      await s.app.payments.reconcile();
      expect((await transactionRow(s.database.db, txnId)).state).toBe('PENDING');
      s.clock.advance(901);
      await s.app.payments.reconcile();
      expect(await transactionRow(s.database.db, txnId)).toMatchObject({
        state: 'FAILED',
        failureReason: 'expired',
      });
      const again = await signedIn(s.app, 'regular', visitor.phone);
      const late = await s.api.checkout(again.token, txnId);
      expect(late.statusCode).toBe(409);
      expect(late.json().code).toBe('conflict');
    });

    it('repeats the same checkout and refuses return addresses of other sites', async () => {
      const visitor = await signedIn(s.app, 'regular');
      const created = await s.api.create(visitor.token, s.booth.id, s.templateId);
      const txnId = created.json<{ txn_id: number }>().txn_id;
      for (const bad of [
        'https://evil.example/payment-status',
        'javascript:alert(1)',
        'http://localhost.evil.example/x',
      ]) {
        const refused = await s.api.checkout(visitor.token, txnId, bad);
        expect(refused.statusCode, bad).toBe(400);
        expect(refused.json().message).toMatch(/redirect_url/);
      }
      const first = await s.api.checkout(visitor.token, txnId);
      const second = await s.api.checkout(visitor.token, txnId);
      expect(second.json()).toEqual(first.json());
      const orders = await s.database.db
        .select()
        .from(sandboxOrders)
        .where(eq(sandboxOrders.orderId, (await transactionRow(s.database.db, txnId)).orderId));
      expect(orders).toHaveLength(1);
    });

    it('answers 404 pages for unknown sandbox orders', async () => {
      const page = await s.app.inject({
        method: 'GET',
        url: '/api/sandbox/checkout/FBNOSUCHORDER',
      });
      expect(page.statusCode).toBe(404);
      expect(page.body).toContain('TEST PAYMENT');
      expect((await act('/api/sandbox/checkout/FBNOSUCHORDER', 'pay')).statusCode).toBe(404);
    });
  },
);
