import { MEDIA_MESSAGES } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { databaseTargets } from '../databases.js';
import { signedIn } from '../harness.js';
import { capture, createBooth, createTemplate } from '../media-fixtures.js';
import { useCaptureSuite, UUID } from './capture-suite.js';

describe.each(databaseTargets)('capture on $name', ({ open }) => {
  const s = useCaptureSuite(open);
  const { visitor, creditsOf, ledgerOf, mediaOf, captureRow, myMedia, errorLogOf } = s;

  it('captures for free at a free booth and sends the booth the whole command', async () => {
    const booth = await createBooth(s.database.db, s.link, { orgId: s.orgId });
    const person = await visitor();
    const response = await capture(s.app, person.token, booth.id, s.templateId);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ media_ids: number[]; total_captures: number }>();
    expect(body.total_captures).toBe(3);
    expect(body.media_ids).toHaveLength(1);

    const [row] = await mediaOf(person.userId);
    expect(row).toMatchObject({
      id: body.media_ids[0],
      deviceId: booth.id,
      orgId: s.orgId,
      templateId: s.templateId,
      mediaType: 'image',
      orientation: 'portrait',
      isUploaded: false,
      isPublic: false,
      isRepostAllowed: true,
      lowresKey: null,
    });
    expect(row!.s3Key).toMatch(new RegExp(`^media/${person.userId}/[0-9a-f-]{36}\\.jpg$`));
    expect(row!.captureId).toMatch(UUID);

    const sent = s.link.lastCapture(booth.thingName);
    expect(sent.capture_id).toBe(row!.captureId);
    expect(sent.total_captures).toBe(3);
    expect(sent.template).toMatchObject({
      id: s.templateId,
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
      templateId: s.templateId,
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
    const booth = await createBooth(s.database.db, s.link, { orgId: s.orgId });
    const duplicated = await createTemplate(s.database.db, {
      orgIds: [s.orgId],
      slots: 6,
      isDuplicated: true,
    });
    const response = await capture(s.app, (await visitor()).token, booth.id, duplicated);
    expect(response.json().total_captures).toBe(3);
    expect(s.link.lastCapture(booth.thingName).template.foreground_url).toBeNull();
  });

  it('deducts a covering credit and writes the ledger in the same transaction', async () => {
    const booth = await createBooth(s.database.db, s.link, { orgId: s.orgId, pricePaise: 4950 });
    const person = await visitor(10_000);
    const response = await capture(s.app, person.token, booth.id, s.templateId);
    expect(response.statusCode, response.body).toBe(200);
    expect(await creditsOf(person.userId)).toBe(5050);
    const ledger = await ledgerOf(person.userId);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      deltaPaise: -4950,
      reason: 'capture',
      mediaCaptureId: s.link.lastCapture(booth.thingName).capture_id,
    });
  });

  it('refuses a credit that does not cover the price, without charging or asking the booth', async () => {
    const booth = await createBooth(s.database.db, s.link, { orgId: s.orgId, pricePaise: 4950 });
    const person = await visitor(4949);
    const before = s.link.sent.length;
    const response = await capture(s.app, person.token, booth.id, s.templateId);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      message: 'Your credit does not cover this photobooth. Please pay to continue.',
      code: 'payment_required',
    });
    expect(s.link.sent.length).toBe(before);
    expect(await creditsOf(person.userId)).toBe(4949);
    expect(await ledgerOf(person.userId)).toEqual([]);
    expect(await mediaOf(person.userId)).toEqual([]);
  });

  it.each(['refuse', 'silent'] as const)(
    'gives the credit back and hides the media when the booth does not start (%s)',
    async (behaviour) => {
      const booth = await createBooth(s.database.db, s.link, {
        orgId: s.orgId,
        pricePaise: 4950,
        behaviour,
      });
      const person = await visitor(4950);
      const response = await capture(s.app, person.token, booth.id, s.templateId);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        message: MEDIA_MESSAGES.captureFailed,
        code: 'service_unavailable',
      });
      // The row stays (a late booth may still deliver) but My Media does not show it.
      expect(await mediaOf(person.userId)).toEqual([
        expect.objectContaining({ isUploaded: false }),
      ]);
      expect(await myMedia(person.token)).toEqual({
        items: [],
        total_count: 0,
        next_cursor: null,
      });
      expect(await creditsOf(person.userId)).toBe(4950);
      const ledger = await ledgerOf(person.userId);
      const captureId = s.link.lastCapture(booth.thingName).capture_id;
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
    const booth = await createBooth(s.database.db, s.link, { orgId: s.orgId, behaviour: 'refuse' });
    const person = await visitor();
    expect((await capture(s.app, person.token, booth.id, s.templateId)).statusCode).toBe(503);
    expect((await myMedia(person.token)).total_count).toBe(0);
    expect(await ledgerOf(person.userId)).toEqual([]);
    expect((await captureRow(s.link.lastCapture(booth.thingName).capture_id))?.state).toBe(
      'failed',
    );
  });

  it('refuses unknown and unlinked booths, unknown templates and templates of another organization', async () => {
    const person = await visitor();
    const booth = await createBooth(s.database.db, s.link, { orgId: s.orgId });
    const unlinked = await createBooth(s.database.db, s.link, { orgId: null });
    const elsewhere = await createTemplate(s.database.db, { orgIds: [s.otherOrgId] });
    const empty = await createTemplate(s.database.db, { orgIds: [s.orgId], slots: 0 });
    const before = s.link.sent.length;

    const notOffered = await capture(s.app, person.token, booth.id, elsewhere);
    expect(notOffered.statusCode).toBe(400);
    expect(notOffered.json()).toEqual({
      message: 'This template is not available at this photobooth.',
      code: 'bad_request',
    });
    expect((await capture(s.app, person.token, booth.id, empty)).json().message).toBe(
      MEDIA_MESSAGES.templateEmpty,
    );
    const unknownTemplate = await capture(s.app, person.token, booth.id, 999_999);
    expect(unknownTemplate.statusCode).toBe(404);
    expect(unknownTemplate.json().message).toBe('Template not found.');
    const unlinkedBooth = await capture(s.app, person.token, unlinked.id, s.templateId);
    expect(unlinkedBooth.statusCode).toBe(404);
    expect(unlinkedBooth.json().message).toBe('Device not found.');
    expect((await capture(s.app, person.token, 999_999, s.templateId)).statusCode).toBe(404);

    const noTemplate = await s.app.inject({
      method: 'POST',
      url: `/api/regular/devices/${booth.id}/capture`,
      headers: { authorization: `Bearer ${person.token}` },
      payload: {},
    });
    expect(noTemplate.statusCode).toBe(400);
    expect(s.link.sent.length).toBe(before);
    expect(await mediaOf(person.userId)).toEqual([]);

    // Staff tokens and anonymous callers are refused.
    const staff = await signedIn(s.app, 'enterprise');
    expect((await capture(s.app, staff.token, booth.id, s.templateId)).statusCode).toBe(401);
    expect(
      (
        await s.app.inject({
          method: 'POST',
          url: `/api/regular/devices/${booth.id}/capture`,
          payload: { template_id: s.templateId },
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (
        await s.app.inject({
          method: 'POST',
          url: `/api/enterprise/devices/${booth.id}/capture`,
          headers: { authorization: `Bearer ${staff.token}` },
          payload: { template_id: s.templateId },
        })
      ).statusCode,
    ).toBe(404);
  });
});
