import { randomUUID } from 'node:crypto';
import { MEDIA_MESSAGES } from '@flashbooth/contracts';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/client.js';
import {
  captures,
  creditLedger,
  deviceErrors,
  media,
  paymentTransactions,
  users,
} from '../src/db/schema.js';
import { CapturesRepository } from '../src/modules/media/captures.repository.js';
import { databaseTargets } from './databases.js';
import { bearer, eventually, signedIn, startApp, type TestApp } from './harness.js';
import {
  capture,
  createBooth,
  createOrganization,
  createTemplate,
  makeJpeg,
  ScriptedLink,
} from './media-fixtures.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** 3 photos × 10 s, no margin: a capture is due 30 s after its booth accepted it. */
const SWEEP_ENV = { CAPTURE_DELIVERY_MARGIN_SECONDS: '0', CAPTURE_SWEEP_INTERVAL_MS: '40' };

describe.each(databaseTargets)('capture on $name', ({ open }) => {
  let database: DatabaseHandle;
  let testApp: TestApp;
  let app: FastifyInstance;
  const link = new ScriptedLink();
  let orgId: number;
  let otherOrgId: number;
  let templateId: number;

  beforeAll(async () => {
    database = await open();
    testApp = await startApp(
      database,
      { OTP_SEND_LIMIT_PER_IP: '1000', DEVICE_COMMAND_TIMEOUT_MS: '200', ...SWEEP_ENV },
      { deviceLink: link },
    );
    app = testApp.app;
    orgId = await createOrganization(database.db, 'Sunrise Mall');
    otherOrgId = await createOrganization(database.db, 'Harbour Café');
    templateId = await createTemplate(database.db, {
      orgIds: [orgId],
      slots: 3,
      foregroundKey: 'templates/foregrounds/1/0b7e8d2c-7c3e-4a57-9a43-0d5f2c1f1e11.png',
    });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const visitor = async (creditsPaise = 0) => {
    const person = await signedIn(app, 'regular');
    if (creditsPaise > 0) {
      await database.db.update(users).set({ creditsPaise }).where(eq(users.id, person.userId));
    }
    return person;
  };
  const creditsOf = async (userId: number) =>
    (await database.db.select().from(users).where(eq(users.id, userId)))[0]!.creditsPaise;
  const ledgerOf = (userId: number) =>
    database.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.userId, userId))
      .orderBy(asc(creditLedger.id));
  const mediaOf = (userId: number) =>
    database.db.select().from(media).where(eq(media.userId, userId)).orderBy(asc(media.id));
  const captureRow = async (captureId: string) =>
    (await database.db.select().from(captures).where(eq(captures.captureId, captureId)))[0];
  /** What My Media shows the visitor. */
  const myMedia = async (token: string) =>
    (await app.inject({ method: 'GET', url: '/api/regular/media', headers: bearer(token) })).json<{
      items: { id: number; is_uploaded: boolean }[];
      total_count: number;
    }>();
  const errorLogOf = (deviceId: number) =>
    database.db
      .select()
      .from(deviceErrors)
      .where(eq(deviceErrors.deviceId, deviceId))
      .orderBy(asc(deviceErrors.id));

  it('captures for free at a free booth and sends the booth the whole command', async () => {
    const booth = await createBooth(database.db, link, { orgId });
    const person = await visitor();
    const response = await capture(app, person.token, booth.id, templateId);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ media_ids: number[]; total_captures: number }>();
    expect(body.total_captures).toBe(3);
    expect(body.media_ids).toHaveLength(1);

    const [row] = await mediaOf(person.userId);
    expect(row).toMatchObject({
      id: body.media_ids[0],
      deviceId: booth.id,
      orgId,
      templateId,
      mediaType: 'image',
      orientation: 'portrait',
      isUploaded: false,
      isPublic: false,
      isRepostAllowed: true,
      lowresKey: null,
    });
    expect(row!.s3Key).toMatch(new RegExp(`^media/${person.userId}/[0-9a-f-]{36}\\.jpg$`));
    expect(row!.captureId).toMatch(UUID);

    const sent = link.lastCapture(booth.thingName);
    expect(sent.capture_id).toBe(row!.captureId);
    expect(sent.total_captures).toBe(3);
    expect(sent.template).toMatchObject({
      id: templateId,
      name: 'Strips',
      orientation: 'portrait',
      is_cut: true,
      is_duplicated: false,
    });
    expect(sent.template.images).toHaveLength(3);
    expect(sent.template.images[0]).toEqual({ x: 61, y: 555, w: 1080, h: 720, filter: 'bw' });
    expect(sent.template.foreground_url).toContain('templates/foregrounds/1/');
    expect(sent.uploads).toEqual([
      {
        media_id: row!.id,
        upload_url: expect.stringContaining(row!.s3Key),
        content_type: 'image/jpeg',
      },
    ]);
    // Free: no charge, no ledger row.
    expect(await ledgerOf(person.userId)).toEqual([]);
    expect(await creditsOf(person.userId)).toBe(0);
    // The session: accepted, due 3 × 10 s after acceptance (no margin in this suite).
    const session = await captureRow(row!.captureId);
    expect(session).toMatchObject({
      userId: person.userId,
      deviceId: booth.id,
      templateId,
      chargedPaise: 0,
      state: 'accepted',
      finishedAt: null,
    });
    expect(session!.deadlineAt.getTime() - session!.acceptedAt!.getTime()).toBe(30_000);
    // Not yet delivered, still expected: My Media shows it as not uploaded.
    expect((await myMedia(person.token)).items).toEqual([
      expect.objectContaining({ id: row!.id, is_uploaded: false }),
    ]);
  });

  it('takes half the photos for a duplicated template', async () => {
    const booth = await createBooth(database.db, link, { orgId });
    const duplicated = await createTemplate(database.db, {
      orgIds: [orgId],
      slots: 6,
      isDuplicated: true,
    });
    const response = await capture(app, (await visitor()).token, booth.id, duplicated);
    expect(response.json().total_captures).toBe(3);
    expect(link.lastCapture(booth.thingName).template.foreground_url).toBeNull();
  });

  it('deducts a covering credit and writes the ledger in the same transaction', async () => {
    const booth = await createBooth(database.db, link, { orgId, pricePaise: 4950 });
    const person = await visitor(10_000);
    const response = await capture(app, person.token, booth.id, templateId);
    expect(response.statusCode, response.body).toBe(200);
    expect(await creditsOf(person.userId)).toBe(5050);
    const ledger = await ledgerOf(person.userId);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      deltaPaise: -4950,
      reason: 'capture',
      mediaCaptureId: link.lastCapture(booth.thingName).capture_id,
    });
  });

  it('refuses a credit that does not cover the price, without charging or asking the booth', async () => {
    const booth = await createBooth(database.db, link, { orgId, pricePaise: 4950 });
    const person = await visitor(4949);
    const before = link.sent.length;
    const response = await capture(app, person.token, booth.id, templateId);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      message: 'Your credit does not cover this photobooth. Please pay to continue.',
      code: 'payment_required',
    });
    expect(link.sent.length).toBe(before);
    expect(await creditsOf(person.userId)).toBe(4949);
    expect(await ledgerOf(person.userId)).toEqual([]);
    expect(await mediaOf(person.userId)).toEqual([]);
  });

  it.each(['refuse', 'silent'] as const)(
    'gives the credit back and hides the media when the booth does not start (%s)',
    async (behaviour) => {
      const booth = await createBooth(database.db, link, { orgId, pricePaise: 4950, behaviour });
      const person = await visitor(4950);
      const response = await capture(app, person.token, booth.id, templateId);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        message: MEDIA_MESSAGES.captureFailed,
        code: 'service_unavailable',
      });
      // The row stays (a late booth may still deliver) but My Media does not show it.
      expect(await mediaOf(person.userId)).toEqual([
        expect.objectContaining({ isUploaded: false }),
      ]);
      expect(await myMedia(person.token)).toEqual({ items: [], total_count: 0 });
      expect(await creditsOf(person.userId)).toBe(4950);
      const ledger = await ledgerOf(person.userId);
      const captureId = link.lastCapture(booth.thingName).capture_id;
      expect(ledger.map((row) => [row.reason, row.deltaPaise, row.mediaCaptureId])).toEqual([
        ['capture', -4950, captureId],
        ['refund', 4950, captureId],
      ]);
      expect(await captureRow(captureId)).toMatchObject({
        state: 'failed',
        failureReason: 'the booth did not start the capture',
      });
      // Refusals are not errors of the booth: nothing in its error log.
      expect(await errorLogOf(booth.id)).toEqual([]);
    },
  );

  it('also undoes a free capture the booth refuses (no ledger rows)', async () => {
    const booth = await createBooth(database.db, link, { orgId, behaviour: 'refuse' });
    const person = await visitor();
    expect((await capture(app, person.token, booth.id, templateId)).statusCode).toBe(503);
    expect((await myMedia(person.token)).total_count).toBe(0);
    expect(await ledgerOf(person.userId)).toEqual([]);
    expect((await captureRow(link.lastCapture(booth.thingName).capture_id))?.state).toBe('failed');
  });

  /** An accepted credit capture: the visitor, the booth, the capture and its media id. */
  async function acceptedCapture(pricePaise = 3000) {
    const booth = await createBooth(database.db, link, { orgId, pricePaise });
    const person = await visitor(pricePaise);
    const response = await capture(app, person.token, booth.id, templateId);
    expect(response.statusCode, response.body).toBe(200);
    const sent = link.lastCapture(booth.thingName);
    return {
      booth,
      person,
      captureId: sent.capture_id,
      mediaId: sent.uploads[0]!.media_id,
      uploadUrl: sent.uploads[0]!.upload_url,
    };
  }
  const refundsOf = async (userId: number) =>
    (await ledgerOf(userId)).filter((row) => row.reason === 'refund');
  const deliver = async (uploadUrl: string, mediaId: number, auth: Record<string, string>) => {
    const put = await app.inject({
      method: 'PUT',
      url: uploadUrl,
      payload: await makeJpeg(800),
      headers: { 'content-type': 'image/jpeg' },
    });
    expect(put.statusCode).toBe(204);
    return app.inject({
      method: 'POST',
      url: `/api/device/media/${mediaId}/uploaded`,
      headers: auth,
    });
  };

  it('gives the credit back once when the booth reports a failure with nothing delivered', async () => {
    const { booth, person, captureId, mediaId } = await acceptedCapture(3000);
    expect(await creditsOf(person.userId)).toBe(0);
    // The booth claims one item arrived; the database says none did, and decides.
    const report = {
      report_id: randomUUID(),
      message: 'Camera disconnected during the countdown',
      capture_id: captureId,
      delivered_media_ids: [mediaId],
      at: '2025-05-14T10:00:00',
    };
    // Duplicates (QoS 1, several instances) and a second report at the same moment.
    await Promise.all([
      link.report(booth.thingName, report),
      link.report(booth.thingName, report),
      link.report(booth.thingName, {
        ...report,
        report_id: randomUUID(),
        message: 'Also: no print',
      }),
    ]);
    await link.report(booth.thingName, report);

    expect(await creditsOf(person.userId)).toBe(3000);
    expect(
      (await ledgerOf(person.userId)).map((row) => [
        row.reason,
        row.deltaPaise,
        row.mediaCaptureId,
      ]),
    ).toEqual([
      ['capture', -3000, captureId],
      ['refund', 3000, captureId],
    ]);
    expect(await captureRow(captureId)).toMatchObject({
      state: 'failed',
      failureReason: expect.stringContaining('Camera disconnected'),
    });
    expect((await myMedia(person.token)).total_count).toBe(0);
    // Both reports in the error log, each once, naming the capture.
    const log = await errorLogOf(booth.id);
    expect(log.map((row) => row.errorMessage).sort()).toEqual([
      `Also: no print (capture ${captureId})`,
      `Camera disconnected during the countdown (capture ${captureId})`,
    ]);
    // The sweep later finds nothing more to give back.
    testApp.clock.advance(60);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await refundsOf(person.userId)).toHaveLength(1);
    expect(await errorLogOf(booth.id)).toHaveLength(2);
  });

  it('keeps the charge when something was delivered, whatever the booth’s report says', async () => {
    const { booth, person, captureId, mediaId, uploadUrl } = await acceptedCapture(3000);
    const confirmed = await deliver(uploadUrl, mediaId, booth.auth);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    await link.report(booth.thingName, {
      report_id: randomUUID(),
      message: 'Printer jam after upload',
      capture_id: captureId,
      delivered_media_ids: [],
    });
    expect(await creditsOf(person.userId)).toBe(0);
    expect(await refundsOf(person.userId)).toEqual([]);
    expect((await captureRow(captureId))?.state).toBe('delivered');
    expect((await myMedia(person.token)).items).toEqual([
      expect.objectContaining({ id: mediaId, is_uploaded: true }),
    ]);
    expect(await errorLogOf(booth.id)).toHaveLength(1);
  });

  it('ignores a report naming another booth’s capture (logged, nothing given back)', async () => {
    const { person, captureId } = await acceptedCapture(3000);
    const intruder = await createBooth(database.db, link, { orgId });
    await link.report(intruder.thingName, {
      report_id: randomUUID(),
      message: 'Failed',
      capture_id: captureId,
      delivered_media_ids: [],
    });
    expect(await creditsOf(person.userId)).toBe(0);
    expect((await captureRow(captureId))?.state).toBe('accepted');
    expect(await errorLogOf(intruder.id)).toHaveLength(1);
  });

  it('sweeps captures never delivered: credit back once, one error-log row, late upload still delivered', async () => {
    const { booth, person, captureId, mediaId, uploadUrl } = await acceptedCapture(2500);
    // A second server instance on the same database sweeps at the same time.
    const second = await startApp(database, SWEEP_ENV, { deviceLink: new ScriptedLink() });
    try {
      // Before the deadline (30 s after acceptance) nothing happens.
      testApp.clock.advance(20);
      second.clock.advance(20);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await captureRow(captureId))?.state).toBe('accepted');
      expect(await creditsOf(person.userId)).toBe(0);

      testApp.clock.advance(15);
      second.clock.advance(15);
      await eventually(
        () => captureRow(captureId),
        (row) => row?.state === 'failed',
      );
      // Let both sweeps run a few more times.
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      await second.app.close();
    }
    expect(await creditsOf(person.userId)).toBe(2500);
    expect(await refundsOf(person.userId)).toHaveLength(1);
    const log = await errorLogOf(booth.id);
    expect(log).toHaveLength(1);
    expect(log[0]!.errorMessage).toMatch(
      new RegExp(
        `^Capture ${captureId} never delivered: accepted at .* UTC, nothing uploaded by .* UTC; ₹25\\.00 credit given back to the visitor\\.$`,
      ),
    );
    expect(log[0]!.reportId).toBeNull();
    expect((await myMedia(person.token)).total_count).toBe(0);

    // The booth delivers after all: accepted, shown, and nothing charged or refunded again.
    const late = await deliver(uploadUrl, mediaId, booth.auth);
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json()).toEqual({ id: mediaId, is_uploaded: true });
    expect((await myMedia(person.token)).items).toEqual([
      expect.objectContaining({ id: mediaId, is_uploaded: true }),
    ]);
    expect(await creditsOf(person.userId)).toBe(2500);
    expect((await ledgerOf(person.userId)).map((row) => row.reason)).toEqual(['capture', 'refund']);
    expect((await captureRow(captureId))?.state).toBe('failed');
    // A report arriving now changes nothing either: the capture stays given back.
    await link.report(booth.thingName, {
      report_id: randomUUID(),
      message: 'Upload retried',
      capture_id: captureId,
    });
    expect(await refundsOf(person.userId)).toHaveLength(1);
    expect(await captureRow(captureId)).toMatchObject({
      state: 'failed',
      failureReason: 'never delivered',
    });
  });

  it('gives a capture back exactly once when many releases race (instances, reports, sweeps)', async () => {
    const { booth, person, captureId } = await acceptedCapture(1500);
    testApp.clock.advance(31);
    // Each call as another server instance would make it, on its own connection.
    const repositories = Array.from({ length: 8 }, () => new CapturesRepository(database.db));
    const at = testApp.clock.now();
    const outcomes = await Promise.all(
      repositories.map((repository, index) =>
        repository.release(captureId, {
          reason: `race ${index}`,
          at,
          ...(index % 2 === 0 ? { dueBy: at } : { deviceId: booth.id }),
          logMessage: () => `released by ${index}`,
        }),
      ),
    );
    // The app's own sweep may have won the race too.
    const released = outcomes.filter((outcome) => outcome.outcome === 'released');
    expect(released.length).toBeLessThanOrEqual(1);
    expect(outcomes.every((o) => o.outcome === 'released' || o.outcome === 'closed')).toBe(true);
    await eventually(
      () => captureRow(captureId),
      (row) => row?.state === 'failed',
    );
    expect(await creditsOf(person.userId)).toBe(1500);
    expect(await refundsOf(person.userId)).toHaveLength(1);
    expect(await errorLogOf(booth.id)).toHaveLength(1);
    // And once more, later: nothing.
    expect(
      await repositories[0]!.release(captureId, { reason: 'again', at, logMessage: () => 'x' }),
    ).toEqual({ outcome: 'closed' });
    expect(await errorLogOf(booth.id)).toHaveLength(1);
  });

  it('marks a capture delivered at its deadline when something arrived', async () => {
    const { booth, person, captureId, mediaId, uploadUrl } = await acceptedCapture(1000);
    expect((await deliver(uploadUrl, mediaId, booth.auth)).statusCode).toBe(200);
    testApp.clock.advance(31);
    await eventually(
      () => captureRow(captureId),
      (row) => row?.state === 'delivered',
    );
    expect(await refundsOf(person.userId)).toEqual([]);
    expect(await errorLogOf(booth.id)).toEqual([]);
  });

  /** A payment the provider confirmed, not yet used by a capture. */
  const completedPayment = async (userId: number, deviceId: number, amountPaise: number) => {
    const now = new Date();
    const [row] = await database.db
      .insert(paymentTransactions)
      .values({
        userId,
        deviceId,
        orgId,
        templateId,
        provider: 'sandbox',
        orderId: `T${randomUUID().replaceAll('-', '')}`,
        amountPaise,
        state: 'COMPLETED',
        expiresAt: now,
        nextCheckAt: now,
        completedAt: now,
      })
      .returning({ id: paymentTransactions.id });
    return row!.id;
  };
  const paymentRow = async (id: number) =>
    (
      await database.db.select().from(paymentTransactions).where(eq(paymentTransactions.id, id))
    )[0]!;

  it('uses a completed payment before credit, and gives the payment back when the booth fails', async () => {
    const booth = await createBooth(database.db, link, { orgId, pricePaise: 4950 });
    const person = await visitor(10_000);
    const paymentId = await completedPayment(person.userId, booth.id, 4950);

    const first = await capture(app, person.token, booth.id, templateId);
    expect(first.statusCode, first.body).toBe(200);
    const captureId = link.lastCapture(booth.thingName).capture_id;
    expect(await paymentRow(paymentId)).toMatchObject({ consumedCaptureId: captureId });
    // Paid by the payment: the credit is untouched and the capture charged nothing.
    expect(await creditsOf(person.userId)).toBe(10_000);
    expect(await ledgerOf(person.userId)).toEqual([]);
    expect(await captureRow(captureId)).toMatchObject({ chargedPaise: 0 });

    // The booth fails with nothing delivered: the payment (not credit) is usable again.
    await link.report(booth.thingName, {
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
    expect((await capture(app, person.token, booth.id, templateId)).statusCode).toBe(200);
    expect((await paymentRow(paymentId)).consumedCaptureId).toBe(
      link.lastCapture(booth.thingName).capture_id,
    );
    expect((await capture(app, person.token, booth.id, templateId)).statusCode).toBe(200);
    expect(await creditsOf(person.userId)).toBe(5050);
  });

  it('lets exactly one of 50 concurrent captures use one payment (no credit)', async () => {
    const booth = await createBooth(database.db, link, { orgId, pricePaise: 2000 });
    const person = await visitor();
    const paymentId = await completedPayment(person.userId, booth.id, 2000);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => capture(app, person.token, booth.id, templateId)),
    );
    const codes = responses.map((response) => response.statusCode).sort();
    expect(codes.filter((code) => code === 200)).toHaveLength(1);
    expect(codes.filter((code) => code === 409)).toHaveLength(49);
    const used = await paymentRow(paymentId);
    expect(used.consumedCaptureId).not.toBeNull();
    const started = await database.db
      .select()
      .from(captures)
      .where(eq(captures.userId, person.userId));
    expect(started).toHaveLength(1);
    expect(started[0]!.captureId).toBe(used.consumedCaptureId);
  });

  it('lets exactly one of 20 concurrent captures through on a credit covering one', async () => {
    const booth = await createBooth(database.db, link, { orgId, pricePaise: 2500 });
    const person = await visitor(2500);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => capture(app, person.token, booth.id, templateId)),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    expect(await creditsOf(person.userId)).toBe(0);
    expect(await ledgerOf(person.userId)).toHaveLength(1);
    expect(await mediaOf(person.userId)).toHaveLength(1);
  });

  it('refuses unknown and unlinked booths, unknown templates and templates of another organization', async () => {
    const person = await visitor();
    const booth = await createBooth(database.db, link, { orgId });
    const unlinked = await createBooth(database.db, link, { orgId: null });
    const elsewhere = await createTemplate(database.db, { orgIds: [otherOrgId] });
    const empty = await createTemplate(database.db, { orgIds: [orgId], slots: 0 });
    const before = link.sent.length;

    const notOffered = await capture(app, person.token, booth.id, elsewhere);
    expect(notOffered.statusCode).toBe(400);
    expect(notOffered.json()).toEqual({
      message: 'This template is not available at this photobooth.',
      code: 'bad_request',
    });
    expect((await capture(app, person.token, booth.id, empty)).json().message).toBe(
      MEDIA_MESSAGES.templateEmpty,
    );
    const unknownTemplate = await capture(app, person.token, booth.id, 999_999);
    expect(unknownTemplate.statusCode).toBe(404);
    expect(unknownTemplate.json().message).toBe('Template not found.');
    const unlinkedBooth = await capture(app, person.token, unlinked.id, templateId);
    expect(unlinkedBooth.statusCode).toBe(404);
    expect(unlinkedBooth.json().message).toBe('Device not found.');
    expect((await capture(app, person.token, 999_999, templateId)).statusCode).toBe(404);

    const noTemplate = await app.inject({
      method: 'POST',
      url: `/api/regular/devices/${booth.id}/capture`,
      headers: { authorization: `Bearer ${person.token}` },
      payload: {},
    });
    expect(noTemplate.statusCode).toBe(400);
    expect(link.sent.length).toBe(before);
    expect(await mediaOf(person.userId)).toEqual([]);

    // Staff tokens and anonymous callers are refused.
    const staff = await signedIn(app, 'enterprise');
    expect((await capture(app, staff.token, booth.id, templateId)).statusCode).toBe(401);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `/api/regular/devices/${booth.id}/capture`,
          payload: { template_id: templateId },
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `/api/enterprise/devices/${booth.id}/capture`,
          headers: { authorization: `Bearer ${staff.token}` },
          payload: { template_id: templateId },
        })
      ).statusCode,
    ).toBe(404);
  });
});
