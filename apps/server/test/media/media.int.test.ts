import { MEDIA_MESSAGES } from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { media } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { apiCall, signedIn, startApp } from '../harness.js';
import {
  capture,
  createBooth,
  createOrganization,
  createTemplate,
  makeJpeg,
  ScriptedLink,
} from '../media-fixtures.js';

describe.each(databaseTargets)('media on $name', ({ open }) => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  const link = new ScriptedLink();
  let orgId: number;
  let templateId: number;
  let booth: Awaited<ReturnType<typeof createBooth>>;
  let otherBooth: Awaited<ReturnType<typeof createBooth>>;
  let jpeg: Buffer;

  beforeAll(async () => {
    database = await open();
    ({ app } = await startApp(
      database,
      { OTP_SEND_LIMIT_PER_IP: '1000', DEVICE_COMMAND_TIMEOUT_MS: '200' },
      { deviceLink: link },
    ));
    orgId = await createOrganization(database.db, 'Sunrise Mall');
    templateId = await createTemplate(database.db, {
      orgIds: [orgId],
      slots: 3,
      orientation: 'landscape',
    });
    booth = await createBooth(database.db, link, { orgId, name: 'Atrium booth' });
    otherBooth = await createBooth(database.db, link, { orgId, name: 'Pier booth' });
    jpeg = await makeJpeg(2400);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  /** A capture at `at` by `token`: the new media id and its upload link. */
  async function captured(token: string, at = booth) {
    const response = await capture(app, token, at.id, templateId);
    expect(response.statusCode, response.body).toBe(200);
    const sent = link.lastCapture(at.thingName);
    return { id: sent.uploads[0]!.media_id, uploadUrl: sent.uploads[0]!.upload_url };
  }
  const put = (url: string, body: Buffer, contentType = 'image/jpeg') =>
    app.inject({ method: 'PUT', url, payload: body, headers: { 'content-type': contentType } });
  const confirm = (id: number, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: `/api/device/media/${id}/uploaded`, headers });
  const call = (method: 'GET' | 'PATCH', url: string, token: string, payload?: object) =>
    apiCall(app, method, url, token, payload, 'regular');
  const rowOf = async (id: number) =>
    (await database.db.select().from(media).where(eq(media.id, id)))[0]!;
  /** The row once its background preview is saved (10 s at most). */
  async function previewed(id: number) {
    const deadline = Date.now() + 10_000;
    let row = await rowOf(id);
    while (row.lowresKey === null && row.previewError === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      row = await rowOf(id);
    }
    return row;
  }

  it('accepts a booth’s confirmed JPEG upload and then makes a 1200 px preview, once', async () => {
    const person = await signedIn(app, 'regular', undefined, 'Asha Verma');
    const item = await captured(person.token);

    // Nothing uploaded yet.
    const early = await confirm(item.id, booth.auth);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(MEDIA_MESSAGES.notUploadedYet);
    expect((await call('GET', `media/uploaded?media_ids=${item.id}`, person.token)).json()).toEqual(
      {
        media_items: [
          { id: item.id, is_uploaded: false, lowres_s3_url: null, orientation: 'landscape' },
        ],
      },
    );

    // Only this booth, with its own secret, may confirm.
    expect((await confirm(item.id, {})).statusCode).toBe(401);
    expect(
      (await confirm(item.id, { authorization: `Device ${booth.thingName}:wrong` })).statusCode,
    ).toBe(401);
    expect((await confirm(item.id, { authorization: `Bearer ${person.token}` })).statusCode).toBe(
      401,
    );
    expect((await confirm(item.id, otherBooth.auth)).statusCode).toBe(404);

    // A file that is not a JPEG is refused and removed, so the booth can upload again.
    expect((await put(item.uploadUrl, Buffer.from('not a jpeg at all'))).statusCode).toBe(204);
    const bad = await confirm(item.id, booth.auth);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBe(MEDIA_MESSAGES.notJpeg);
    expect((await confirm(item.id, booth.auth)).statusCode).toBe(409);

    expect((await put(item.uploadUrl, jpeg)).statusCode).toBe(204);
    const done = await confirm(item.id, booth.auth);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ id: item.id, is_uploaded: true });
    expect((await rowOf(item.id)).isUploaded).toBe(true);
    // The preview is made after the answer (media-previews.integration.test.ts times it).
    const row = await previewed(item.id);
    expect(row.isUploaded).toBe(true);
    expect(row.lowresKey).toMatch(
      new RegExp(`^media/${person.userId}/lowres/[0-9a-f-]{36}\\.jpg$`),
    );
    expect(row.previewAttempts).toBe(1);
    expect(row.previewError).toBeNull();

    // Idempotent: a second confirmation changes nothing.
    expect((await confirm(item.id, booth.auth)).json()).toEqual({ id: item.id, is_uploaded: true });
    expect((await rowOf(item.id)).lowresKey).toBe(row.lowresKey);

    // With the preview's link, for the capture screen's photo of what was just taken.
    const uploadedNow = (
      await call('GET', `media/uploaded?media_ids=${item.id}`, person.token)
    ).json();
    expect(uploadedNow).toEqual({
      media_items: [
        {
          id: item.id,
          is_uploaded: true,
          lowres_s3_url: expect.any(String),
          orientation: 'landscape',
        },
      ],
    });
    const justTaken = await app.inject({
      method: 'GET',
      url: uploadedNow.media_items[0].lowres_s3_url,
    });
    expect(justTaken.statusCode).toBe(200);
    expect(justTaken.headers['content-type']).toBe('image/jpeg');
    const list = (await call('GET', 'media', person.token)).json();
    const listed = list.items.find((entry: { id: number }) => entry.id === item.id);
    expect(listed).toMatchObject({
      id: item.id,
      media_type: 'image',
      s3_key: row.s3Key,
      org_name: 'Sunrise Mall',
      device_name: 'Atrium booth',
      user_name: 'Asha Verma',
      orientation: 'landscape',
      caption: null,
      is_public: false,
      is_repost_allowed: true,
      is_downloaded: false,
      is_shared: false,
      is_uploaded: true,
      likes_count: 0,
      is_liked_by_caller: false,
    });
    expect(listed.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);

    const full = await app.inject(listed.s3_url);
    expect(full.statusCode).toBe(200);
    expect(full.rawPayload.equals(jpeg)).toBe(true);
    const preview = await app.inject(listed.lowres_s3_url);
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(preview.rawPayload).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.width).toBe(1200);
    expect(meta.height).toBe(800);
  });

  it('never shows or changes another visitor’s media', async () => {
    const owner = await signedIn(app, 'regular');
    const stranger = await signedIn(app, 'regular');
    const item = await captured(owner.token);

    expect(
      (await call('GET', `media/uploaded?media_ids=${item.id}`, stranger.token)).json(),
    ).toEqual({ media_items: [] });
    const theirList = (await call('GET', 'media', stranger.token)).json();
    expect(theirList).toEqual({ items: [], total_count: 0, next_cursor: null });

    const patch = await call('PATCH', `media/${item.id}`, stranger.token, { is_public: true });
    expect(patch.statusCode).toBe(404);
    expect(patch.json()).toEqual({ message: 'Media not found.', code: 'not_found' });
    const repost = await call('PATCH', 'media/repost_allowed', stranger.token, {
      media_ids: [item.id],
      is_repost_allowed: false,
    });
    expect(repost.statusCode).toBe(404);
    // Mixing an own item with a foreign one changes neither.
    const own = await captured(stranger.token);
    const mixed = await call('PATCH', 'media/repost_allowed', stranger.token, {
      media_ids: [own.id, item.id],
      is_repost_allowed: false,
    });
    expect(mixed.statusCode).toBe(404);
    expect((await rowOf(item.id)).isRepostAllowed).toBe(true);
    expect((await rowOf(own.id)).isRepostAllowed).toBe(true);
    expect((await rowOf(item.id)).isPublic).toBe(false);
  });

  it('lists newest first with search and paging, and patches one field at a time', async () => {
    const person = await signedIn(app, 'regular');
    const first = await captured(person.token, booth);
    const second = await captured(person.token, otherBooth);
    const third = await captured(person.token, booth);

    const all = (await call('GET', 'media', person.token)).json();
    expect(all.total_count).toBe(3);
    expect(all.items.map((item: { id: number }) => item.id)).toEqual([
      third.id,
      second.id,
      first.id,
    ]);
    expect(all.items[0].s3_url).toBeNull();
    expect(all.items[0].lowres_s3_url).toBeNull();

    const page = (await call('GET', 'media?limit=1&offset=1', person.token)).json();
    expect(page.total_count).toBe(3);
    expect(page.items.map((item: { id: number }) => item.id)).toEqual([second.id]);
    const byDevice = (await call('GET', 'media?search=pier', person.token)).json();
    expect(byDevice.items.map((item: { id: number }) => item.id)).toEqual([second.id]);
    expect((await call('GET', 'media?search=sunrise', person.token)).json().total_count).toBe(3);
    expect((await call('GET', 'media?search=%25', person.token)).json().total_count).toBe(0);

    // Caption: trimmed, empty becomes null; searchable.
    const captioned = await call('PATCH', `media/${first.id}`, person.token, {
      caption: '  Best day ever  ',
    });
    expect(captioned.statusCode, captioned.body).toBe(200);
    expect(captioned.json()).toMatchObject({ caption: 'Best day ever' });
    expect(captioned.json().updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    const byCaption = (await call('GET', 'media?search=best%20day', person.token)).json();
    expect(byCaption.items.map((item: { id: number }) => item.id)).toEqual([first.id]);
    expect(
      (await call('PATCH', `media/${first.id}`, person.token, { caption: '   ' })).json().caption,
    ).toBeNull();
    expect(
      (await call('PATCH', `media/${first.id}`, person.token, { caption: null })).statusCode,
    ).toBe(200);

    for (const field of ['is_public', 'is_downloaded', 'is_shared'] as const) {
      const response = await call('PATCH', `media/${second.id}`, person.token, { [field]: true });
      expect(response.statusCode).toBe(200);
    }
    expect(await rowOf(second.id)).toMatchObject({
      isPublic: true,
      isDownloaded: true,
      isShared: true,
    });

    // Validation.
    const two = await call('PATCH', `media/${first.id}`, person.token, {
      is_public: true,
      is_shared: true,
    });
    expect(two.statusCode).toBe(400);
    expect(two.json()).toEqual({ message: MEDIA_MESSAGES.oneChange, code: 'validation_error' });
    expect((await call('PATCH', `media/${first.id}`, person.token, {})).json().message).toBe(
      MEDIA_MESSAGES.noChanges,
    );
    expect(
      (await call('PATCH', `media/${first.id}`, person.token, { caption: 'x'.repeat(501) })).json()
        .message,
    ).toBe(MEDIA_MESSAGES.captionTooLong);
    expect(
      (await call('PATCH', `media/${first.id}`, person.token, { is_public: 'yes' })).statusCode,
    ).toBe(400);
    expect(
      (await call('PATCH', `media/${first.id}`, person.token, { likes_count: 5 })).statusCode,
    ).toBe(400);
    expect(
      (await call('PATCH', 'media/999999', person.token, { is_public: true })).statusCode,
    ).toBe(404);

    // Repost consent, several at once; uploaded states of a comma-joined list.
    const repost = await call('PATCH', 'media/repost_allowed', person.token, {
      media_ids: [first.id, third.id],
      is_repost_allowed: false,
    });
    expect(repost.statusCode).toBe(200);
    expect(repost.json()).toEqual({ status: 'ok' });
    expect((await rowOf(first.id)).isRepostAllowed).toBe(false);
    expect((await rowOf(second.id)).isRepostAllowed).toBe(true);
    expect((await rowOf(third.id)).isRepostAllowed).toBe(false);
    expect(
      (
        await call('GET', `media/uploaded?media_ids=${first.id},${third.id},999999`, person.token)
      ).json(),
    ).toEqual({
      media_items: [
        { id: first.id, is_uploaded: false, lowres_s3_url: null, orientation: 'landscape' },
        { id: third.id, is_uploaded: false, lowres_s3_url: null, orientation: 'landscape' },
      ],
    });
    for (const bad of ['', 'abc', '1,,2', '-1', '0']) {
      const response = await call('GET', `media/uploaded?media_ids=${bad}`, person.token);
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().message).toBe(MEDIA_MESSAGES.mediaIds);
    }
    expect((await call('GET', 'media/uploaded', person.token)).statusCode).toBe(400);
    for (const body of [
      { media_ids: [], is_repost_allowed: true },
      { media_ids: [first.id] },
      { media_ids: 'x', is_repost_allowed: true },
    ]) {
      expect((await call('PATCH', 'media/repost_allowed', person.token, body)).statusCode).toBe(
        400,
      );
    }
    expect((await app.inject({ method: 'GET', url: '/api/regular/media' })).statusCode).toBe(401);
  });

  it('gives a queued item a fresh upload link and keeps when its capture ended', async () => {
    const person = await signedIn(app, 'regular', undefined, 'Kiran Das');
    const item = await captured(person.token);
    const created = (await rowOf(item.id)).createdAt;
    const link = (headers: Record<string, string>, id = item.id) =>
      app.inject({ method: 'POST', url: `/api/device/media/${id}/upload-url`, headers });

    // Only the booth that made the item may ask.
    expect((await link({})).statusCode).toBe(401);
    expect((await link(otherBooth.auth)).statusCode).toBe(404);
    const fresh = await link(booth.auth);
    expect(fresh.statusCode, fresh.body).toBe(200);
    const body = fresh.json();
    expect(body).toEqual({
      media_id: item.id,
      upload_url: expect.any(String),
      content_type: 'image/jpeg',
      expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
    });

    // The fresh link works; the booth says when the capture ended (a moment after creation).
    expect((await put(body.upload_url, jpeg)).statusCode).toBe(204);
    const capturedAt = new Date(created.getTime() + 1);
    const done = await app.inject({
      method: 'POST',
      url: `/api/device/media/${item.id}/uploaded`,
      headers: booth.auth,
      payload: { captured_at: capturedAt.toISOString() },
    });
    expect(done.statusCode, done.body).toBe(200);
    const row = await rowOf(item.id);
    expect(row.uploadedAt).not.toBeNull();
    // Never after the confirmation itself.
    const uploadedAt = row.uploadedAt!.getTime();
    expect(row.capturedAt?.getTime()).toBe(Math.min(capturedAt.getTime(), uploadedAt));

    // Nothing is left to upload once it arrived.
    const late = await link(booth.auth);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(MEDIA_MESSAGES.alreadyUploaded);
  });

  it("keeps a reported capture time within the item's own times", async () => {
    const person = await signedIn(app, 'regular', undefined, 'Leela Rao');
    const item = await captured(person.token);
    expect((await put(item.uploadUrl, jpeg)).statusCode).toBe(204);
    const done = await app.inject({
      method: 'POST',
      url: `/api/device/media/${item.id}/uploaded`,
      headers: booth.auth,
      // A booth clock a year behind: kept at the item's creation.
      payload: { captured_at: '2025-01-01T00:00:00' },
    });
    expect(done.statusCode, done.body).toBe(200);
    const row = await rowOf(item.id);
    expect(row.capturedAt?.getTime()).toBe(row.createdAt.getTime());
  });
});
