import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { paymentTransactions } from '../../src/db/schema.js';
import { consumePaidEntitlement } from '../../src/modules/payments/entitlement.js';
import { databaseTargets } from '../databases.js';
import { signedIn } from '../harness.js';
import { createBooth, createOrganization, createTemplate } from '../media-fixtures.js';
import { transactionRow } from '../payments-fixtures.js';
import { useSandboxSuite } from './sandbox-suite.js';

describe.each(databaseTargets)(
  'sandbox payments: who may pay and see transactions on $name',
  ({ open }) => {
    const s = useSandboxSuite(open);
    const { startPayment, act } = s;

    it('lets only the owner check out, see the status and list a transaction', async () => {
      const owner = await signedIn(s.app, 'regular');
      const other = await signedIn(s.app, 'regular');
      const { txnId } = await startPayment(owner.token);
      for (const response of [
        await s.api.checkout(other.token, txnId),
        await s.api.status(other.token, txnId),
      ]) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ message: 'Transaction not found.', code: 'not_found' });
      }
      expect((await s.api.list(other.token)).json()).toEqual({
        items: [],
        total_count: 0,
        next_cursor: null,
      });
      expect((await s.api.list(owner.token)).json().items.map((t: { id: number }) => t.id)).toEqual(
        [txnId],
      );
      // Staff tokens and anonymous callers are refused by the visitor API.
      const staff = await signedIn(s.app, 'enterprise');
      expect((await s.api.status(staff.token, txnId)).statusCode).toBe(401);
      expect(
        (await s.app.inject({ method: 'GET', url: `/api/regular/payments/${txnId}/status` }))
          .statusCode,
      ).toBe(401);
      expect((await s.api.create(staff.token, s.booth.id, s.templateId)).statusCode).toBe(401);
      // A capture entitlement is the owner's alone.
      await act(
        `/api/sandbox/checkout/${(await transactionRow(s.database.db, txnId)).orderId}`,
        'pay',
      );
      await s.app.payments.provider.settled!();
      const claim = { deviceId: s.booth.id, templateId: s.templateId, captureId: randomUUID() };
      expect(
        await consumePaidEntitlement(s.database.db, { ...claim, userId: other.userId }),
      ).toBeNull();
      expect(
        await consumePaidEntitlement(s.database.db, { ...claim, userId: owner.userId }),
      ).not.toBeNull();
    });

    it('refuses payments for free, unknown or unlinked booths and templates not offered there', async () => {
      const visitor = await signedIn(s.app, 'regular');
      const free = await createBooth(s.database.db, s.link, { orgId: s.orgId, pricePaise: 0 });
      const unlinked = await createBooth(s.database.db, s.link, { orgId: null, pricePaise: 100 });
      const otherOrg = await createOrganization(s.database.db, 'Harbour Café');
      const elsewhere = await createTemplate(s.database.db, { orgIds: [otherOrg] });
      const empty = await createTemplate(s.database.db, { orgIds: [s.orgId], slots: 0 });
      const cases: [number, number, number, string][] = [
        [free.id, s.templateId, 409, 'This photobooth is free: no payment is needed.'],
        [unlinked.id, s.templateId, 404, 'Device not found.'],
        [999_999, s.templateId, 404, 'Device not found.'],
        [s.booth.id, 999_999, 404, 'Template not found.'],
        [s.booth.id, elsewhere, 400, 'This template is not available at this photobooth.'],
        [s.booth.id, empty, 400, 'This template has no photo slots yet. Please pick another one.'],
      ];
      for (const [deviceId, template, status, message] of cases) {
        const response = await s.api.create(visitor.token, deviceId, template);
        expect(response.statusCode, message).toBe(status);
        expect(response.json().message).toBe(message);
      }
      const invalid = await s.app.inject({
        method: 'POST',
        url: '/api/regular/payments/create',
        headers: { authorization: `Bearer ${visitor.token}` },
        payload: { device_id: 'x', template_id: s.templateId },
      });
      expect(invalid.statusCode).toBe(400);
      expect((await s.api.list(visitor.token)).json().total_count).toBe(0);
    });

    it('lists transactions newest first with paging and search by order id, venue and booth', async () => {
      const visitor = await signedIn(s.app, 'regular');
      const harbour = await createOrganization(s.database.db, 'Harbour Café');
      const harbourTemplate = await createTemplate(s.database.db, { orgIds: [harbour] });
      const pier = await createBooth(s.database.db, s.link, {
        orgId: harbour,
        pricePaise: 12_000,
        name: 'Pier Booth',
      });
      const ids: number[] = [];
      for (let i = 0; i < 12; i += 1) {
        const atPier = i % 3 === 0;
        const response = await s.api.create(
          visitor.token,
          atPier ? pier.id : s.booth.id,
          atPier ? harbourTemplate : s.templateId,
        );
        const txnId = response.json<{ txn_id: number }>().txn_id;
        ids.push(txnId);
        // Its checkout ends now, so the next pick at this booth opens a new payment (an open
        // one is reused: apps/server/test/visits).
        await s.database.db
          .update(paymentTransactions)
          .set({ expiresAt: s.clock.now() })
          .where(eq(paymentTransactions.id, txnId));
        s.clock.advance(1);
      }
      const newestFirst = [...ids].reverse();

      const firstPage = (await s.api.list(visitor.token)).json();
      expect(firstPage.total_count).toBe(12);
      expect(firstPage.items.map((t: { id: number }) => t.id)).toEqual(newestFirst.slice(0, 10));
      // ids[9] was made at the pier booth.
      const item = firstPage.items.find((t: { id: number }) => t.id === ids[9]);
      const order = (await transactionRow(s.database.db, ids[9]!)).orderId;
      expect(item).toEqual({
        id: ids[9],
        kind: 'payment',
        failure_reason: null,
        refund_to: null,
        template_name: expect.any(String),
        phonepe_order_id: order,
        amount_rupees: 120,
        credit_rupees: 0,
        state: 'PENDING',
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
        org_name: 'Harbour Café',
        device_name: 'Pier Booth',
        delivery_failure: null,
      });
      const secondPage = (await s.api.list(visitor.token, { limit: '10', offset: '10' })).json();
      expect(secondPage.items.map((t: { id: number }) => t.id)).toEqual(newestFirst.slice(10));
      expect(secondPage.total_count).toBe(12);

      const byOrder = (
        await s.api.list(visitor.token, { search: order.slice(-8).toLowerCase() })
      ).json();
      expect(byOrder.items.map((t: { id: number }) => t.id)).toEqual([ids[9]]);
      expect(byOrder.total_count).toBe(1);
      const byVenue = (await s.api.list(visitor.token, { search: 'harbour' })).json();
      expect(byVenue.total_count).toBe(4);
      expect(byVenue.items.every((t: { org_name: string }) => t.org_name === 'Harbour Café')).toBe(
        true,
      );
      const byBooth = (await s.api.list(visitor.token, { search: 'Atrium', limit: '3' })).json();
      expect(byBooth.total_count).toBe(8);
      expect(byBooth.items).toHaveLength(3);
      // Pattern characters are taken literally.
      expect((await s.api.list(visitor.token, { search: '%' })).json().total_count).toBe(0);
    });
  },
);
