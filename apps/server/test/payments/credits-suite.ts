import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Database, DatabaseHandle } from '../../src/db/client.js';
import { creditLedger, users } from '../../src/db/schema.js';
import type { DatabaseTarget } from '../databases.js';
import { bearer, signedIn, signedInSuperUser, startApp, type TestApp } from '../harness.js';
import {
  createBooth,
  createOrganization,
  createTemplate,
  ScriptedLink,
} from '../media-fixtures.js';
import {
  claimPaidCapture,
  FakePhonePe,
  ledgerOf,
  paymentsApi,
  transactionRow,
} from '../payments-fixtures.js';

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
export const ledgerSummary = async (db: Database, userId: number) =>
  (await ledgerOf(db, userId)).map((row) => [row.reason, row.deltaPaise, row.paymentTransactionId]);

export const PRICE = 5000;

/**
 * One test file's app on PhonePe's stand-in, a booth (₹50) of an organization offering one
 * template, and the calls the credit tests make. After every test, every visitor the file made
 * must have a balance its ledger explains.
 */
export function useCreditsSuite(open: DatabaseTarget['open']): CreditsSuite {
  const suite = new CreditsSuite();
  beforeAll(() => suite.start(open));
  afterEach(async () => {
    await expectLedgerExplainsBalances(suite.database.db, suite.visitors);
  });
  afterAll(() => suite.stop());
  return suite;
}

export class CreditsSuite {
  readonly fake = new FakePhonePe();
  readonly link = new ScriptedLink();
  database!: DatabaseHandle;
  testApp!: TestApp;
  app!: FastifyInstance;
  api!: ReturnType<typeof paymentsApi>;
  orgId!: number;
  templateId!: number;
  booth!: Awaited<ReturnType<typeof createBooth>>;
  /** Every visitor this file made: their balances are checked after each test. */
  readonly visitors: number[] = [];

  async start(open: DatabaseTarget['open']) {
    await this.fake.start();
    this.database = await open();
    this.testApp = await startApp(
      this.database,
      {
        OTP_SEND_LIMIT_PER_IP: '10000',
        OTP_SEND_LIMIT_PER_PHONE: '10000',
        PAYMENT_RECONCILE_INTERVAL_SECONDS: '0',
        ...this.fake.env(),
      },
      { deviceLink: this.link },
    );
    this.app = this.testApp.app;
    this.fake.nowMs = () => this.testApp.clock.now().getTime();
    this.api = paymentsApi(this.app);
    this.orgId = await createOrganization(this.database.db, 'Sunrise Mall');
    this.templateId = await createTemplate(this.database.db, { orgIds: [this.orgId] });
    this.booth = await createBooth(this.database.db, this.link, {
      orgId: this.orgId,
      pricePaise: PRICE,
      name: 'Atrium',
    });
  }

  async stop() {
    await this.app.close();
    await this.database.close();
    await this.fake.stop();
  }

  ledgerApi = (token: string, userId: number, query: Record<string, string> = {}) =>
    this.app.inject({
      method: 'GET',
      url: `/api/enterprise/users/${userId}/credits/ledger`,
      headers: bearer(token),
      query,
    });
  /** A new visitor, given `rupees` of credit by the super user through the API (0: none). */
  visitor = async (rupees = 0) => {
    const person = await signedIn(this.app, 'regular');
    this.visitors.push(person.userId);
    if (rupees > 0) {
      const admin = await signedInSuperUser(this.testApp);
      const granted = await this.api.grant(admin.token, person.userId, { amount_rupees: rupees });
      expect(granted.statusCode, granted.body).toBe(200);
    }
    return person;
  };
  /** The access token lives 15 minutes; tests that move the clock sign in again. */
  fresh = async (person: { phone: string }) => signedIn(this.app, 'regular', person.phone);
  /**
   * More booths of the same price: a visitor has one open payment per booth (issue 37: an open
   * checkout is reused), so tests of many payments at once spread them over booths.
   */
  private readonly spare: Awaited<ReturnType<typeof createBooth>>[] = [];
  boothNo = async (index: number) => {
    if (index === 0) return this.booth;
    while (this.spare.length < index) {
      this.spare.push(
        await createBooth(this.database.db, this.link, {
          orgId: this.orgId,
          pricePaise: PRICE,
          name: `Atrium ${this.spare.length + 2}`,
        }),
      );
    }
    return this.spare[index - 1]!;
  };
  createPayment = async (token: string, deviceId = this.booth.id) => {
    const created = await this.api.create(token, deviceId, this.templateId);
    expect(created.statusCode, created.body).toBe(200);
    return created.json<{ txn_id: number }>().txn_id;
  };
  checkedOut = async (token: string, deviceId = this.booth.id) => {
    const txnId = await this.createPayment(token, deviceId);
    const checkout = await this.api.checkout(token, txnId);
    expect(checkout.statusCode, checkout.body).toBe(200);
    const { orderId } = await transactionRow(this.database.db, txnId);
    return { txnId, orderId };
  };
  orderWebhook = (orderId: string) =>
    this.fake.webhook(this.app, 'checkout.order.completed', { merchantOrderId: orderId });
  refundWebhook = (refundId: string) =>
    this.fake.webhook(this.app, 'pg.refund.completed', { merchantRefundId: refundId });
  /** The capture a completed payment entitles the visitor to at this booth, if any (used up). */
  claimCapture = (userId: number) =>
    claimPaidCapture(this.database.db, {
      userId,
      deviceId: this.booth.id,
      templateId: this.templateId,
    });
  /** A partially paid, COMPLETED payment: ₹30 credit held, ₹20 paid at PhonePe. */
  paidWithCredit = async () => {
    const person = await this.visitor(30);
    const { txnId, orderId } = await this.checkedOut(person.token);
    this.fake.order(orderId).state = 'COMPLETED';
    expect((await this.orderWebhook(orderId)).statusCode).toBe(200);
    expect((await transactionRow(this.database.db, txnId)).state).toBe('COMPLETED');
    return { person, txnId, orderId };
  };
  countReleases = async (txnId: number) =>
    (
      await this.database.db
        .select()
        .from(creditLedger)
        .where(eq(creditLedger.paymentTransactionId, txnId))
    ).filter((row) => row.reason === 'payment_release').length;
}
