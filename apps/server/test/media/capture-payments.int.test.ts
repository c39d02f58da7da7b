import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { captures } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { eventually } from '../harness.js';
import { capture, createBooth } from '../media-fixtures.js';
import { useCaptureSuite } from './capture-suite.js';

describe.each(databaseTargets)('captures paid for on $name', ({ open }) => {
  const s = useCaptureSuite(open);
  const { visitor, creditsOf, ledgerOf, mediaOf, captureRow, completedPayment, paymentRow } = s;

  it('uses a completed payment before credit, and gives the payment back when the booth fails', async () => {
    const booth = await createBooth(s.database.db, s.link, { orgId: s.orgId, pricePaise: 4950 });
    const person = await visitor(10_000);
    const paymentId = await completedPayment(person.userId, booth.id, 4950);

    const first = await capture(s.app, person.token, booth.id, s.templateId);
    expect(first.statusCode, first.body).toBe(200);
    const captureId = s.link.lastCapture(booth.thingName).capture_id;
    expect(await paymentRow(paymentId)).toMatchObject({ consumedCaptureId: captureId });
    // Paid by the payment: the credit is untouched and the capture charged nothing.
    expect(await creditsOf(person.userId)).toBe(10_000);
    expect(await ledgerOf(person.userId)).toEqual([]);
    expect(await captureRow(captureId)).toMatchObject({ chargedPaise: 0 });

    // The booth fails with nothing delivered: the payment (not credit) is usable again.
    await s.link.report(booth.thingName, {
      report_id: randomUUID(),
      message: 'The camera did not answer.',
      capture_id: captureId,
      delivered_media_ids: [],
    });
    await eventually(
      () => paymentRow(paymentId),
      (row) => row.consumedCaptureId === null,
    );
    expect(await creditsOf(person.userId)).toBe(10_000);
    expect(await ledgerOf(person.userId)).toEqual([]);

    // The next capture takes the same payment again; the one after that falls back to credit.
    expect((await capture(s.app, person.token, booth.id, s.templateId)).statusCode).toBe(200);
    expect((await paymentRow(paymentId)).consumedCaptureId).toBe(
      s.link.lastCapture(booth.thingName).capture_id,
    );
    expect((await capture(s.app, person.token, booth.id, s.templateId)).statusCode).toBe(200);
    expect(await creditsOf(person.userId)).toBe(5050);
  });

  it('lets exactly one of 50 concurrent captures use one payment (no credit)', async () => {
    const booth = await createBooth(s.database.db, s.link, { orgId: s.orgId, pricePaise: 2000 });
    const person = await visitor();
    const paymentId = await completedPayment(person.userId, booth.id, 2000);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => capture(s.app, person.token, booth.id, s.templateId)),
    );
    const codes = responses.map((response) => response.statusCode).sort();
    expect(codes.filter((code) => code === 200)).toHaveLength(1);
    expect(codes.filter((code) => code === 409)).toHaveLength(49);
    const used = await paymentRow(paymentId);
    expect(used.consumedCaptureId).not.toBeNull();
    const started = await s.database.db
      .select()
      .from(captures)
      .where(eq(captures.userId, person.userId));
    expect(started).toHaveLength(1);
    expect(started[0]!.captureId).toBe(used.consumedCaptureId);
  });

  it('lets exactly one of 20 concurrent captures through on a credit covering one', async () => {
    const booth = await createBooth(s.database.db, s.link, { orgId: s.orgId, pricePaise: 2500 });
    const person = await visitor(2500);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => capture(s.app, person.token, booth.id, s.templateId)),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    expect(await creditsOf(person.userId)).toBe(0);
    expect(await ledgerOf(person.userId)).toHaveLength(1);
    expect(await mediaOf(person.userId)).toHaveLength(1);
  });
});
