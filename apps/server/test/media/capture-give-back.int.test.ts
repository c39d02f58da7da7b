import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CapturesRepository } from '../../src/modules/media/captures.repository.js';
import { databaseTargets } from '../databases.js';
import { eventually, startApp } from '../harness.js';
import { createBooth, ScriptedLink } from '../media-fixtures.js';
import { SWEEP_ENV, useCaptureSuite } from './capture-suite.js';

describe.each(databaseTargets)('captures given back on $name', ({ open }) => {
  const s = useCaptureSuite(open);
  const {
    creditsOf,
    ledgerOf,
    captureRow,
    myMedia,
    errorLogOf,
    acceptedCapture,
    refundsOf,
    deliver,
  } = s;

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
      s.link.report(booth.thingName, report),
      s.link.report(booth.thingName, report),
      s.link.report(booth.thingName, {
        ...report,
        report_id: randomUUID(),
        message: 'Also: no print',
      }),
    ]);
    await s.link.report(booth.thingName, report);

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
    s.testApp.clock.advance(60);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await refundsOf(person.userId)).toHaveLength(1);
    expect(await errorLogOf(booth.id)).toHaveLength(2);
  });

  it('keeps the charge when something was delivered, whatever the booth’s report says', async () => {
    const { booth, person, captureId, mediaId, uploadUrl } = await acceptedCapture(3000);
    const confirmed = await deliver(uploadUrl, mediaId, booth.auth);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    await s.link.report(booth.thingName, {
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
    const intruder = await createBooth(s.database.db, s.link, { orgId: s.orgId });
    await s.link.report(intruder.thingName, {
      report_id: randomUUID(),
      message: 'Failed',
      capture_id: captureId,
      delivered_media_ids: [],
    });
    expect(await creditsOf(person.userId)).toBe(0);
    expect((await captureRow(captureId))?.state).toBe('accepted');
    expect(await errorLogOf(intruder.id)).toHaveLength(1);
  });

  it('a capture paid with credit not delivered by its deadline is a delivery failure: credit back once, one error-log row, late upload still delivered', async () => {
    const { booth, person, captureId, mediaId, uploadUrl } = await acceptedCapture(2500);
    // A second server instance on the same database sweeps at the same time.
    const second = await startApp(s.database, SWEEP_ENV, { deviceLink: new ScriptedLink() });
    try {
      // Before the deadline (30 s after acceptance) nothing happens.
      s.testApp.clock.advance(20);
      second.clock.advance(20);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await captureRow(captureId))?.state).toBe('accepted');
      expect(await creditsOf(person.userId)).toBe(0);

      s.testApp.clock.advance(15);
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
        `^Capture ${captureId}: delivery failure, 1 of 1 item not delivered within 0 minutes \\(accepted .* UTC\\); ₹25\\.00 credit given back to the visitor\\.`,
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
    await s.link.report(booth.thingName, {
      report_id: randomUUID(),
      message: 'Upload retried',
      capture_id: captureId,
    });
    expect(await refundsOf(person.userId)).toHaveLength(1);
    expect(await captureRow(captureId)).toMatchObject({
      state: 'failed',
      failureReason: 'delivery failure',
    });
  });

  it('gives a capture back exactly once when many releases race (instances, reports, sweeps)', async () => {
    const { booth, person, captureId } = await acceptedCapture(1500);
    s.testApp.clock.advance(31);
    // Each call as another server instance would make it, on its own connection.
    const repositories = Array.from({ length: 8 }, () => new CapturesRepository(s.database.db));
    const at = s.testApp.clock.now();
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
    s.testApp.clock.advance(31);
    await eventually(
      () => captureRow(captureId),
      (row) => row?.state === 'delivered',
    );
    expect(await refundsOf(person.userId)).toEqual([]);
    expect(await errorLogOf(booth.id)).toEqual([]);
  });
});
