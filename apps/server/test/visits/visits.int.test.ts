import type { Visit } from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { captures, media, paymentTransactions, templates } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { bearer, signedIn } from '../harness.js';
import { capture, createBooth, createTemplate } from '../media-fixtures.js';
import { transactionRow } from '../payments-fixtures.js';
import { useSandboxSuite } from '../payments/sandbox-suite.js';

/*
 * Issue 37: one server-side record of a visitor's visit at a booth. Each test walks a visit
 * through the transitions a phone's reload, second tab or second phone depends on, and checks the
 * one read (GET devices/{id}/visit) every visitor screen starts from.
 */
describe.each(databaseTargets)('visits on $name', ({ open }) => {
  const s = useSandboxSuite(open);

  const visitOf = async (token: string, deviceId = s.booth.id) => {
    const response = await s.app.inject({
      method: 'GET',
      url: `/api/regular/devices/${deviceId}/visit`,
      headers: bearer(token),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Visit>();
  };
  const pick = (token: string, templateId?: number, deviceId = s.booth.id) =>
    s.app.inject({
      method: 'POST',
      url: `/api/regular/devices/${deviceId}/visit`,
      headers: bearer(token),
      payload: templateId === undefined ? {} : { template_id: templateId },
    });
  const accepting = () => {
    s.link.behaviour.set(s.booth.thingName, 'accept');
  };
  const paid = async (token: string) => {
    const started = await s.startPayment(token);
    await s.act(started.paymentUrl, 'pay');
    await s.app.payments.provider.settled!();
    return started;
  };
  const uploadAll = (captureId: string) =>
    s.database.db.update(media).set({ isUploaded: true }).where(eq(media.captureId, captureId));

  it('starts empty, and remembers Yes, I’m Here and the template picked', async () => {
    const visitor = await signedIn(s.app, 'regular');
    expect(await visitOf(visitor.token)).toEqual({
      device_id: s.booth.id,
      template: null,
      location_confirmed: false,
      payment: null,
      capture: null,
      updated_at: null,
    });
    expect((await pick(visitor.token)).statusCode).toBe(200);
    expect(await visitOf(visitor.token)).toMatchObject({
      location_confirmed: true,
      template: null,
    });
    const picked = await pick(visitor.token, s.templateId);
    expect(picked.json<Visit>()).toMatchObject({
      location_confirmed: true,
      template: { id: s.templateId, name: 'Strips', capture_kind: 'photo' },
    });
    // Another visitor's visit at the same booth is their own.
    const other = await signedIn(s.app, 'regular');
    expect((await visitOf(other.token)).location_confirmed).toBe(false);
    // The location holds for an hour, then is asked again.
    s.clock.advance(61 * 60);
    const again = await signedIn(s.app, 'regular', visitor.phone);
    expect((await visitOf(again.token)).location_confirmed).toBe(false);
  });

  it('reuses the open checkout after a reload, moves it with a new pick and never asks twice', async () => {
    const visitor = await signedIn(s.app, 'regular');
    const first = await s.startPayment(visitor.token);
    const visit = await visitOf(visitor.token);
    expect(visit.payment).toMatchObject({
      txn_id: first.txnId,
      state: 'pending',
      amount_rupees: 49.5,
      payment_url: first.paymentUrl,
    });
    // A reload (or a second tab) picks the same template: the same payment and checkout.
    const again = await s.startPayment(visitor.token);
    expect(again).toEqual(first);
    // Another template while the checkout is open: still one payment, now for that template.
    const other = await createTemplate(s.database.db, { orgIds: [s.orgId] });
    const moved = await pick(visitor.token, other);
    expect(moved.json<Visit>()).toMatchObject({
      template: { id: other },
      payment: { txn_id: first.txnId, state: 'pending' },
    });
    expect((await transactionRow(s.database.db, first.txnId)).templateId).toBe(other);
    const reused = await s.api.create(visitor.token, s.booth.id, s.templateId);
    expect(reused.json()).toEqual({ txn_id: first.txnId });
    const rows = await s.database.db
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.userId, visitor.userId));
    expect(rows).toHaveLength(1);

    // Paid: the visit says so, another payment is refused, and the status names the template.
    await s.act(first.paymentUrl, 'pay');
    await s.app.payments.provider.settled!();
    expect((await visitOf(visitor.token)).payment).toMatchObject({
      txn_id: first.txnId,
      state: 'paid',
      payment_url: null,
    });
    const second = await s.api.create(visitor.token, s.booth.id, s.templateId);
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('already_paid');
    expect((await s.api.status(visitor.token, first.txnId)).json()).toEqual({
      state: 'COMPLETED',
      reason: null,
      device_id: s.booth.id,
      template_id: s.templateId,
    });
  });

  it('follows a paid capture from the request to delivery, and a second tab starts none', async () => {
    accepting();
    const visitor = await signedIn(s.app, 'regular');
    const { txnId } = await paid(visitor.token);
    // Two tabs press Capture on one payment at the same moment: one capture.
    const [a, b] = await Promise.all([
      capture(s.app, visitor.token, s.booth.id, s.templateId),
      capture(s.app, visitor.token, s.booth.id, s.templateId),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const refused = a.statusCode === 409 ? a : b;
    expect(['capture_in_progress', 'payment_required']).toContain(refused.json().code);
    const started = await s.database.db
      .select()
      .from(captures)
      .where(eq(captures.userId, visitor.userId));
    expect(started).toHaveLength(1);
    const captureId = started[0]!.captureId;
    expect(started[0]).toMatchObject({ captureKind: 'photo', totalCaptures: 3, recordSeconds: 0 });

    // A reload during the countdown: the capture, its items and how long ago it started.
    const counting = await visitOf(visitor.token);
    expect(counting.payment).toMatchObject({ txn_id: txnId, state: 'used' });
    expect(counting.capture).toMatchObject({
      capture_id: captureId,
      state: 'counting_down',
      capture_kind: 'photo',
      total_captures: 3,
      uploaded_count: 0,
      credit_used_rupees: 0,
    });
    expect(counting.capture!.media_ids).toHaveLength(1);
    expect(counting.capture!.since_accepted_ms).toBeGreaterThanOrEqual(0);
    expect(counting.capture!.since_accepted_ms).toBeLessThan(5000);
    // A pick of another template while it runs is refused; the same one changes nothing.
    const other = await createTemplate(s.database.db, { orgIds: [s.orgId] });
    const busy = await pick(visitor.token, other);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().code).toBe('capture_in_progress');
    expect((await pick(visitor.token, s.templateId)).json<Visit>().capture?.capture_id).toBe(
      captureId,
    );

    // After the three countdowns: processing, then delivered once every item arrived.
    s.clock.advance(31);
    const fresh = await signedIn(s.app, 'regular', visitor.phone);
    expect((await visitOf(fresh.token)).capture?.state).toBe('processing');
    await uploadAll(captureId);
    const done = await visitOf(fresh.token);
    expect(done.capture).toMatchObject({ state: 'delivered', uploaded_count: 1 });
    // A pick after delivery starts a new round: no capture, no payment (the old one is used).
    const next = await pick(fresh.token, s.templateId);
    expect(next.json<Visit>()).toMatchObject({ capture: null, payment: null });
  });

  it('follows a motion capture through its countdown, recording and processing', async () => {
    accepting();
    const free = await createBooth(s.database.db, s.link, {
      orgId: s.orgId,
      pricePaise: 0,
      behaviour: 'accept',
    });
    const boomerang = await createTemplate(s.database.db, { orgIds: [s.orgId], slots: 0 });
    await s.database.db
      .update(templates)
      .set({ captureKind: 'boomerang', motionPrints: false })
      .where(eq(templates.id, boomerang));
    const visitor = await signedIn(s.app, 'regular');
    const started = await capture(s.app, visitor.token, free.id, boomerang);
    expect(started.statusCode, started.body).toBe(200);
    const stage = async () => (await visitOf(visitor.token, free.id)).capture;
    expect(await stage()).toMatchObject({
      state: 'counting_down',
      capture_kind: 'boomerang',
      total_captures: 1,
    });
    const recordSeconds = (await stage())!.record_seconds;
    expect(recordSeconds).toBeGreaterThan(0);
    s.clock.advance(10.5);
    expect((await stage())!.state).toBe('taking_photos');
    s.clock.advance(recordSeconds);
    expect((await stage())!.state).toBe('processing');
  });

  it('ends a cancelled payment as cancelled and keeps the visitor at the booth', async () => {
    const visitor = await signedIn(s.app, 'regular');
    await pick(visitor.token, s.templateId);
    const started = await s.startPayment(visitor.token);
    await s.act(started.paymentUrl, 'cancel');
    await s.app.payments.provider.settled!();
    const visit = await visitOf(visitor.token);
    expect(visit).toMatchObject({
      location_confirmed: true,
      payment: { txn_id: started.txnId, state: 'cancelled' },
    });
    // A failed payment reads as failed; both leave the location confirmed.
    const failed = await s.startPayment(visitor.token);
    expect(failed.txnId).not.toBe(started.txnId);
    await s.act(failed.paymentUrl, 'fail');
    await s.app.payments.provider.settled!();
    expect(await visitOf(visitor.token)).toMatchObject({
      location_confirmed: true,
      payment: { txn_id: failed.txnId, state: 'failed' },
    });
  });

  it('turns an unused payment into credit with an SMS, and lists every use of credit', async () => {
    accepting();
    const visitor = await signedIn(s.app, 'regular');
    const { txnId } = await paid(visitor.token);
    s.clock.advance(16 * 60);
    await s.app.payments.reconcile();
    const fresh = await signedIn(s.app, 'regular', visitor.phone);
    expect((await visitOf(fresh.token)).payment).toMatchObject({
      txn_id: txnId,
      state: 'credited',
    });
    const sms = await s.app.inject({
      method: 'GET',
      url: `/api/dev/sms?phone=${encodeURIComponent(visitor.phone)}`,
    });
    const texts = sms.json<{ items: { text: string }[] }>().items.map((item) => item.text);
    expect(texts.some((text) => /Rs 49\.50 .*added to your Flashbooth credit/.test(text))).toBe(
      true,
    );

    // The credit pays the next capture: a line of its own in My Transactions.
    const used = await capture(s.app, fresh.token, s.booth.id, s.templateId);
    expect(used.statusCode, used.body).toBe(200);
    expect((await visitOf(fresh.token)).capture?.credit_used_rupees).toBe(49.5);
    const list = (await s.api.list(fresh.token)).json<{
      items: Record<string, unknown>[];
      total_count: number;
    }>();
    expect(list.total_count).toBe(2);
    expect(list.items[0]).toMatchObject({
      kind: 'credit',
      state: 'CREDIT_USED',
      amount_rupees: 49.5,
      phonepe_order_id: null,
      org_name: 'Sunrise Mall',
      device_name: 'Atrium Booth',
      template_name: 'Strips',
    });
    expect(list.items[1]).toMatchObject({
      kind: 'payment',
      id: txnId,
      state: 'REFUNDED',
      refund_to: 'credit',
    });
    // Searching finds the credit line by its booth, and pages by cursor across both kinds.
    const firstPage = (await s.api.list(fresh.token, { limit: '1' })).json<{
      items: { kind: string }[];
      next_cursor: string | null;
    }>();
    expect(firstPage.items.map((item) => item.kind)).toEqual(['credit']);
    const secondPage = (
      await s.api.list(fresh.token, { limit: '1', cursor: firstPage.next_cursor! })
    ).json<{ items: { kind: string; id: number }[] }>();
    expect(secondPage.items).toEqual([expect.objectContaining({ kind: 'payment', id: txnId })]);
  });

  it('answers only a signed-in visitor, about a booth that exists', async () => {
    const staff = await signedIn(s.app, 'enterprise');
    const refused = await s.app.inject({
      method: 'GET',
      url: `/api/regular/devices/${s.booth.id}/visit`,
      headers: bearer(staff.token),
    });
    expect(refused.statusCode).toBe(401);
    const anonymous = await s.app.inject({
      method: 'POST',
      url: `/api/regular/devices/${s.booth.id}/visit`,
      payload: {},
    });
    expect(anonymous.statusCode).toBe(401);
    const visitor = await signedIn(s.app, 'regular');
    const missing = await s.app.inject({
      method: 'GET',
      url: '/api/regular/devices/999999/visit',
      headers: bearer(visitor.token),
    });
    expect(missing.statusCode).toBe(404);
    const badTemplate = await pick(visitor.token, 999_999);
    expect(badTemplate.statusCode).toBe(404);
    const notOffered = await createTemplate(s.database.db, { orgIds: [] });
    expect((await pick(visitor.token, notOffered)).statusCode).toBe(400);
  });
});
