import { CREDIT_MESSAGES } from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { creditLedger, users } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { bearer, signedIn, signedInProductAdmin, signedInSuperUser } from '../harness.js';
import { capture } from '../media-fixtures.js';
import { creditsOf, ledgerOf } from '../payments-fixtures.js';
import { useCreditsSuite } from './credits-suite.js';

describe.each(databaseTargets)('staff credit grants and the ledger on $name', ({ open }) => {
  const s = useCreditsSuite(open);
  const { ledgerApi, visitor, checkedOut, orderWebhook } = s;

  it('lets only super users and product admins grant credit or read the ledger', async () => {
    const person = await visitor();
    const member = await signedIn(s.app, 'enterprise');
    const admin = await signedInProductAdmin(s.app, s.database);
    const superUser = await signedInSuperUser(s.testApp);

    const refused = await s.api.grant(member.token, person.userId, { amount_rupees: 10 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: CREDIT_MESSAGES.grantStaffOnly, code: 'forbidden' });
    const refusedLedger = await ledgerApi(member.token, person.userId);
    expect(refusedLedger.statusCode).toBe(403);
    expect(refusedLedger.json().message).toBe(CREDIT_MESSAGES.ledgerStaffOnly);
    // Visitors' tokens and anonymous callers are refused by the staff API.
    expect((await s.api.grant(person.token, person.userId, { amount_rupees: 10 })).statusCode).toBe(
      401,
    );
    expect((await ledgerApi(person.token, person.userId)).statusCode).toBe(401);
    const anonymous = await s.app.inject({
      method: 'POST',
      url: `/api/enterprise/users/${person.userId}/credits`,
      payload: { amount_rupees: 10 },
    });
    expect(anonymous.statusCode).toBe(401);
    // Nor does the visitor API have the call.
    const visitorApi = await s.app.inject({
      method: 'POST',
      url: `/api/regular/users/${person.userId}/credits`,
      headers: bearer(person.token),
      payload: { amount_rupees: 10 },
    });
    expect(visitorApi.statusCode).toBe(404);
    expect(await creditsOf(s.database.db, person.userId)).toBe(0);

    const byAdmin = await s.api.grant(admin.token, person.userId, {
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
    const bySuper = await s.api.grant(superUser.token, person.userId, {
      amount_rupees: 100,
      note: '',
    });
    expect(bySuper.json().credits_rupees).toBe(112.5);
    const ledger = await ledgerOf(s.database.db, person.userId);
    expect(ledger.map((row) => [row.reason, row.deltaPaise, row.note, row.grantedBy])).toEqual([
      ['grant', 1250, 'Sorry about the printer jam', admin.userId],
      ['grant', 10_000, null, superUser.userId],
    ]);
    // The visitor sees the new balance.
    const self = await s.app.inject({
      method: 'GET',
      url: '/api/regular/users/self',
      headers: bearer(person.token),
    });
    expect(self.json().credits_rupees).toBe(112.5);
  });

  it('finds only visitors: unknown ids and staff accounts are 404', async () => {
    const superUser = await signedInSuperUser(s.testApp);
    const staff = await signedIn(s.app, 'enterprise');
    for (const id of [999_999, staff.userId]) {
      const granted = await s.api.grant(superUser.token, id, { amount_rupees: 5 });
      expect(granted.statusCode).toBe(404);
      expect(granted.json()).toEqual({ message: 'User not found.', code: 'not_found' });
      const ledger = await ledgerApi(superUser.token, id);
      expect(ledger.statusCode).toBe(404);
      expect(ledger.json()).toEqual({ message: 'User not found.', code: 'not_found' });
    }
    expect(await creditsOf(s.database.db, staff.userId)).toBe(0);
    expect(await ledgerOf(s.database.db, staff.userId)).toEqual([]);
  });

  it('validates the amount and the note with clear messages, writing nothing', async () => {
    const person = await visitor();
    const superUser = await signedInSuperUser(s.testApp);
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
      // Under half a paisa: within the decimals check's tolerance, yet 0 paise (was a 500).
      [{ amount_rupees: 2.220446049250313e-16 }, 'amount_rupees must be more than 0.'],
      [{ amount_rupees: 1e-9 }, 'amount_rupees must be more than 0.'],
      [{ amount_rupees: 5, note: 'x'.repeat(201) }, 'note must be at most 200 characters.'],
      [{ amount_rupees: 5, note: 42 }, 'note must be text.'],
    ];
    for (const [payload, message] of cases) {
      const response = await s.api.grant(superUser.token, person.userId, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json(), JSON.stringify(payload)).toEqual({
        message,
        code: 'validation_error',
      });
    }
    expect(await ledgerOf(s.database.db, person.userId)).toEqual([]);
    expect(await creditsOf(s.database.db, person.userId)).toBe(0);

    // The limits themselves are accepted; binary fractions count as their two decimals.
    for (const amount of [10_000, 0.01, 0.1 + 0.2]) {
      const response = await s.api.grant(superUser.token, person.userId, {
        amount_rupees: amount,
        note: 'y'.repeat(200),
      });
      expect(response.statusCode, String(amount)).toBe(200);
    }
    expect(await creditsOf(s.database.db, person.userId)).toBe(1_000_000 + 1 + 30);
    const badPage = await ledgerApi(superUser.token, person.userId, { limit: '0' });
    expect(badPage.statusCode).toBe(400);
    expect((await ledgerApi(superUser.token, person.userId, { limit: '201' })).statusCode).toBe(
      400,
    );
  });

  it('adds up 20 concurrent grants exactly', async () => {
    const person = await visitor();
    const superUser = await signedInSuperUser(s.testApp);
    const admin = await signedInProductAdmin(s.app, s.database);
    const amounts = Array.from({ length: 20 }, (_, i) => i + 1 + (i % 4) * 0.25);
    const responses = await Promise.all(
      amounts.map((amount, i) =>
        s.api.grant(i % 2 === 0 ? superUser.token : admin.token, person.userId, {
          amount_rupees: amount,
          note: `grant ${i}`,
        }),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    const expected = amounts.reduce((sum, amount) => sum + Math.round(amount * 100), 0);
    expect(await creditsOf(s.database.db, person.userId)).toBe(expected);
    const ledger = await ledgerOf(s.database.db, person.userId);
    expect(ledger).toHaveLength(20);
    expect(ledger.every((row) => row.reason === 'grant')).toBe(true);
    // The largest balance any response reported is the final one.
    const reported = responses.map((r) => Math.round(r.json().credits_rupees * 100));
    expect(Math.max(...reported)).toBe(expected);
    expect(new Set(reported).size).toBe(20);
  });

  it('explains a balance entry by entry through the ledger call', async () => {
    const person = await visitor();
    const superUser = await signedInSuperUser(s.testApp);
    const admin = await signedInProductAdmin(s.app, s.database);
    await s.api.grant(admin.token, person.userId, { amount_rupees: 30, note: 'Welcome' });
    const declined = await checkedOut(person.token); // holds ₹30
    s.fake.order(declined.orderId).state = 'FAILED';
    await orderWebhook(declined.orderId); // gives it back
    await s.api.grant(superUser.token, person.userId, { amount_rupees: 25 }); // ₹55: covers ₹50
    expect((await capture(s.app, person.token, s.booth.id, s.templateId)).statusCode).toBe(200);
    const captureId = s.link.lastCapture(s.booth.thingName).capture_id;

    const [{ name: superName } = { name: '' }] = await s.database.db
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
      s.database.db
        .insert(creditLedger)
        .values({ userId: person.userId, deltaPaise: -100, reason: 'grant' }),
    ).rejects.toThrow();
    await expect(
      s.database.db
        .insert(creditLedger)
        .values({ userId: person.userId, deltaPaise: 100, reason: 'payment_hold' }),
    ).rejects.toThrow();
    expect(await ledgerOf(s.database.db, person.userId)).toEqual([]);
  });
});
