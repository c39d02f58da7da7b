import { describe, expect, it } from 'vitest';
import { createPaymentProvider } from '../../src/modules/payments/create-payment-provider.js';
import { PaymentsRepository } from '../../src/modules/payments/payments.repository.js';
import { RefundsRepository } from '../../src/modules/payments/refunds.repository.js';
import { PaymentsService } from '../../src/modules/payments/payments.service.js';
import { UsersRepository } from '../../src/modules/users/users.repository.js';
import { UsersService } from '../../src/modules/users/users.service.js';
import { databaseTargets } from '../databases.js';
import { creditsOf, eventsOf, refundsOf, transactionRow } from '../payments-fixtures.js';
import { ledgerSummary, PRICE, useCreditsSuite } from './credits-suite.js';

describe.each(databaseTargets)('held credit given back on $name', ({ open }) => {
  const s = useCreditsSuite(open);
  const { visitor, fresh, createPayment, checkedOut, orderWebhook, claimCapture, countReleases } =
    s;

  it('gives the hold back once when a declined payment is reported by many webhooks, status calls and reconcilers at once', async () => {
    const person = await visitor(30);
    const { txnId, orderId } = await checkedOut(person.token);
    s.fake.order(orderId).state = 'FAILED';
    const other = new PaymentsService({
      repository: new PaymentsRepository(s.database.db),
      refunds: new RefundsRepository(s.database.db),
      provider: createPaymentProvider(
        s.testApp.config,
        s.database.db,
        s.testApp.clock.now,
        s.app.log,
      ),
      users: new UsersService(new UsersRepository(s.database.db)),
      now: s.testApp.clock.now,
      log: s.app.log,
      expireAfterSeconds: 900,
      reconcileIntervalSeconds: 60,
      unusedCreditMinutes: 15,
      returnOrigins: [],
    });
    s.testApp.clock.advance(61);
    const again = await fresh(person);
    s.fake.statusDelayMs = 20;
    try {
      const responses = await Promise.all([
        ...Array.from({ length: 6 }, () => orderWebhook(orderId)),
        ...Array.from({ length: 4 }, () => s.api.status(again.token, txnId)),
      ]);
      await Promise.all([s.app.payments.reconcile(), other.reconcile()]);
      expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    } finally {
      s.fake.statusDelayMs = 0;
    }
    expect(await transactionRow(s.database.db, txnId)).toMatchObject({
      state: 'FAILED',
      failureReason: 'declined',
    });
    expect((await eventsOf(s.database.db, txnId)).map((e) => e.toState)).toEqual(['FAILED']);
    expect(await ledgerSummary(s.database.db, person.userId)).toEqual([
      ['grant', 3000, null],
      ['payment_hold', -3000, txnId],
      ['payment_release', 3000, txnId],
    ]);
    expect(await creditsOf(s.database.db, person.userId)).toBe(3000);
    // More hints later change nothing.
    expect((await orderWebhook(orderId)).statusCode).toBe(200);
    expect(await countReleases(txnId)).toBe(1);
  });

  it('gives the hold back once on expiry, with or without a checkout, whoever gets there', async () => {
    // ₹40: the first payment holds all of it, the second none.
    const person = await visitor(40);
    const neverOpened = await createPayment(person.token);
    const abandoned = await checkedOut(person.token, (await s.boothNo(1)).id);
    expect((await transactionRow(s.database.db, neverOpened)).creditPaise).toBe(4000);
    expect((await transactionRow(s.database.db, abandoned.txnId)).creditPaise).toBe(0);
    const second = await visitor(30);
    const stale = await checkedOut(second.token);

    // Past the checkout's expiry and the grace period: the reconciler expires both; the
    // visitor's status calls and another reconciler race it.
    s.testApp.clock.advance(900 + 600 + 1);
    const [againFirst, againSecond] = [await fresh(person), await fresh(second)];
    await Promise.all([
      s.app.payments.reconcile(),
      s.app.payments.reconcile(),
      s.api.status(againFirst.token, neverOpened),
      s.api.status(againSecond.token, stale.txnId),
      orderWebhook(stale.orderId),
    ]);
    await s.app.payments.reconcile();
    for (const txnId of [neverOpened, abandoned.txnId, stale.txnId]) {
      expect(await transactionRow(s.database.db, txnId)).toMatchObject({
        state: 'FAILED',
        failureReason: 'expired',
      });
      expect((await eventsOf(s.database.db, txnId)).map((e) => e.toState)).toEqual(['FAILED']);
    }
    expect(await countReleases(neverOpened)).toBe(1);
    expect(await countReleases(abandoned.txnId)).toBe(0);
    expect(await countReleases(stale.txnId)).toBe(1);
    expect(await creditsOf(s.database.db, person.userId)).toBe(4000);
    expect(await creditsOf(s.database.db, second.userId)).toBe(3000);
  });

  it('gives the hold back when the provider reports another amount, and never fulfils it', async () => {
    const person = await visitor(30);
    const { txnId, orderId } = await checkedOut(person.token);
    s.fake.order(orderId).state = 'COMPLETED';
    s.fake.order(orderId).reportedAmount = PRICE;
    await Promise.all([orderWebhook(orderId), orderWebhook(orderId)]);
    expect(await transactionRow(s.database.db, txnId)).toMatchObject({
      state: 'FAILED',
      failureReason: 'amount_mismatch',
    });
    expect(await countReleases(txnId)).toBe(1);
    expect(await creditsOf(s.database.db, person.userId)).toBe(3000);
    s.fake.order(orderId).reportedAmount = 2000;
    await orderWebhook(orderId);
    expect((await transactionRow(s.database.db, txnId)).state).toBe('FAILED');
    expect(await countReleases(txnId)).toBe(1);
  });

  it('refunds a late payment as credit when its hold was already given back', async () => {
    const person = await visitor(30);
    const { txnId, orderId } = await checkedOut(person.token);
    s.testApp.clock.advance(900 + 600 + 1);
    await s.app.payments.reconcile();
    expect((await transactionRow(s.database.db, txnId)).failureReason).toBe('expired');
    expect(await creditsOf(s.database.db, person.userId)).toBe(3000);

    // The money arrives after all: the visitor keeps its value as credit (₹30 + ₹20).
    s.fake.order(orderId).state = 'COMPLETED';
    await Promise.all([orderWebhook(orderId), orderWebhook(orderId), orderWebhook(orderId)]);
    expect((await transactionRow(s.database.db, txnId)).state).toBe('REFUNDED');
    expect((await eventsOf(s.database.db, txnId)).map((e) => [e.fromState, e.toState])).toEqual([
      ['PENDING', 'FAILED'],
      ['FAILED', 'COMPLETED'],
      ['COMPLETED', 'REFUNDED'],
    ]);
    expect(await ledgerSummary(s.database.db, person.userId)).toEqual([
      ['grant', 3000, null],
      ['payment_hold', -3000, txnId],
      ['payment_release', 3000, txnId],
      ['refund', 2000, txnId],
    ]);
    expect(await creditsOf(s.database.db, person.userId)).toBe(PRICE);
    const [refund] = await refundsOf(s.database.db, txnId);
    expect(refund).toMatchObject({
      destination: 'credit',
      state: 'COMPLETED',
      amountPaise: 2000,
      requestedBy: null,
    });
    const again = await fresh(person);
    expect((await s.api.status(again.token, txnId)).json()).toMatchObject({ state: 'FAILED' });
    expect(await claimCapture(person.userId)).toBeNull();
  });
});
