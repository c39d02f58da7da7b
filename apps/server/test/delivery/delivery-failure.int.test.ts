import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  deliveryFailures,
  paymentRefunds,
  sandboxOrders,
  sandboxRefunds,
  smsOutbox,
} from '../../src/db/schema.js';
import { runJobsCommand } from '../../src/jobs-cli.js';
import { databaseTargets } from '../databases.js';
import { bearer, eventually, startApp, type TestApp } from '../harness.js';
import { capture, createBooth, ScriptedLink } from '../media-fixtures.js';
import { SWEEP_ENV, useCaptureSuite } from '../media/capture-suite.js';

/**
 * The delivery promise kept by machine: a capture the booth took whose items do not all arrive
 * by the deadline (the countdown's end here: DELIVERY_DEADLINE_MINUTES=0 in SWEEP_ENV) is
 * refunded once, the visitor told once, whatever instances run the job and however often.
 */
describe.each(databaseTargets)('delivery failures on $name', ({ open }) => {
  const s = useCaptureSuite(open);

  const smsTo = (phone: string) =>
    s.database.db
      .select()
      .from(smsOutbox)
      .where(eq(smsOutbox.phone, phone))
      .orderBy(asc(smsOutbox.id));
  const failureOf = async (captureId: string) =>
    (
      await s.database.db
        .select()
        .from(deliveryFailures)
        .where(eq(deliveryFailures.captureId, captureId))
    )[0];
  const transactions = async (token: string) =>
    (
      await s.app.inject({
        method: 'GET',
        url: '/api/regular/transactions',
        headers: bearer(token),
      })
    ).json<{ items: { id: number; state: string; delivery_failure?: unknown }[] }>();

  /** A paid capture through the sandbox: the order exists there, COMPLETED, as after checkout. */
  async function paidCapture(pricePaise: number) {
    const booth = await createBooth(s.database.db, s.link, { orgId: s.orgId, pricePaise });
    const person = await s.visitor(0);
    const paymentId = await s.completedPayment(person.userId, booth.id, pricePaise);
    const payment = await s.paymentRow(paymentId);
    await s.database.db.insert(sandboxOrders).values({
      orderId: payment.orderId,
      providerOrderId: `SBO${randomUUID().slice(0, 8)}`,
      amountPaise: pricePaise,
      state: 'COMPLETED',
      redirectUrl: 'http://localhost/transactions',
      description: 'Flashbooth photo',
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const response = await capture(s.app, person.token, booth.id, s.templateId);
    expect(response.statusCode, response.body).toBe(200);
    const sent = s.link.lastCapture(booth.thingName);
    return {
      booth,
      person,
      paymentId,
      orderId: payment.orderId,
      captureId: sent.capture_id,
      mediaId: sent.uploads[0]!.media_id,
      uploadUrl: sent.uploads[0]!.upload_url,
    };
  }

  /** Moves both instances' clocks and runs the delivery job on both at once, several times. */
  async function runEverywhere(instances: TestApp[], seconds: number) {
    for (const instance of instances) instance.clock.advance(seconds);
    for (let round = 0; round < 3; round += 1) {
      await Promise.all(
        instances.flatMap((instance) => [
          instance.app.jobs.runNow('delivery-deadline'),
          instance.app.jobs.runNow('delivery-deadline'),
        ]),
      );
    }
  }

  it('refunds a paid capture undelivered by its deadline once, through the provider, and tells the visitor once', async () => {
    const paid = await paidCapture(4950);
    const second = await startApp(s.database, SWEEP_ENV, { deviceLink: new ScriptedLink() });
    try {
      // Before the deadline (30 s after acceptance) nothing happens.
      await runEverywhere([s.testApp, second], 20);
      expect(await failureOf(paid.captureId)).toBeUndefined();
      expect((await s.paymentRow(paid.paymentId)).state).toBe('COMPLETED');

      await runEverywhere([s.testApp, second], 15);
      await eventually(
        () => s.paymentRow(paid.paymentId),
        (row) => row.state === 'REFUNDED',
      );
      await runEverywhere([s.testApp, second], 60);
    } finally {
      await second.app.close();
    }

    // One refund to the payment method, at the provider and in our records.
    const refunds = await s.database.db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.transactionId, paid.paymentId));
    expect(refunds).toEqual([
      expect.objectContaining({
        destination: 'source',
        merchantRefundId: `DF-${paid.captureId}`,
        amountPaise: 4950,
        state: 'COMPLETED',
        requestedBy: null,
      }),
    ]);
    const atProvider = await s.database.db
      .select()
      .from(sandboxRefunds)
      .where(eq(sandboxRefunds.orderId, paid.orderId));
    expect(atProvider).toHaveLength(1);
    // No credit instead: the money went back to the payment method.
    expect(await s.refundsOf(paid.person.userId)).toEqual([]);

    // Recorded once, with its SMS sent once, saying what happened.
    expect(await failureOf(paid.captureId)).toMatchObject({
      refund: 'payment',
      refundPaise: 4950,
      itemsPromised: 1,
      itemsDelivered: 0,
      refundSentAt: expect.any(Date),
      smsSentAt: expect.any(Date),
    });
    const sms = await smsTo(paid.person.phone);
    const notices = sms.filter((row) => row.text.includes('did not reach us'));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toContain('We have refunded ₹49.50 to your payment method');
    expect(notices[0]!.text).toContain('they will still appear in My Media');

    // The booth's error log says it once; the capture is a delivery failure.
    const log = await s.errorLogOf(paid.booth.id);
    expect(log.map((row) => row.errorMessage)).toEqual([
      expect.stringMatching(
        new RegExp(`^Capture ${paid.captureId}: delivery failure, 1 of 1 item not delivered`),
      ),
    ]);
    expect(await s.captureRow(paid.captureId)).toMatchObject({
      state: 'failed',
      failureReason: 'delivery failure',
    });

    // The transaction carries the notice.
    const listed = (await transactions(paid.person.token)).items.find(
      (item) => item.id === paid.paymentId,
    );
    expect(listed).toMatchObject({
      state: 'REFUNDED',
      delivery_failure: {
        refund_to: 'payment',
        refund_rupees: 49.5,
        refund_pending: false,
        items_promised: 1,
        items_delivered: 0,
        items_arrived: 0,
        deadline_minutes: 0,
      },
    });

    // The photo arrives late: it is in My Media, the refund stands, nothing is refunded again.
    const late = await s.deliver(paid.uploadUrl, paid.mediaId, paid.booth.auth);
    expect(late.statusCode, late.body).toBe(200);
    expect((await s.myMedia(paid.person.token)).items).toEqual([
      expect.objectContaining({ id: paid.mediaId, is_uploaded: true }),
    ]);
    await runEverywhere([s.testApp], 60);
    expect((await s.paymentRow(paid.paymentId)).state).toBe('REFUNDED');
    expect(
      await s.database.db
        .select()
        .from(paymentRefunds)
        .where(eq(paymentRefunds.transactionId, paid.paymentId)),
    ).toHaveLength(1);
    expect(
      (await smsTo(paid.person.phone)).filter((row) => row.text.includes('did not reach us')),
    ).toHaveLength(1);
    const after = (await transactions(paid.person.token)).items.find(
      (item) => item.id === paid.paymentId,
    );
    expect(after?.delivery_failure).toMatchObject({ items_delivered: 0, items_arrived: 1 });
  });

  it('gives a credit capture its credit back once and tells the visitor once', async () => {
    const { person, captureId, booth } = await s.acceptedCapture(2000);
    expect(await s.creditsOf(person.userId)).toBe(0);
    const second = await startApp(s.database, SWEEP_ENV, { deviceLink: new ScriptedLink() });
    try {
      await runEverywhere([s.testApp, second], 35);
      await runEverywhere([s.testApp, second], 35);
    } finally {
      await second.app.close();
    }
    expect(await s.creditsOf(person.userId)).toBe(2000);
    expect((await s.refundsOf(person.userId)).map((row) => row.deltaPaise)).toEqual([2000]);
    expect(await failureOf(captureId)).toMatchObject({ refund: 'credit', refundPaise: 2000 });
    const notices = (await smsTo(person.phone)).filter((row) =>
      row.text.includes('did not reach us'),
    );
    expect(notices.map((row) => row.text)).toEqual([
      expect.stringContaining('₹20.00 is back in your Flashbooth credit.'),
    ]);
    expect(await s.errorLogOf(booth.id)).toHaveLength(1);
  });

  it('turns a refund the payment method refuses into credit, once', async () => {
    const paid = await paidCapture(3000);
    // The provider no longer knows the order as paid: it refuses the refund.
    await s.database.db
      .update(sandboxOrders)
      .set({ state: 'FAILED' })
      .where(eq(sandboxOrders.orderId, paid.orderId));
    await runEverywhere([s.testApp], 35);
    await runEverywhere([s.testApp], 35);
    expect((await s.paymentRow(paid.paymentId)).state).toBe('REFUNDED');
    expect(await s.creditsOf(paid.person.userId)).toBe(3000);
    expect(await failureOf(paid.captureId)).toMatchObject({ refund: 'credit' });
    const refunds = await s.database.db
      .select()
      .from(paymentRefunds)
      .where(
        and(
          eq(paymentRefunds.transactionId, paid.paymentId),
          eq(paymentRefunds.state, 'COMPLETED'),
        ),
      );
    expect(refunds.map((row) => row.destination)).toEqual(['credit']);
    const notices = (await smsTo(paid.person.phone)).filter((row) =>
      row.text.includes('did not reach us'),
    );
    expect(notices.map((row) => row.text)).toEqual([
      expect.stringContaining('₹30.00 is back in your Flashbooth credit.'),
    ]);
  });

  it('marks a capture whose every item arrived in time delivered, with nothing refunded', async () => {
    const { person, captureId, booth, mediaId, uploadUrl } = await s.acceptedCapture(1500);
    const delivered = await s.deliver(uploadUrl, mediaId, booth.auth);
    expect(delivered.statusCode, delivered.body).toBe(200);
    await runEverywhere([s.testApp], 35);
    expect((await s.captureRow(captureId))?.state).toBe('delivered');
    expect(await failureOf(captureId)).toBeUndefined();
    expect(await s.creditsOf(person.userId)).toBe(0);
  });

  it('prints the plan with --dry-run and changes nothing', async () => {
    const paid = await paidCapture(2500);
    // The command's own clock is past the deadline; the running app's is not (its timers keep
    // sweeping and must not close the capture first).
    const later = () => new Date(s.testApp.clock.now().getTime() + 35_000);
    const out: string[] = [];
    const err: string[] = [];
    const status = await runJobsCommand(
      ['delivery-deadline', '--dry-run'],
      { out: (line) => out.push(line), err: (line) => err.push(line) },
      {
        config: s.testApp.config,
        deps: { database: s.database, now: later, logger: false, deviceLink: new ScriptedLink() },
      },
    );
    expect(err).toEqual([]);
    expect(status).toBe(0);
    expect(out[0], out.join('\n')).toBe('delivery-deadline (dry run: nothing was changed)');
    expect(out).toContain(
      `  capture ${paid.captureId}: 0 of 1 items arrived; delivery failure: would be refunded and the visitor told`,
    );
    expect(out.some((line) => /^ {2}deliveryFailures: [1-9]/.test(line))).toBe(true);
    // Nothing changed: the capture is open, the payment paid, no refund, no SMS.
    expect((await s.captureRow(paid.captureId))?.state).toBe('accepted');
    expect((await s.paymentRow(paid.paymentId)).state).toBe('COMPLETED');
    expect(await failureOf(paid.captureId)).toBeUndefined();
    expect(
      (await smsTo(paid.person.phone)).filter((row) => row.text.includes('did not reach us')),
    ).toEqual([]);

    // Unknown names and options are refused with the list of jobs.
    const unknown: string[] = [];
    expect(
      await runJobsCommand(
        ['no-such-job'],
        { out: () => undefined, err: (line) => unknown.push(line) },
        {
          config: s.testApp.config,
          deps: { database: s.database, logger: false, deviceLink: new ScriptedLink() },
        },
      ),
    ).toBe(2);
    expect(unknown[0]).toBe('No job is named "no-such-job". The jobs are:');
    expect(unknown).toContain('  delivery-deadline');
  });
});
