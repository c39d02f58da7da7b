import { randomUUID } from 'node:crypto';
import { CREDIT_MESSAGES } from '@flashbooth/contracts';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database, DatabaseHandle } from '../src/db/client.js';
import { captures, creditLedger, paymentTransactions, users } from '../src/db/schema.js';
import { createPaymentProvider } from '../src/modules/payments/payments.plugin.js';
import { PaymentsRepository } from '../src/modules/payments/payments.repository.js';
import { PaymentsService } from '../src/modules/payments/payments.service.js';
import { UsersRepository } from '../src/modules/users/users.repository.js';
import { UsersService } from '../src/modules/users/users.service.js';
import { databaseTargets } from './databases.js';
import {
  bearer,
  signedIn,
  signedInProductAdmin,
  signedInSuperUser,
  startApp,
  type TestApp,
} from './harness.js';
import {
  capture,
  createBooth,
  createOrganization,
  createTemplate,
  ScriptedLink,
} from './media-fixtures.js';
import {
  claimPaidCapture,
  creditsOf,
  eventsOf,
  FakePhonePe,
  ledgerOf,
  paymentsApi,
  refundsOf,
  transactionRow,
} from './payments-fixtures.js';

/**
 * The invariant: for visitors whose credit began at 0 and only ever changed through the
 * product (grants, holds, releases, captures, refunds), users.credits_paise is the sum of their
 * credit_ledger. Checked for every visitor of this file after every test.
 */
async function expectLedgerExplainsBalances(db: Database, userIds: number[]) {
  if (userIds.length === 0) return;
  const balances = await db
    .select({ id: users.id, balance: users.creditsPaise })
    .from(users)
    .where(inArray(users.id, userIds));
  const sums = await db
    .select({ userId: creditLedger.userId, sum: sql<string>`sum(${creditLedger.deltaPaise})` })
    .from(creditLedger)
    .where(inArray(creditLedger.userId, userIds))
    .groupBy(creditLedger.userId);
  expect(balances).toHaveLength(userIds.length);
  for (const { id, balance } of balances) {
    const ledger = Number(sums.find((row) => row.userId === id)?.sum ?? 0);
    expect(balance, `visitor ${id}`).toBeGreaterThanOrEqual(0);
    expect(balance, `visitor ${id}: balance = sum of the ledger`).toBe(ledger);
  }
}

/** [reason, delta, linked transaction] of a visitor's ledger, oldest first. */
const ledgerSummary = async (db: Database, userId: number) =>
  (await ledgerOf(db, userId)).map((row) => [row.reason, row.deltaPaise, row.paymentTransactionId]);

const PRICE = 5000;

describe.each(databaseTargets)('credits and partial payments on $name', ({ open }) => {
  const fake = new FakePhonePe();
  const link = new ScriptedLink();
  let database: DatabaseHandle;
  let testApp: TestApp;
  let app: FastifyInstance;
  let api: ReturnType<typeof paymentsApi>;
  let orgId: number;
  let templateId: number;
  let booth: Awaited<ReturnType<typeof createBooth>>;
  /** Every visitor this file made: their balances are checked after each test. */
  const visitors: number[] = [];

  beforeAll(async () => {
    await fake.start();
    database = await open();
    testApp = await startApp(
      database,
      {
        OTP_SEND_LIMIT_PER_IP: '10000',
        OTP_SEND_LIMIT_PER_PHONE: '10000',
        PAYMENT_RECONCILE_INTERVAL_SECONDS: '0',
        ...fake.env(),
      },
      { deviceLink: link },
    );
    app = testApp.app;
    fake.nowMs = () => testApp.clock.now().getTime();
    api = paymentsApi(app);
    orgId = await createOrganization(database.db, 'Sunrise Mall');
    templateId = await createTemplate(database.db, { orgIds: [orgId] });
    booth = await createBooth(database.db, link, { orgId, pricePaise: PRICE, name: 'Atrium' });
  });
  afterEach(async () => {
    await expectLedgerExplainsBalances(database.db, visitors);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    await fake.stop();
  });

  // ---- helpers ----

  const ledgerApi = (token: string, userId: number, query: Record<string, string> = {}) =>
    app.inject({
      method: 'GET',
      url: `/api/enterprise/users/${userId}/credits/ledger`,
      headers: bearer(token),
      query,
    });
  /** A new visitor, given `rupees` of credit by the super user through the API (0: none). */
  const visitor = async (rupees = 0) => {
    const person = await signedIn(app, 'regular');
    visitors.push(person.userId);
    if (rupees > 0) {
      const admin = await signedInSuperUser(testApp);
      const granted = await api.grant(admin.token, person.userId, { amount_rupees: rupees });
      expect(granted.statusCode, granted.body).toBe(200);
    }
    return person;
  };
  /** The access token lives 15 minutes; tests that move the clock sign in again. */
  const fresh = async (person: { phone: string }) => signedIn(app, 'regular', person.phone);
  const createPayment = async (token: string) => {
    const created = await api.create(token, booth.id, templateId);
    expect(created.statusCode, created.body).toBe(200);
    return created.json<{ txn_id: number }>().txn_id;
  };
  const checkedOut = async (token: string) => {
    const txnId = await createPayment(token);
    const checkout = await api.checkout(token, txnId);
    expect(checkout.statusCode, checkout.body).toBe(200);
    const { orderId } = await transactionRow(database.db, txnId);
    return { txnId, orderId };
  };
  const orderWebhook = (orderId: string) =>
    fake.webhook(app, 'checkout.order.completed', { merchantOrderId: orderId });
  const refundWebhook = (refundId: string) =>
    fake.webhook(app, 'pg.refund.completed', { merchantRefundId: refundId });
  /** The capture a completed payment entitles the visitor to at this booth, if any (used up). */
  const claimCapture = (userId: number) =>
    claimPaidCapture(database.db, { userId, deviceId: booth.id, templateId });
  /** A partially paid, COMPLETED payment: ₹30 credit held, ₹20 paid at PhonePe. */
  const paidWithCredit = async () => {
    const person = await visitor(30);
    const { txnId, orderId } = await checkedOut(person.token);
    fake.order(orderId).state = 'COMPLETED';
    expect((await orderWebhook(orderId)).statusCode).toBe(200);
    expect((await transactionRow(database.db, txnId)).state).toBe('COMPLETED');
    return { person, txnId, orderId };
  };
  const countReleases = async (txnId: number) =>
    (
      await database.db
        .select()
        .from(creditLedger)
        .where(eq(creditLedger.paymentTransactionId, txnId))
    ).filter((row) => row.reason === 'payment_release').length;

  // ---- Problem 1: partial credit ----

  it('holds exactly the credit and asks the provider only for the rest', async () => {
    const person = await visitor(30);
    const { txnId, orderId } = await checkedOut(person.token);
    expect(await transactionRow(database.db, txnId)).toMatchObject({
      amountPaise: 2000,
      creditPaise: 3000,
      state: 'PENDING',
    });
    expect(await creditsOf(database.db, person.userId)).toBe(0);
    expect(await ledgerSummary(database.db, person.userId)).toEqual([
      ['grant', 3000, null],
      ['payment_hold', -3000, txnId],
    ]);
    // PhonePe is asked for the price minus the credit.
    expect(fake.order(orderId).amount).toBe(2000);
    // The visitor's list shows what they pay the provider, and the credit used.
    const listed = (await api.list(person.token)).json().items;
    expect(listed).toEqual([
      expect.objectContaining({ id: txnId, amount_rupees: 20, credit_rupees: 30 }),
    ]);
    const self = await app.inject({
      method: 'GET',
      url: '/api/regular/users/self',
      headers: bearer(person.token),
    });
    expect(self.json().credits_rupees).toBe(0);

    // Paid: the entitlement is the whole price (paid amount + held credit), used once.
    fake.order(orderId).state = 'COMPLETED';
    expect((await api.status(person.token, txnId)).json()).toEqual({ state: 'COMPLETED' });
    expect(await claimCapture(person.userId)).toEqual({
      transactionId: txnId,
      amountPaise: 2000,
      creditPaise: 3000,
    });
    expect(await claimCapture(person.userId)).toBeNull();
    // Completing takes nothing more and gives nothing back.
    expect(await creditsOf(database.db, person.userId)).toBe(0);
    expect(await countReleases(txnId)).toBe(0);
  });

  it('charges the full price without credit, refuses a covered price, and keeps ₹1 to pay', async () => {
    const none = await visitor();
    const full = await createPayment(none.token);
    expect(await transactionRow(database.db, full)).toMatchObject({
      amountPaise: PRICE,
      creditPaise: 0,
    });
    expect(await ledgerOf(database.db, none.userId)).toEqual([]);

    const covered = await visitor(50);
    const refused = await api.create(covered.token, booth.id, templateId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      message: 'Your credit covers this photobooth: no payment is needed.',
      code: 'conflict',
    });
    expect(await creditsOf(database.db, covered.userId)).toBe(PRICE);
    expect((await api.list(covered.token)).json().total_count).toBe(0);

    // ₹49.50 of ₹50: PhonePe takes no order under ₹1, so ₹49 is held and ₹0.50 stays credit.
    const almost = await visitor(49.5);
    const { txnId, orderId } = await checkedOut(almost.token);
    expect(await transactionRow(database.db, txnId)).toMatchObject({
      amountPaise: 100,
      creditPaise: 4900,
    });
    expect(fake.order(orderId).amount).toBe(100);
    expect(await creditsOf(database.db, almost.userId)).toBe(50);
  });

  it('never holds more credit than there is when creates and grants race', async () => {
    const person = await visitor(30);
    const admin = await signedInSuperUser(testApp);
    const responses = await Promise.all([
      ...Array.from({ length: 10 }, () => api.create(person.token, booth.id, templateId)),
      ...Array.from({ length: 4 }, () =>
        api.grant(admin.token, person.userId, { amount_rupees: 0.5 }),
      ),
    ]);
    expect(responses.map((r) => r.statusCode)).toEqual(Array(14).fill(200));
    const rows = await database.db
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.userId, person.userId));
    expect(rows).toHaveLength(10);
    for (const row of rows) expect(row.amountPaise + row.creditPaise).toBe(PRICE);
    const held = rows.reduce((sum, row) => sum + row.creditPaise, 0);
    // Every paisa granted was either held by exactly one payment or is still there.
    expect(held).toBeLessThanOrEqual(3000 + 200);
    expect(held).toBeGreaterThanOrEqual(3000);
    expect(held + (await creditsOf(database.db, person.userId))).toBe(3200);
    const holds = (await ledgerOf(database.db, person.userId)).filter(
      (row) => row.reason === 'payment_hold',
    );
    expect(holds.map((row) => row.paymentTransactionId).sort()).toEqual(
      rows
        .filter((row) => row.creditPaise > 0)
        .map((row) => row.id)
        .sort(),
    );
    for (const hold of holds) {
      const row = rows.find((r) => r.id === hold.paymentTransactionId)!;
      expect(hold.deltaPaise).toBe(-row.creditPaise);
    }
  });

  it('gives the hold back once when a declined payment is reported by many webhooks, status calls and reconcilers at once', async () => {
    const person = await visitor(30);
    const { txnId, orderId } = await checkedOut(person.token);
    fake.order(orderId).state = 'FAILED';
    const other = new PaymentsService({
      repository: new PaymentsRepository(database.db),
      provider: createPaymentProvider(testApp.config, database.db, testApp.clock.now, app.log),
      users: new UsersService(new UsersRepository(database.db)),
      now: testApp.clock.now,
      log: app.log,
      expireAfterSeconds: 900,
      reconcileIntervalSeconds: 60,
      returnOrigins: [],
    });
    testApp.clock.advance(61);
    const again = await fresh(person);
    fake.statusDelayMs = 20;
    try {
      const responses = await Promise.all([
        ...Array.from({ length: 6 }, () => orderWebhook(orderId)),
        ...Array.from({ length: 4 }, () => api.status(again.token, txnId)),
      ]);
      await Promise.all([app.payments.reconcile(), other.reconcile()]);
      expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    } finally {
      fake.statusDelayMs = 0;
    }
    expect(await transactionRow(database.db, txnId)).toMatchObject({
      state: 'FAILED',
      failureReason: 'declined',
    });
    expect((await eventsOf(database.db, txnId)).map((e) => e.toState)).toEqual(['FAILED']);
    expect(await ledgerSummary(database.db, person.userId)).toEqual([
      ['grant', 3000, null],
      ['payment_hold', -3000, txnId],
      ['payment_release', 3000, txnId],
    ]);
    expect(await creditsOf(database.db, person.userId)).toBe(3000);
    // More hints later change nothing.
    expect((await orderWebhook(orderId)).statusCode).toBe(200);
    expect(await countReleases(txnId)).toBe(1);
  });

  it('gives the hold back once on expiry, with or without a checkout, whoever gets there', async () => {
    // ₹40: the first payment holds all of it, the second none.
    const person = await visitor(40);
    const neverOpened = await createPayment(person.token);
    const abandoned = await checkedOut(person.token);
    expect((await transactionRow(database.db, neverOpened)).creditPaise).toBe(4000);
    expect((await transactionRow(database.db, abandoned.txnId)).creditPaise).toBe(0);
    const second = await visitor(30);
    const stale = await checkedOut(second.token);

    // Past the checkout's expiry and the grace period: the reconciler expires both; the
    // visitor's status calls and another reconciler race it.
    testApp.clock.advance(900 + 600 + 1);
    const [againFirst, againSecond] = [await fresh(person), await fresh(second)];
    await Promise.all([
      app.payments.reconcile(),
      app.payments.reconcile(),
      api.status(againFirst.token, neverOpened),
      api.status(againSecond.token, stale.txnId),
      orderWebhook(stale.orderId),
    ]);
    await app.payments.reconcile();
    for (const txnId of [neverOpened, abandoned.txnId, stale.txnId]) {
      expect(await transactionRow(database.db, txnId)).toMatchObject({
        state: 'FAILED',
        failureReason: 'expired',
      });
      expect((await eventsOf(database.db, txnId)).map((e) => e.toState)).toEqual(['FAILED']);
    }
    expect(await countReleases(neverOpened)).toBe(1);
    expect(await countReleases(abandoned.txnId)).toBe(0);
    expect(await countReleases(stale.txnId)).toBe(1);
    expect(await creditsOf(database.db, person.userId)).toBe(4000);
    expect(await creditsOf(database.db, second.userId)).toBe(3000);
  });

  it('gives the hold back when the provider reports another amount, and never fulfils it', async () => {
    const person = await visitor(30);
    const { txnId, orderId } = await checkedOut(person.token);
    fake.order(orderId).state = 'COMPLETED';
    fake.order(orderId).reportedAmount = PRICE;
    await Promise.all([orderWebhook(orderId), orderWebhook(orderId)]);
    expect(await transactionRow(database.db, txnId)).toMatchObject({
      state: 'FAILED',
      failureReason: 'amount_mismatch',
    });
    expect(await countReleases(txnId)).toBe(1);
    expect(await creditsOf(database.db, person.userId)).toBe(3000);
    fake.order(orderId).reportedAmount = 2000;
    await orderWebhook(orderId);
    expect((await transactionRow(database.db, txnId)).state).toBe('FAILED');
    expect(await countReleases(txnId)).toBe(1);
  });

  it('refunds a late payment as credit when its hold was already given back', async () => {
    const person = await visitor(30);
    const { txnId, orderId } = await checkedOut(person.token);
    testApp.clock.advance(900 + 600 + 1);
    await app.payments.reconcile();
    expect((await transactionRow(database.db, txnId)).failureReason).toBe('expired');
    expect(await creditsOf(database.db, person.userId)).toBe(3000);

    // The money arrives after all: the visitor keeps its value as credit (₹30 + ₹20).
    fake.order(orderId).state = 'COMPLETED';
    await Promise.all([orderWebhook(orderId), orderWebhook(orderId), orderWebhook(orderId)]);
    expect((await transactionRow(database.db, txnId)).state).toBe('REFUNDED');
    expect((await eventsOf(database.db, txnId)).map((e) => [e.fromState, e.toState])).toEqual([
      ['PENDING', 'FAILED'],
      ['FAILED', 'COMPLETED'],
      ['COMPLETED', 'REFUNDED'],
    ]);
    expect(await ledgerSummary(database.db, person.userId)).toEqual([
      ['grant', 3000, null],
      ['payment_hold', -3000, txnId],
      ['payment_release', 3000, txnId],
      ['refund', 2000, txnId],
    ]);
    expect(await creditsOf(database.db, person.userId)).toBe(PRICE);
    const [refund] = await refundsOf(database.db, txnId);
    expect(refund).toMatchObject({
      destination: 'credit',
      state: 'COMPLETED',
      amountPaise: 2000,
      requestedBy: null,
    });
    const again = await fresh(person);
    expect((await api.status(again.token, txnId)).json()).toEqual({ state: 'FAILED' });
    expect(await claimCapture(person.userId)).toBeNull();
  });

  it('refunds as credit the amount paid and the credit held, once', async () => {
    const { person, txnId } = await paidWithCredit();
    const admin = await signedInProductAdmin(app, database);
    const responses = await Promise.all(
      Array.from({ length: 4 }, () => api.refund(admin.token, txnId, 'credit')),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
    expect(responses.find((r) => r.statusCode === 200)!.json()).toMatchObject({
      id: txnId,
      state: 'REFUNDED',
      amount_rupees: 20,
      credit_rupees: 30,
    });
    expect(await creditsOf(database.db, person.userId)).toBe(PRICE);
    const ledger = await ledgerOf(database.db, person.userId);
    expect(ledger.map((row) => [row.reason, row.deltaPaise, row.paymentTransactionId])).toEqual([
      ['grant', 3000, null],
      ['payment_hold', -3000, txnId],
      ['refund', 2000, txnId],
      ['payment_release', 3000, txnId],
    ]);
    const [refund] = await refundsOf(database.db, txnId);
    expect(refund).toMatchObject({
      destination: 'credit',
      amountPaise: 2000,
      creditLedgerId: ledger[2]!.id,
      requestedBy: admin.userId,
    });
  });

  it('refunds the amount paid through PhonePe and gives the held credit back when it completes', async () => {
    const { person, txnId, orderId } = await paidWithCredit();
    const admin = await signedInProductAdmin(app, database);
    const started = await api.refund(admin.token, txnId, 'source');
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ state: 'REFUND_PENDING', amount_rupees: 20 });
    const [refund] = await refundsOf(database.db, txnId);
    expect(refund).toMatchObject({ destination: 'source', amountPaise: 2000, state: 'PENDING' });
    expect(fake.refunds.get(refund!.merchantRefundId)).toMatchObject({
      originalMerchantOrderId: orderId,
      amount: 2000,
    });
    // Still held while the provider works on it.
    expect(await creditsOf(database.db, person.userId)).toBe(0);

    fake.refunds.get(refund!.merchantRefundId)!.state = 'COMPLETED';
    testApp.clock.advance(61);
    const settled = await Promise.all([
      refundWebhook(refund!.merchantRefundId),
      refundWebhook(refund!.merchantRefundId),
      app.payments.reconcile(),
    ]);
    expect(settled[0]!.statusCode).toBe(200);
    expect((await transactionRow(database.db, txnId)).state).toBe('REFUNDED');
    expect(await ledgerSummary(database.db, person.userId)).toEqual([
      ['grant', 3000, null],
      ['payment_hold', -3000, txnId],
      ['payment_release', 3000, txnId],
    ]);
    expect(await creditsOf(database.db, person.userId)).toBe(3000);
  });

  it('keeps the credit held when the provider refuses a refund, so the payment still entitles a capture', async () => {
    const { person, txnId } = await paidWithCredit();
    const admin = await signedInProductAdmin(app, database);
    fake.refuseRefunds = true;
    try {
      expect((await api.refund(admin.token, txnId, 'source')).statusCode).toBe(422);
    } finally {
      fake.refuseRefunds = false;
    }
    expect((await transactionRow(database.db, txnId)).state).toBe('COMPLETED');
    expect(await creditsOf(database.db, person.userId)).toBe(0);
    expect(await countReleases(txnId)).toBe(0);
    expect((await claimCapture(person.userId))?.transactionId).toBe(txnId);
  });

  it('gives a partly paid capture back as the payment (its credit stays held) when the booth fails', async () => {
    const { person, txnId } = await paidWithCredit();
    const first = await capture(app, person.token, booth.id, templateId);
    expect(first.statusCode, first.body).toBe(200);
    const captureId = link.lastCapture(booth.thingName).capture_id;
    expect((await transactionRow(database.db, txnId)).consumedCaptureId).toBe(captureId);
    const [session] = await database.db
      .select()
      .from(captures)
      .where(eq(captures.captureId, captureId));
    expect(session!.chargedPaise).toBe(0);
    await link.report(booth.thingName, {
      report_id: randomUUID(),
      message: 'The camera did not answer.',
      capture_id: captureId,
      delivered_media_ids: [],
    });
    expect((await transactionRow(database.db, txnId)).consumedCaptureId).toBeNull();
    expect(await creditsOf(database.db, person.userId)).toBe(0);
    expect(await countReleases(txnId)).toBe(0);
    // The same payment pays for the next try.
    expect((await capture(app, person.token, booth.id, templateId)).statusCode).toBe(200);
    expect((await transactionRow(database.db, txnId)).consumedCaptureId).toBe(
      link.lastCapture(booth.thingName).capture_id,
    );
    expect(await creditsOf(database.db, person.userId)).toBe(0);
  });

  it('keeps every balance explained under mixed concurrent traffic', async () => {
    const person = await visitor(30);
    const superUser = await signedInSuperUser(testApp);
    const admin = await signedInProductAdmin(app, database);
    const topUp = () => api.grant(superUser.token, person.userId, { amount_rupees: 30 });
    const paid = await checkedOut(person.token); // holds ₹30
    expect((await topUp()).statusCode).toBe(200);
    const declined = await checkedOut(person.token); // holds ₹30
    expect((await topUp()).statusCode).toBe(200);
    const pending = await checkedOut(person.token); // holds ₹30
    fake.order(paid.orderId).state = 'COMPLETED';
    await orderWebhook(paid.orderId);
    fake.order(declined.orderId).state = 'FAILED';
    expect((await topUp()).statusCode).toBe(200);

    const responses = await Promise.all([
      api.refund(admin.token, paid.txnId, 'credit'),
      orderWebhook(declined.orderId),
      ...Array.from({ length: 4 }, () => api.create(person.token, booth.id, templateId)),
      ...Array.from({ length: 4 }, () =>
        api.grant(admin.token, person.userId, { amount_rupees: 40 }),
      ),
      ...Array.from({ length: 3 }, () => capture(app, person.token, booth.id, templateId)),
      app.payments.reconcile().then(() => ({ statusCode: 200 })),
    ]);
    for (const response of responses) expect([200, 409]).toContain(response.statusCode);
    expect(responses[0]!.statusCode).toBe(200);
    expect((await transactionRow(database.db, pending.txnId)).state).toBe('PENDING');
    const rows = await database.db
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.userId, person.userId));
    for (const row of rows) expect(row.amountPaise + row.creditPaise).toBe(PRICE);
    // Holds still in force (pending or paid) plus the balance is everything ever put in,
    // less what captures took.
    const ledger = await ledgerOf(database.db, person.userId);
    const sumOf = (reason: string) =>
      ledger.filter((row) => row.reason === reason).reduce((t, row) => t + row.deltaPaise, 0);
    const stillHeld = rows
      .filter((row) => row.state === 'PENDING' || row.state === 'COMPLETED')
      .reduce((t, row) => t + row.creditPaise, 0);
    expect(stillHeld + (await creditsOf(database.db, person.userId))).toBe(
      sumOf('grant') + sumOf('refund') + sumOf('capture'),
    );
  });

  // ---- Problem 2: staff grants and the ledger ----

  it('lets only super users and product admins grant credit or read the ledger', async () => {
    const person = await visitor();
    const member = await signedIn(app, 'enterprise');
    const admin = await signedInProductAdmin(app, database);
    const superUser = await signedInSuperUser(testApp);

    const refused = await api.grant(member.token, person.userId, { amount_rupees: 10 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: CREDIT_MESSAGES.grantStaffOnly, code: 'forbidden' });
    const refusedLedger = await ledgerApi(member.token, person.userId);
    expect(refusedLedger.statusCode).toBe(403);
    expect(refusedLedger.json().message).toBe(CREDIT_MESSAGES.ledgerStaffOnly);
    // Visitors' tokens and anonymous callers are refused by the staff API.
    expect((await api.grant(person.token, person.userId, { amount_rupees: 10 })).statusCode).toBe(
      401,
    );
    expect((await ledgerApi(person.token, person.userId)).statusCode).toBe(401);
    const anonymous = await app.inject({
      method: 'POST',
      url: `/api/enterprise/users/${person.userId}/credits`,
      payload: { amount_rupees: 10 },
    });
    expect(anonymous.statusCode).toBe(401);
    // Nor does the visitor API have the call.
    const visitorApi = await app.inject({
      method: 'POST',
      url: `/api/regular/users/${person.userId}/credits`,
      headers: bearer(person.token),
      payload: { amount_rupees: 10 },
    });
    expect(visitorApi.statusCode).toBe(404);
    expect(await creditsOf(database.db, person.userId)).toBe(0);

    const byAdmin = await api.grant(admin.token, person.userId, {
      amount_rupees: 12.5,
      note: '  Sorry about the printer jam  ',
    });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect(byAdmin.json()).toMatchObject({
      id: person.userId,
      phone: person.phone,
      type: 'regular',
      credits_rupees: 12.5,
    });
    expect(byAdmin.json().organizations).toBeUndefined();
    const bySuper = await api.grant(superUser.token, person.userId, {
      amount_rupees: 100,
      note: '',
    });
    expect(bySuper.json().credits_rupees).toBe(112.5);
    const ledger = await ledgerOf(database.db, person.userId);
    expect(ledger.map((row) => [row.reason, row.deltaPaise, row.note, row.grantedBy])).toEqual([
      ['grant', 1250, 'Sorry about the printer jam', admin.userId],
      ['grant', 10_000, null, superUser.userId],
    ]);
    // The visitor sees the new balance.
    const self = await app.inject({
      method: 'GET',
      url: '/api/regular/users/self',
      headers: bearer(person.token),
    });
    expect(self.json().credits_rupees).toBe(112.5);
  });

  it('finds only visitors: unknown ids and staff accounts are 404', async () => {
    const superUser = await signedInSuperUser(testApp);
    const staff = await signedIn(app, 'enterprise');
    for (const id of [999_999, staff.userId]) {
      const granted = await api.grant(superUser.token, id, { amount_rupees: 5 });
      expect(granted.statusCode).toBe(404);
      expect(granted.json()).toEqual({ message: 'User not found.', code: 'not_found' });
      const ledger = await ledgerApi(superUser.token, id);
      expect(ledger.statusCode).toBe(404);
      expect(ledger.json()).toEqual({ message: 'User not found.', code: 'not_found' });
    }
    expect(await creditsOf(database.db, staff.userId)).toBe(0);
    expect(await ledgerOf(database.db, staff.userId)).toEqual([]);
  });

  it('validates the amount and the note with clear messages, writing nothing', async () => {
    const person = await visitor();
    const superUser = await signedInSuperUser(testApp);
    const cases: [unknown, string][] = [
      [{}, 'amount_rupees is required.'],
      [{ amount_rupees: null }, 'amount_rupees is required.'],
      [{ amount_rupees: '10' }, 'amount_rupees must be a number of rupees.'],
      [{ amount_rupees: 0 }, 'amount_rupees must be more than 0.'],
      [{ amount_rupees: -5 }, 'amount_rupees must be more than 0.'],
      [{ amount_rupees: 10_000.01 }, 'amount_rupees must be at most 10000.'],
      [{ amount_rupees: 1e9 }, 'amount_rupees must be at most 10000.'],
      [{ amount_rupees: 12.345 }, 'amount_rupees must have at most two decimals.'],
      [{ amount_rupees: 0.001 }, 'amount_rupees must have at most two decimals.'],
      [{ amount_rupees: 5, note: 'x'.repeat(201) }, 'note must be at most 200 characters.'],
      [{ amount_rupees: 5, note: 42 }, 'note must be text.'],
    ];
    for (const [payload, message] of cases) {
      const response = await api.grant(superUser.token, person.userId, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json(), JSON.stringify(payload)).toEqual({
        message,
        code: 'validation_error',
      });
    }
    expect(await ledgerOf(database.db, person.userId)).toEqual([]);
    expect(await creditsOf(database.db, person.userId)).toBe(0);

    // The limits themselves are accepted; binary fractions count as their two decimals.
    for (const amount of [10_000, 0.01, 0.1 + 0.2]) {
      const response = await api.grant(superUser.token, person.userId, {
        amount_rupees: amount,
        note: 'y'.repeat(200),
      });
      expect(response.statusCode, String(amount)).toBe(200);
    }
    expect(await creditsOf(database.db, person.userId)).toBe(1_000_000 + 1 + 30);
    const badPage = await ledgerApi(superUser.token, person.userId, { limit: '0' });
    expect(badPage.statusCode).toBe(400);
    expect((await ledgerApi(superUser.token, person.userId, { limit: '201' })).statusCode).toBe(
      400,
    );
  });

  it('adds up 20 concurrent grants exactly', async () => {
    const person = await visitor();
    const superUser = await signedInSuperUser(testApp);
    const admin = await signedInProductAdmin(app, database);
    const amounts = Array.from({ length: 20 }, (_, i) => i + 1 + (i % 4) * 0.25);
    const responses = await Promise.all(
      amounts.map((amount, i) =>
        api.grant(i % 2 === 0 ? superUser.token : admin.token, person.userId, {
          amount_rupees: amount,
          note: `grant ${i}`,
        }),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    const expected = amounts.reduce((sum, amount) => sum + Math.round(amount * 100), 0);
    expect(await creditsOf(database.db, person.userId)).toBe(expected);
    const ledger = await ledgerOf(database.db, person.userId);
    expect(ledger).toHaveLength(20);
    expect(ledger.every((row) => row.reason === 'grant')).toBe(true);
    // The largest balance any response reported is the final one.
    const reported = responses.map((r) => Math.round(r.json().credits_rupees * 100));
    expect(Math.max(...reported)).toBe(expected);
    expect(new Set(reported).size).toBe(20);
  });

  it('explains a balance entry by entry through the ledger call', async () => {
    const person = await visitor();
    const superUser = await signedInSuperUser(testApp);
    const admin = await signedInProductAdmin(app, database);
    await api.grant(admin.token, person.userId, { amount_rupees: 30, note: 'Welcome' });
    const declined = await checkedOut(person.token); // holds ₹30
    fake.order(declined.orderId).state = 'FAILED';
    await orderWebhook(declined.orderId); // gives it back
    await api.grant(superUser.token, person.userId, { amount_rupees: 25 }); // ₹55: covers ₹50
    expect((await capture(app, person.token, booth.id, templateId)).statusCode).toBe(200);
    const captureId = link.lastCapture(booth.thingName).capture_id;

    const [{ name: superName } = { name: '' }] = await database.db
      .select({ name: users.name })
      .from(users)
      .where(eq(users.id, superUser.userId));
    const page = await ledgerApi(superUser.token, person.userId);
    expect(page.statusCode, page.body).toBe(200);
    const body = page.json<{
      items: Record<string, unknown>[];
      total_count: number;
      credits_rupees: number;
    }>();
    expect(body.total_count).toBe(5);
    expect(body.credits_rupees).toBe(5);
    const stamp = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    const entry = (values: Record<string, unknown>) => ({
      id: expect.any(Number),
      note: null,
      created_at: stamp,
      payment_transaction_id: null,
      capture_id: null,
      granted_by: null,
      granted_by_name: null,
      ...values,
    });
    expect(body.items).toEqual([
      entry({ delta_rupees: -50, reason: 'capture', capture_id: captureId }),
      entry({
        delta_rupees: 25,
        reason: 'grant',
        granted_by: superUser.userId,
        granted_by_name: superName,
      }),
      entry({
        delta_rupees: 30,
        reason: 'payment_release',
        payment_transaction_id: declined.txnId,
      }),
      entry({ delta_rupees: -30, reason: 'payment_hold', payment_transaction_id: declined.txnId }),
      entry({
        delta_rupees: 30,
        reason: 'grant',
        note: 'Welcome',
        granted_by: admin.userId,
        granted_by_name: 'Test Person',
      }),
    ]);
    const sum = body.items.reduce((total, item) => total + Number(item.delta_rupees) * 100, 0);
    expect(Math.round(sum)).toBe(Math.round(body.credits_rupees * 100));

    // Paging, newest first.
    const second = (
      await ledgerApi(superUser.token, person.userId, { limit: '2', offset: '2' })
    ).json();
    expect(second.total_count).toBe(5);
    expect(second.items.map((item: { id: number }) => item.id)).toEqual(
      body.items.slice(2, 4).map((item) => item.id),
    );
  });

  it('refuses ledger rows whose sign contradicts their reason', async () => {
    const person = await visitor();
    await expect(
      database.db
        .insert(creditLedger)
        .values({ userId: person.userId, deltaPaise: -100, reason: 'grant' }),
    ).rejects.toThrow();
    await expect(
      database.db
        .insert(creditLedger)
        .values({ userId: person.userId, deltaPaise: 100, reason: 'payment_hold' }),
    ).rejects.toThrow();
    expect(await ledgerOf(database.db, person.userId)).toEqual([]);
  });
});
