import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { paymentTransactions } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { bearer, signedInProductAdmin, signedInSuperUser } from '../harness.js';
import { capture } from '../media-fixtures.js';
import { creditsOf, ledgerOf, transactionRow } from '../payments-fixtures.js';
import { ledgerSummary, PRICE, useCreditsSuite } from './credits-suite.js';

describe.each(databaseTargets)('credit held by partial payments on $name', ({ open }) => {
  const s = useCreditsSuite(open);
  const { visitor, createPayment, checkedOut, orderWebhook, claimCapture, countReleases } = s;

  it('holds exactly the credit and asks the provider only for the rest', async () => {
    const person = await visitor(30);
    const { txnId, orderId } = await checkedOut(person.token);
    expect(await transactionRow(s.database.db, txnId)).toMatchObject({
      amountPaise: 2000,
      creditPaise: 3000,
      state: 'PENDING',
    });
    expect(await creditsOf(s.database.db, person.userId)).toBe(0);
    expect(await ledgerSummary(s.database.db, person.userId)).toEqual([
      ['grant', 3000, null],
      ['payment_hold', -3000, txnId],
    ]);
    // PhonePe is asked for the price minus the credit.
    expect(s.fake.order(orderId).amount).toBe(2000);
    // The visitor's list shows what they pay the provider, and the credit used.
    const listed = (await s.api.list(person.token)).json().items;
    expect(listed).toEqual([
      expect.objectContaining({ id: txnId, amount_rupees: 20, credit_rupees: 30 }),
    ]);
    const self = await s.app.inject({
      method: 'GET',
      url: '/api/regular/users/self',
      headers: bearer(person.token),
    });
    expect(self.json().credits_rupees).toBe(0);

    // Paid: the entitlement is the whole price (paid amount + held credit), used once.
    s.fake.order(orderId).state = 'COMPLETED';
    expect((await s.api.status(person.token, txnId)).json()).toMatchObject({ state: 'COMPLETED' });
    expect(await claimCapture(person.userId)).toEqual({
      transactionId: txnId,
      amountPaise: 2000,
      creditPaise: 3000,
    });
    expect(await claimCapture(person.userId)).toBeNull();
    // Completing takes nothing more and gives nothing back.
    expect(await creditsOf(s.database.db, person.userId)).toBe(0);
    expect(await countReleases(txnId)).toBe(0);
  });

  it('charges the full price without credit, refuses a covered price, and keeps ₹1 to pay', async () => {
    const none = await visitor();
    const full = await createPayment(none.token);
    expect(await transactionRow(s.database.db, full)).toMatchObject({
      amountPaise: PRICE,
      creditPaise: 0,
    });
    expect(await ledgerOf(s.database.db, none.userId)).toEqual([]);

    const covered = await visitor(50);
    const refused = await s.api.create(covered.token, s.booth.id, s.templateId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      message: 'Your credit covers this photobooth: no payment is needed.',
      code: 'conflict',
    });
    expect(await creditsOf(s.database.db, covered.userId)).toBe(PRICE);
    expect((await s.api.list(covered.token)).json().total_count).toBe(0);

    // ₹49.50 of ₹50: PhonePe takes no order under ₹1, so ₹49 is held and ₹0.50 stays credit.
    const almost = await visitor(49.5);
    const { txnId, orderId } = await checkedOut(almost.token);
    expect(await transactionRow(s.database.db, txnId)).toMatchObject({
      amountPaise: 100,
      creditPaise: 4900,
    });
    expect(s.fake.order(orderId).amount).toBe(100);
    expect(await creditsOf(s.database.db, almost.userId)).toBe(50);
  });

  it('never holds more credit than there is when creates and grants race', async () => {
    const person = await visitor(30);
    const admin = await signedInSuperUser(s.testApp);
    const booths = await Promise.all(Array.from({ length: 10 }, (_, i) => s.boothNo(i)));
    const responses = await Promise.all([
      ...booths.map((booth) => s.api.create(person.token, booth.id, s.templateId)),
      ...Array.from({ length: 4 }, () =>
        s.api.grant(admin.token, person.userId, { amount_rupees: 0.5 }),
      ),
    ]);
    expect(responses.map((r) => r.statusCode)).toEqual(Array(14).fill(200));
    const rows = await s.database.db
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.userId, person.userId));
    expect(rows).toHaveLength(10);
    for (const row of rows) expect(row.amountPaise + row.creditPaise).toBe(PRICE);
    const held = rows.reduce((sum, row) => sum + row.creditPaise, 0);
    // Every paisa granted was either held by exactly one payment or is still there.
    expect(held).toBeLessThanOrEqual(3000 + 200);
    expect(held).toBeGreaterThanOrEqual(3000);
    expect(held + (await creditsOf(s.database.db, person.userId))).toBe(3200);
    const holds = (await ledgerOf(s.database.db, person.userId)).filter(
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

  it('keeps every balance explained under mixed concurrent traffic', async () => {
    const person = await visitor(30);
    const superUser = await signedInSuperUser(s.testApp);
    const admin = await signedInProductAdmin(s.app, s.database);
    const topUp = () => s.api.grant(superUser.token, person.userId, { amount_rupees: 30 });
    const paid = await checkedOut(person.token); // holds ₹30
    expect((await topUp()).statusCode).toBe(200);
    const declined = await checkedOut(person.token, (await s.boothNo(1)).id); // holds ₹30
    expect((await topUp()).statusCode).toBe(200);
    const pending = await checkedOut(person.token, (await s.boothNo(2)).id); // holds ₹30
    const others = await Promise.all([3, 4, 5, 6].map((i) => s.boothNo(i)));
    s.fake.order(paid.orderId).state = 'COMPLETED';
    await orderWebhook(paid.orderId);
    s.fake.order(declined.orderId).state = 'FAILED';
    expect((await topUp()).statusCode).toBe(200);

    const responses = await Promise.all([
      s.api.refund(admin.token, paid.txnId, 'credit'),
      orderWebhook(declined.orderId),
      ...others.map((booth) => s.api.create(person.token, booth.id, s.templateId)),
      ...Array.from({ length: 4 }, () =>
        s.api.grant(admin.token, person.userId, { amount_rupees: 40 }),
      ),
      ...Array.from({ length: 3 }, () => capture(s.app, person.token, s.booth.id, s.templateId)),
      s.app.payments.reconcile().then(() => ({ statusCode: 200 })),
    ]);
    for (const response of responses) expect([200, 409]).toContain(response.statusCode);
    expect(responses[0]!.statusCode).toBe(200);
    expect((await transactionRow(s.database.db, pending.txnId)).state).toBe('PENDING');
    const rows = await s.database.db
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.userId, person.userId));
    for (const row of rows) expect(row.amountPaise + row.creditPaise).toBe(PRICE);
    // Holds still in force (pending or paid) plus the balance is everything ever put in,
    // less what captures took.
    const ledger = await ledgerOf(s.database.db, person.userId);
    const sumOf = (reason: string) =>
      ledger.filter((row) => row.reason === reason).reduce((t, row) => t + row.deltaPaise, 0);
    const stillHeld = rows
      .filter((row) => row.state === 'PENDING' || row.state === 'COMPLETED')
      .reduce((t, row) => t + row.creditPaise, 0);
    expect(stillHeld + (await creditsOf(s.database.db, person.userId))).toBe(
      sumOf('grant') + sumOf('refund') + sumOf('capture'),
    );
  });
});
