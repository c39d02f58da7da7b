import { MEDIA_MESSAGES } from '@flashbooth/contracts';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/client.js';
import { creditLedger, media, users } from '../src/db/schema.js';
import { databaseTargets } from './databases.js';
import { signedIn, startApp } from './harness.js';
import {
  capture,
  createBooth,
  createOrganization,
  createTemplate,
  ScriptedLink,
} from './media-fixtures.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(databaseTargets)('capture on $name', ({ open }) => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  const link = new ScriptedLink();
  let orgId: number;
  let otherOrgId: number;
  let templateId: number;

  beforeAll(async () => {
    database = await open();
    ({ app } = await startApp(
      database,
      { OTP_SEND_LIMIT_PER_IP: '1000', DEVICE_COMMAND_TIMEOUT_MS: '200' },
      { deviceLink: link },
    ));
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
    'gives the credit back and removes the media when the booth does not start (%s)',
    async (behaviour) => {
      const booth = await createBooth(database.db, link, { orgId, pricePaise: 4950, behaviour });
      const person = await visitor(4950);
      const response = await capture(app, person.token, booth.id, templateId);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        message: MEDIA_MESSAGES.captureFailed,
        code: 'service_unavailable',
      });
      expect(await mediaOf(person.userId)).toEqual([]);
      expect(await creditsOf(person.userId)).toBe(4950);
      const ledger = await ledgerOf(person.userId);
      const captureId = link.lastCapture(booth.thingName).capture_id;
      expect(ledger.map((row) => [row.reason, row.deltaPaise, row.mediaCaptureId])).toEqual([
        ['capture', -4950, captureId],
        ['refund', 4950, captureId],
      ]);
    },
  );

  it('also undoes a free capture the booth refuses (no ledger rows)', async () => {
    const booth = await createBooth(database.db, link, { orgId, behaviour: 'refuse' });
    const person = await visitor();
    expect((await capture(app, person.token, booth.id, templateId)).statusCode).toBe(503);
    expect(await mediaOf(person.userId)).toEqual([]);
    expect(await ledgerOf(person.userId)).toEqual([]);
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
