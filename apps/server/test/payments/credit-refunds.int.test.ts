import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { captures } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { signedInProductAdmin } from '../harness.js';
import { capture } from '../media-fixtures.js';
import { creditsOf, ledgerOf, refundsOf, transactionRow } from '../payments-fixtures.js';
import { ledgerSummary, PRICE, useCreditsSuite } from './credits-suite.js';

describe.each(databaseTargets)('refunds of partly paid payments on $name', ({ open }) => {
  const s = useCreditsSuite(open);
  const { refundWebhook, claimCapture, paidWithCredit, countReleases } = s;

  it('refunds as credit the amount paid and the credit held, once', async () => {
    const { person, txnId } = await paidWithCredit();
    const admin = await signedInProductAdmin(s.app, s.database);
    const responses = await Promise.all(
      Array.from({ length: 4 }, () => s.api.refund(admin.token, txnId, 'credit')),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
    expect(responses.find((r) => r.statusCode === 200)!.json()).toMatchObject({
      id: txnId,
      state: 'REFUNDED',
      amount_rupees: 20,
      credit_rupees: 30,
    });
    expect(await creditsOf(s.database.db, person.userId)).toBe(PRICE);
    const ledger = await ledgerOf(s.database.db, person.userId);
    expect(ledger.map((row) => [row.reason, row.deltaPaise, row.paymentTransactionId])).toEqual([
      ['grant', 3000, null],
      ['payment_hold', -3000, txnId],
      ['refund', 2000, txnId],
      ['payment_release', 3000, txnId],
    ]);
    const [refund] = await refundsOf(s.database.db, txnId);
    expect(refund).toMatchObject({
      destination: 'credit',
      amountPaise: 2000,
      creditLedgerId: ledger[2]!.id,
      requestedBy: admin.userId,
    });
  });

  it('refunds the amount paid through PhonePe and gives the held credit back when it completes', async () => {
    const { person, txnId, orderId } = await paidWithCredit();
    const admin = await signedInProductAdmin(s.app, s.database);
    const started = await s.api.refund(admin.token, txnId, 'source');
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ state: 'REFUND_PENDING', amount_rupees: 20 });
    const [refund] = await refundsOf(s.database.db, txnId);
    expect(refund).toMatchObject({ destination: 'source', amountPaise: 2000, state: 'PENDING' });
    expect(s.fake.refunds.get(refund!.merchantRefundId)).toMatchObject({
      originalMerchantOrderId: orderId,
      amount: 2000,
    });
    // Still held while the provider works on it.
    expect(await creditsOf(s.database.db, person.userId)).toBe(0);

    s.fake.refunds.get(refund!.merchantRefundId)!.state = 'COMPLETED';
    s.testApp.clock.advance(61);
    const settled = await Promise.all([
      refundWebhook(refund!.merchantRefundId),
      refundWebhook(refund!.merchantRefundId),
      s.app.payments.reconcile(),
    ]);
    expect(settled[0]!.statusCode).toBe(200);
    expect((await transactionRow(s.database.db, txnId)).state).toBe('REFUNDED');
    expect(await ledgerSummary(s.database.db, person.userId)).toEqual([
      ['grant', 3000, null],
      ['payment_hold', -3000, txnId],
      ['payment_release', 3000, txnId],
    ]);
    expect(await creditsOf(s.database.db, person.userId)).toBe(3000);
  });

  it('keeps the credit held when the provider refuses a refund, so the payment still entitles a capture', async () => {
    const { person, txnId } = await paidWithCredit();
    const admin = await signedInProductAdmin(s.app, s.database);
    s.fake.refuseRefunds = true;
    try {
      expect((await s.api.refund(admin.token, txnId, 'source')).statusCode).toBe(422);
    } finally {
      s.fake.refuseRefunds = false;
    }
    expect((await transactionRow(s.database.db, txnId)).state).toBe('COMPLETED');
    expect(await creditsOf(s.database.db, person.userId)).toBe(0);
    expect(await countReleases(txnId)).toBe(0);
    expect((await claimCapture(person.userId))?.transactionId).toBe(txnId);
  });

  it('gives a partly paid capture back as the payment (its credit stays held) when the booth fails', async () => {
    const { person, txnId } = await paidWithCredit();
    const first = await capture(s.app, person.token, s.booth.id, s.templateId);
    expect(first.statusCode, first.body).toBe(200);
    const captureId = s.link.lastCapture(s.booth.thingName).capture_id;
    expect((await transactionRow(s.database.db, txnId)).consumedCaptureId).toBe(captureId);
    const [session] = await s.database.db
      .select()
      .from(captures)
      .where(eq(captures.captureId, captureId));
    expect(session!.chargedPaise).toBe(0);
    await s.link.report(s.booth.thingName, {
      report_id: randomUUID(),
      message: 'The camera did not answer.',
      capture_id: captureId,
      delivered_media_ids: [],
    });
    expect((await transactionRow(s.database.db, txnId)).consumedCaptureId).toBeNull();
    expect(await creditsOf(s.database.db, person.userId)).toBe(0);
    expect(await countReleases(txnId)).toBe(0);
    // The same payment pays for the next try.
    expect((await capture(s.app, person.token, s.booth.id, s.templateId)).statusCode).toBe(200);
    expect((await transactionRow(s.database.db, txnId)).consumedCaptureId).toBe(
      s.link.lastCapture(s.booth.thingName).capture_id,
    );
    expect(await creditsOf(s.database.db, person.userId)).toBe(0);
  });
});
