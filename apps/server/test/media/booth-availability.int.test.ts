import { eq } from 'drizzle-orm';
import { BOOTH_AVAILABILITY_MESSAGES, MEDIA_MESSAGES } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { captures, devices, paymentTransactions } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { bearer } from '../harness.js';
import { capture, createBooth } from '../media-fixtures.js';
import { paymentsApi } from '../payments-fixtures.js';
import { useCaptureSuite } from './capture-suite.js';

/**
 * Issue 20 item 1: an offline or busy booth takes no money. Payments and captures are refused
 * before anything is held or charged; the capture screen can ask first; and a payment that
 * completed but was never used (the booth went offline) becomes credit, once.
 */
describe.each(databaseTargets)('booth availability and money on $name', ({ open }) => {
  const s = useCaptureSuite(open);
  const { visitor, creditsOf, ledgerOf, completedPayment, paymentRow } = s;
  const api = () => paymentsApi(s.app);
  const setStatus = (id: number, status: string) =>
    s.database.db.update(devices).set({ status }).where(eq(devices.id, id));
  const paymentsOf = (userId: number) =>
    s.database.db.select().from(paymentTransactions).where(eq(paymentTransactions.userId, userId));
  const capturesOf = (userId: number) =>
    s.database.db.select().from(captures).where(eq(captures.userId, userId));
  const entitlement = (token: string, deviceId: number) =>
    s.app.inject({
      method: 'GET',
      url: `/api/regular/devices/${deviceId}/entitlement`,
      query: { template_id: String(s.templateId) },
      headers: bearer(token),
    });

  it('refuses a payment at an offline, busy or updating booth before holding any credit', async () => {
    const cases = [
      ['offline', 'booth_offline', BOOTH_AVAILABILITY_MESSAGES.offline],
      ['', 'booth_offline', BOOTH_AVAILABILITY_MESSAGES.offline],
      ['ready', 'booth_busy', BOOTH_AVAILABILITY_MESSAGES.busy],
      ['processing', 'booth_busy', BOOTH_AVAILABILITY_MESSAGES.busy],
      ['updating', 'booth_updating', BOOTH_AVAILABILITY_MESSAGES.updating],
    ] as const;
    for (const [status, code, message] of cases) {
      const booth = await createBooth(s.database.db, s.link, {
        orgId: s.orgId,
        pricePaise: 4950,
        status,
      });
      // Some credit, so a payment would hold it: nothing may be held.
      const person = await visitor(1000);
      const response = await api().create(person.token, booth.id, s.templateId);
      expect(response.statusCode, `${status}: ${response.body}`).toBe(409);
      expect(response.json()).toEqual({ code, message });
      expect(await paymentsOf(person.userId)).toEqual([]);
      expect(await creditsOf(person.userId)).toBe(1000);
    }
  });

  it('refuses the checkout when the booth went offline after the payment was created', async () => {
    const booth = await createBooth(s.database.db, s.link, { orgId: s.orgId, pricePaise: 4950 });
    const person = await visitor();
    const created = await api().create(person.token, booth.id, s.templateId);
    expect(created.statusCode, created.body).toBe(200);
    await setStatus(booth.id, 'offline');
    const checkout = await api().checkout(person.token, created.json<{ txn_id: number }>().txn_id);
    expect(checkout.statusCode, checkout.body).toBe(409);
    expect(checkout.json()).toMatchObject({ code: 'booth_offline' });
    const [row] = await paymentsOf(person.userId);
    expect(row).toMatchObject({ state: 'PENDING', paymentUrl: null });
    // Back online: the same payment checks out.
    await setStatus(booth.id, 'idle');
    const again = await api().checkout(person.token, row!.id);
    expect(again.statusCode, again.body).toBe(200);
  });

  it('refuses a capture at an offline or busy booth without charging credit or using a payment', async () => {
    const booth = await createBooth(s.database.db, s.link, {
      orgId: s.orgId,
      pricePaise: 3000,
      status: 'offline',
    });
    const person = await visitor(3000);
    const paymentId = await completedPayment(person.userId, booth.id, 3000);
    // Recorded offline and silent when asked.
    s.link.behaviour.set(booth.thingName, 'silent');
    const offline = await capture(s.app, person.token, booth.id, s.templateId);
    expect(offline.statusCode, offline.body).toBe(409);
    expect(offline.json()).toMatchObject({ code: 'booth_offline' });
    // Recorded and still busy with another visitor's upload.
    s.link.behaviour.set(booth.thingName, 'accept');
    s.link.pingStatus.set(booth.thingName, 'uploading');
    await setStatus(booth.id, 'uploading');
    const busy = await capture(s.app, person.token, booth.id, s.templateId);
    expect(busy.json()).toMatchObject({ code: 'booth_busy' });
    expect(
      s.link.sent.filter(
        (sent) => sent.command === 'capture' && sent.thingName === booth.thingName,
      ),
    ).toEqual([]);
    expect(await capturesOf(person.userId)).toEqual([]);
    expect(await creditsOf(person.userId)).toBe(3000);
    expect(await ledgerOf(person.userId)).toEqual([]);
    expect(await paymentRow(paymentId)).toMatchObject({ consumedCaptureId: null });

    // A booth the broker knows is away is not asked: offline at once, whatever it was recorded.
    s.link.away.add(booth.thingName);
    const pingsBefore = s.link.sent.filter((sent) => sent.thingName === booth.thingName).length;
    const away = await capture(s.app, person.token, booth.id, s.templateId);
    expect(away.json()).toMatchObject({ code: 'booth_offline' });
    expect(s.link.sent.filter((sent) => sent.thingName === booth.thingName)).toHaveLength(
      pingsBefore,
    );
    s.link.away.delete(booth.thingName);

    // A recorded status that is out of date does not turn the visitor away: the booth is asked,
    // says idle, and the capture goes ahead on the payment.
    s.link.pingStatus.set(booth.thingName, 'idle');
    const ahead = await capture(s.app, person.token, booth.id, s.templateId);
    expect(ahead.statusCode, ahead.body).toBe(200);
    expect(await paymentRow(paymentId)).toMatchObject({
      consumedCaptureId: s.link.lastCapture(booth.thingName).capture_id,
    });
  });

  it('tells the capture screen what a capture would use before the press', async () => {
    const free = await createBooth(s.database.db, s.link, { orgId: s.orgId, pricePaise: 0 });
    const paid = await createBooth(s.database.db, s.link, { orgId: s.orgId, pricePaise: 2500 });
    const person = await visitor();

    expect((await entitlement(person.token, free.id)).json()).toEqual({
      entitlement: 'free',
      price_rupees: 0,
      credits_rupees: 0,
      availability: 'available',
    });
    // Nothing covers a paid booth: the screen offers payment instead of a Capture that fails.
    expect((await entitlement(person.token, paid.id)).json()).toEqual({
      entitlement: null,
      price_rupees: 25,
      credits_rupees: 0,
      availability: 'available',
    });
    const paymentId = await completedPayment(person.userId, paid.id, 2500);
    expect((await entitlement(person.token, paid.id)).json()).toMatchObject({
      entitlement: 'payment',
    });
    // Asking takes nothing.
    expect(await paymentRow(paymentId)).toMatchObject({ consumedCaptureId: null });
    expect((await capture(s.app, person.token, paid.id, s.templateId)).statusCode).toBe(200);
    // Used: pay again (the refusal the screen used to show as a breakdown).
    expect((await entitlement(person.token, paid.id)).json()).toMatchObject({ entitlement: null });
    const refused = await capture(s.app, person.token, paid.id, s.templateId);
    expect(refused.json()).toEqual({
      code: 'payment_required',
      message: MEDIA_MESSAGES.paymentRequired,
    });

    const rich = await visitor(2500);
    await setStatus(paid.id, 'offline');
    expect((await entitlement(rich.token, paid.id)).json()).toEqual({
      entitlement: 'credit',
      price_rupees: 25,
      credits_rupees: 25,
      availability: 'offline',
    });
    // Another visitor's booth question is answered for them alone; a bad template is a 404.
    const missing = await s.app.inject({
      method: 'GET',
      url: `/api/regular/devices/${paid.id}/entitlement`,
      query: { template_id: '999999' },
      headers: bearer(person.token),
    });
    expect(missing.statusCode).toBe(404);
  });

  it('turns a completed payment no capture used into credit once, and never a used one', async () => {
    const booth = await createBooth(s.database.db, s.link, { orgId: s.orgId, pricePaise: 4000 });
    const person = await visitor();
    const unused = await completedPayment(person.userId, booth.id, 4000);
    const used = await completedPayment(person.userId, booth.id, 4000);
    // The first capture takes the oldest payment and delivers; mark which one it took.
    expect((await capture(s.app, person.token, booth.id, s.templateId)).statusCode).toBe(200);
    const sent = s.link.lastCapture(booth.thingName);
    const delivered = await s.deliver(
      sent.uploads[0]!.upload_url,
      sent.uploads[0]!.media_id,
      booth.auth,
    );
    expect(delivered.statusCode, delivered.body).toBe(200);
    const taken = [await paymentRow(unused), await paymentRow(used)].find(
      (row) => row.consumedCaptureId !== null,
    )!;
    const left = taken.id === unused ? used : unused;

    // Not yet: the visitor may still be on the way to Capture.
    await s.app.payments.creditUnused();
    expect(await creditsOf(person.userId)).toBe(0);
    expect(await paymentRow(left)).toMatchObject({ state: 'COMPLETED', consumedCaptureId: null });

    s.testApp.clock.advance(16 * 60);
    // Two instances at once (other tests' unused payments are converted too): one credit row.
    await Promise.all([s.app.payments.creditUnused(), s.app.payments.creditUnused()]);
    expect(await creditsOf(person.userId)).toBe(4000);
    expect(await paymentRow(left)).toMatchObject({ state: 'REFUNDED' });
    expect(await paymentRow(taken.id)).toMatchObject({ state: 'COMPLETED' });
    expect((await ledgerOf(person.userId)).map((row) => [row.reason, row.deltaPaise])).toEqual([
      ['refund', 4000],
    ]);
    // The reconciler runs it too: this visitor has nothing left to convert.
    await s.app.payments.reconcile();
    expect(await creditsOf(person.userId)).toBe(4000);
    expect(await ledgerOf(person.userId)).toHaveLength(1);
  });
});
