import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { creditLedger } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { signedIn, signedInProductAdmin } from '../harness.js';
import { creditsOf, eventsOf, refundsOf } from '../payments-fixtures.js';
import { useSandboxSuite } from './sandbox-suite.js';

describe.each(databaseTargets)('sandbox payments: refunds on $name', ({ open }) => {
  const s = useSandboxSuite(open);
  const { startPayment, claimCapture, act } = s;

  it('lets product admins refund as credit (visible to the visitor) and to the payment method', async () => {
    const visitor = await signedIn(s.app, 'regular');
    const member = await signedIn(s.app, 'enterprise');
    const admin = await signedInProductAdmin(s.app, s.database);

    const pending = await startPayment(visitor.token);
    expect((await s.api.refund(admin.token, pending.txnId, 'credit')).statusCode).toBe(409);

    const paid = await startPayment(visitor.token);
    await act(paid.paymentUrl, 'pay');
    await s.app.payments.provider.settled!();
    const refusedMember = await s.api.refund(member.token, paid.txnId, 'credit');
    expect(refusedMember.statusCode).toBe(403);
    expect((await s.api.refund(visitor.token, paid.txnId, 'credit')).statusCode).toBe(401);
    expect((await s.api.refund(admin.token, 999_999, 'credit')).statusCode).toBe(404);
    const badBody = await s.app.inject({
      method: 'POST',
      url: `/api/enterprise/transactions/${paid.txnId}/refund`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: { to: 'cash' },
    });
    expect(badBody.statusCode).toBe(400);

    const before = await creditsOf(s.database.db, visitor.userId);
    const credited = await s.api.refund(admin.token, paid.txnId, 'credit');
    expect(credited.statusCode, credited.body).toBe(200);
    expect(credited.json()).toMatchObject({
      id: paid.txnId,
      state: 'REFUNDED',
      amount_rupees: 49.5,
    });
    expect(await creditsOf(s.database.db, visitor.userId)).toBe(before + 4950);
    const ledger = await s.database.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, visitor.userId), eq(creditLedger.reason, 'refund')));
    expect(ledger.map((row) => row.deltaPaise)).toEqual([4950]);
    const [refundRow] = await refundsOf(s.database.db, paid.txnId);
    expect(refundRow).toMatchObject({
      destination: 'credit',
      state: 'COMPLETED',
      requestedBy: admin.userId,
      creditLedgerId: ledger[0]!.id,
    });
    // Refunded once only, and no longer entitles a capture.
    expect((await s.api.refund(admin.token, paid.txnId, 'credit')).statusCode).toBe(409);
    expect(await creditsOf(s.database.db, visitor.userId)).toBe(before + 4950);
    const listed = (await s.api.list(visitor.token)).json().items;
    expect(listed.find((t: { id: number }) => t.id === paid.txnId).state).toBe('REFUNDED');
    expect((await s.api.status(visitor.token, paid.txnId)).json()).toMatchObject({
      state: 'FAILED',
    });
    expect(await claimCapture(visitor.userId)).toBeNull();

    // Now the credit covers the price: no payment is needed (the capture takes the credit).
    const covered = await s.api.create(visitor.token, s.booth.id, s.templateId);
    expect(covered.statusCode).toBe(409);
    expect(covered.json()).toEqual({
      message: 'Your credit covers this photobooth: no payment is needed.',
      code: 'conflict',
    });

    // To the payment method (another visitor, without credit): the sandbox refunds at once.
    const payer = await signedIn(s.app, 'regular');
    const second = await startPayment(payer.token);
    await act(second.paymentUrl, 'pay');
    await s.app.payments.provider.settled!();
    const toSource = await s.api.refund(admin.token, second.txnId, 'source');
    expect(toSource.statusCode, toSource.body).toBe(200);
    expect(toSource.json().state).toBe('REFUNDED');
    expect(await creditsOf(s.database.db, payer.userId)).toBe(0);
    expect(await creditsOf(s.database.db, visitor.userId)).toBe(before + 4950);
    expect((await eventsOf(s.database.db, second.txnId)).map((e) => e.toState)).toEqual([
      'COMPLETED',
      'REFUND_PENDING',
      'REFUNDED',
    ]);
  });

  it('concurrent refunds of one payment refund it once', async () => {
    const visitor = await signedIn(s.app, 'regular');
    const admin = await signedInProductAdmin(s.app, s.database);
    const paid = await startPayment(visitor.token);
    await act(paid.paymentUrl, 'pay');
    await s.app.payments.provider.settled!();
    const before = await creditsOf(s.database.db, visitor.userId);
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        s.api.refund(admin.token, paid.txnId, i % 2 === 0 ? 'credit' : 'source'),
      ),
    );
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.statusCode === 409)).toHaveLength(5);
    const refunds = await refundsOf(s.database.db, paid.txnId);
    expect(refunds).toHaveLength(1);
    const credited = refunds[0]!.destination === 'credit' ? 4950 : 0;
    expect(await creditsOf(s.database.db, visitor.userId)).toBe(before + credited);
  });
});
