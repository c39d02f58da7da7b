import {
  MEDIA_MAX_BYTES,
  MEDIA_MESSAGES,
  type Media,
  type OrganizationStats,
  type StaffMediaPage,
  TEMPLATE_MESSAGES,
} from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { captures, media, templates } from '../../src/db/schema.js';
import { MediaEraser } from '../../src/modules/privacy/media-eraser.js';
import { createStorage } from '../../src/modules/storage/create-storage.js';
import { ObjectCleanup } from '../../src/modules/storage/object-cleanup.js';
import type { ObjectStorage } from '../../src/modules/storage/storage.js';
import { databaseTargets } from '../databases.js';
import {
  apiCall,
  signedIn,
  signedInOrgStaff,
  signedInSuperUser,
  type SignedInStaff,
  startApp,
  type TestApp,
} from '../harness.js';
import {
  capture,
  createBooth,
  createOrganization,
  createTemplate,
  makeJpeg,
  ScriptedLink,
} from '../media-fixtures.js';

/** The smallest file the confirmation takes for an MP4: an ISO box header `ftyp` at byte 4. */
const MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypisom\0\0\x02\0isomiso2', 'latin1'),
  Buffer.alloc(4096, 7),
]);
const DELIVERY_MINUTES = 60;

interface MotionUpload {
  media_id: number;
  upload_url: string;
  content_type: string;
  poster_upload_url?: string;
  preview_upload_url?: string;
  gif_upload_url?: string | null;
}

describe.each(databaseTargets)('motion media on $name', ({ open }) => {
  let database: DatabaseHandle;
  let testApp: TestApp;
  let app: FastifyInstance;
  let storage: ObjectStorage;
  const link = new ScriptedLink();
  let orgId: number;
  let superUser: SignedInStaff;
  let booth: Awaited<ReturnType<typeof createBooth>>;
  let files: { poster: Buffer; webp: Buffer; gif: Buffer };

  beforeAll(async () => {
    database = await open();
    testApp = await startApp(
      database,
      {
        OTP_SEND_LIMIT_PER_IP: '1000',
        DEVICE_COMMAND_TIMEOUT_MS: '200',
        CAPTURE_DELIVERY_MARGIN_SECONDS: '0',
        DELIVERY_DEADLINE_MINUTES: String(DELIVERY_MINUTES),
      },
      { deviceLink: link },
    );
    app = testApp.app;
    storage = await createStorage(testApp.config, () => new Date());
    orgId = await createOrganization(database.db, 'Sunrise Mall');
    booth = await createBooth(database.db, link, { orgId, name: 'Atrium booth' });
    superUser = await signedInSuperUser(testApp);
    const still = { width: 480, height: 270, channels: 3 as const, background: '#c03080' };
    files = {
      poster: await makeJpeg(1280),
      webp: await sharp({ create: still }).webp().toBuffer(),
      gif: await sharp({ create: still }).gif().toBuffer(),
    };
  });
  afterAll(async () => {
    await storage?.close();
    await app.close();
    await database.close();
  });

  /** A template of `kind` offered by the organization (slots for its print, if any). */
  async function motionTemplate(
    kind: 'boomerang' | 'gif' | 'video',
    settings: { prints?: boolean; slots?: number; frames?: number; seconds?: number } = {},
  ) {
    const id = await createTemplate(database.db, {
      orgIds: [orgId],
      slots: settings.slots ?? 1,
      orientation: 'landscape',
    });
    await database.db
      .update(templates)
      .set({
        captureKind: kind,
        motionPrints: settings.prints ?? true,
        motionFrames: settings.frames ?? 4,
        motionSeconds: settings.seconds ?? 5,
      })
      .where(eq(templates.id, id));
    return id;
  }

  const rowOf = async (id: number) =>
    (await database.db.select().from(media).where(eq(media.id, id)))[0]!;
  const put = (url: string, body: Buffer, contentType: string) =>
    app.inject({ method: 'PUT', url, payload: body, headers: { 'content-type': contentType } });
  const confirm = (id: number) =>
    app.inject({ method: 'POST', url: `/api/device/media/${id}/uploaded`, headers: booth.auth });
  const regular = (method: 'GET' | 'PATCH', url: string, token: string, payload?: object) =>
    apiCall(app, method, url, token, payload, 'regular');

  /** A motion capture by a new visitor: the answer, the command the booth got and the visitor. */
  async function captured(templateId: number) {
    const person = await signedIn(app, 'regular', undefined, 'Asha Verma');
    const response = await capture(app, person.token, booth.id, templateId);
    expect(response.statusCode, response.body).toBe(200);
    return { person, result: response.json(), sent: link.lastCapture(booth.thingName) };
  }

  /** Uploads every file of a video item as the booth does. */
  async function uploadVideo(upload: MotionUpload) {
    expect((await put(upload.upload_url, MP4, 'video/mp4')).statusCode).toBe(204);
    expect((await put(upload.poster_upload_url!, files.poster, 'image/jpeg')).statusCode).toBe(204);
    expect((await put(upload.preview_upload_url!, files.webp, 'image/webp')).statusCode).toBe(204);
    if (upload.gif_upload_url) {
      expect((await put(upload.gif_upload_url, files.gif, 'image/gif')).statusCode).toBe(204);
    }
  }

  it("staff set a template's capture kind and motion settings; visitors see the kind", async () => {
    const id = await createTemplate(database.db, { orgIds: [orgId], orientation: 'landscape' });
    const patch = (token: string, payload: object) =>
      apiCall(app, 'PATCH', `templates/${id}`, token, payload);

    const changed = await patch(superUser.token, {
      capture_kind: 'boomerang',
      motion_speed: 1.5,
      motion_prints: false,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      capture_kind: 'boomerang',
      motion_frames: 4,
      motion_seconds: 5,
      motion_speed: 1.5,
      motion_prints: false,
    });
    const more = await patch(superUser.token, { motion_frames: 6, motion_seconds: 3.5 });
    expect(more.json()).toMatchObject({ motion_frames: 6, motion_seconds: 3.5, motion_speed: 1.5 });

    for (const [payload, message] of [
      [{ capture_kind: 'slowmo' }, TEMPLATE_MESSAGES.captureKind],
      [{ motion_frames: 7 }, TEMPLATE_MESSAGES.motionFrames],
      [{ motion_frames: 2.5 }, TEMPLATE_MESSAGES.motionFrames],
      [{ motion_seconds: 2.9 }, TEMPLATE_MESSAGES.motionSeconds],
      [{ motion_seconds: '5' }, TEMPLATE_MESSAGES.motionSeconds],
      [{ motion_speed: 2.5 }, TEMPLATE_MESSAGES.motionSpeed],
      [{ motion_speed: 0.25 }, TEMPLATE_MESSAGES.motionSpeed],
      [{ motion_prints: 'yes' }, TEMPLATE_MESSAGES.motionPrints],
    ] as const) {
      const refused = await patch(superUser.token, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json().message, JSON.stringify(payload)).toBe(message);
    }

    // As for the other template fields: privileged staff only.
    const orgAdmin = await signedInOrgStaff(app, database, orgId, 'admin');
    const forbidden = await patch(orgAdmin.token, { capture_kind: 'video' });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().message).toBe(TEMPLATE_MESSAGES.onlyPrivileged);

    const visitor = await signedIn(app, 'regular');
    const listed = await regular('GET', `devices/${booth.id}/templates?limit=50`, visitor.token);
    const items = listed.json<{
      items: { id: number; capture_kind: string; motion_prints: boolean }[];
    }>().items;
    expect(items.find((item) => item.id === id)).toMatchObject({
      capture_kind: 'boomerang',
      motion_prints: false,
    });
    // A photo template always prints.
    expect(
      items.filter((item) => item.capture_kind === 'photo').map((i) => i.motion_prints),
    ).not.toContain(false);
    expect(items.every((item) => item.capture_kind !== undefined)).toBe(true);
  });

  it('a boomerang that prints makes a video item (MP4, poster, preview) and a print', async () => {
    const templateId = await motionTemplate('boomerang', { prints: true, slots: 2 });
    const { person, result, sent } = await captured(templateId);
    // One countdown, then 1.5 s of recording.
    expect(result).toEqual({
      media_ids: [expect.any(Number), expect.any(Number)],
      total_captures: 1,
      capture_kind: 'boomerang',
      record_seconds: 1.5,
    });
    const [video, print] = [await rowOf(result.media_ids[0]), await rowOf(result.media_ids[1])];
    const key = (folder: string, extension: string) =>
      new RegExp(`^media/${person.userId}/${folder}[0-9a-f-]{36}\\.${extension}$`);
    expect(video).toMatchObject({ mediaType: 'video', orientation: 'landscape', gifKey: null });
    expect(video.s3Key).toMatch(key('', 'mp4'));
    expect(video.lowresKey).toMatch(key('lowres/', 'jpg'));
    expect(video.previewKey).toMatch(key('preview/', 'webp'));
    expect(print).toMatchObject({ mediaType: 'image', lowresKey: null, previewKey: null });
    expect(print.s3Key).toMatch(key('', 'jpg'));

    // The command: the kind and its settings, the motion item first, the stills the print needs.
    expect(sent.template).toMatchObject({
      capture_kind: 'boomerang',
      motion: { frames: 4, seconds: 5, speed: 1, print: true },
    });
    expect(sent.total_captures).toBe(2);
    expect(sent.uploads).toEqual([
      {
        media_id: video.id,
        upload_url: expect.stringContaining(video.s3Key),
        content_type: 'video/mp4',
        poster_upload_url: expect.stringContaining(video.lowresKey!),
        preview_upload_url: expect.stringContaining(video.previewKey!),
        gif_upload_url: null,
      },
      {
        media_id: print.id,
        upload_url: expect.stringContaining(print.s3Key),
        content_type: 'image/jpeg',
      },
    ]);
    // Each link takes only its own type.
    const wrongType = await put(sent.uploads[0]!.upload_url, MP4, 'image/jpeg');
    expect(wrongType.statusCode).toBe(400);

    // Due after the countdown and the recording, plus the delivery promise.
    const [session] = await database.db
      .select()
      .from(captures)
      .where(eq(captures.captureId, sent.capture_id));
    expect(session!.deadlineAt.getTime() - session!.acceptedAt!.getTime()).toBe(
      11_500 + DELIVERY_MINUTES * 60_000,
    );
  });

  it('a GIF without a print needs no slots: one video item with its .gif', async () => {
    const templateId = await motionTemplate('gif', { prints: false, slots: 0, frames: 4 });
    const { result, sent } = await captured(templateId);
    expect(result).toEqual({
      media_ids: [expect.any(Number)],
      total_captures: 1,
      capture_kind: 'gif',
      record_seconds: 3,
    });
    const video = await rowOf(result.media_ids[0]);
    expect(video.gifKey).toMatch(/\/gif\/[0-9a-f-]{36}\.gif$/);
    expect(sent.total_captures).toBe(0);
    expect(sent.template.motion).toEqual({ frames: 4, seconds: 5, speed: 1, print: false });
    expect(sent.uploads).toEqual([
      expect.objectContaining({
        media_id: video.id,
        content_type: 'video/mp4',
        gif_upload_url: expect.stringContaining(video.gifKey!),
      }),
    ]);
  });

  it('confirms a video only once every file is there and of its format', async () => {
    const templateId = await motionTemplate('gif', { prints: false, slots: 0 });
    const { sent } = await captured(templateId);
    const upload = sent.uploads[0] as MotionUpload;
    const id = upload.media_id;
    const row = await rowOf(id);

    // The MP4 alone: the others are not there yet, and nothing is deleted.
    expect((await put(upload.upload_url, MP4, 'video/mp4')).statusCode).toBe(204);
    const early = await confirm(id);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(MEDIA_MESSAGES.notUploadedYet);
    expect(await storage.head(row.s3Key)).not.toBeNull();

    // A preview that is no WebP is refused and removed, so the booth sends it again.
    expect((await put(upload.poster_upload_url!, files.poster, 'image/jpeg')).statusCode).toBe(204);
    expect((await put(upload.gif_upload_url!, files.gif, 'image/gif')).statusCode).toBe(204);
    expect((await put(upload.preview_upload_url!, files.gif, 'image/webp')).statusCode).toBe(204);
    const badPreview = await confirm(id);
    expect(badPreview.statusCode).toBe(422);
    expect(badPreview.json().message).toBe(MEDIA_MESSAGES.notVideo);
    expect(await storage.head(row.previewKey!)).toBeNull();
    expect(await storage.head(row.s3Key)).not.toBeNull();

    expect((await put(upload.preview_upload_url!, files.webp, 'image/webp')).statusCode).toBe(204);
    // A poster over the photos' cap is refused and removed as a photo would be (written to the
    // store directly: the local store's own link would refuse it while uploading).
    await storage.put(
      row.lowresKey!,
      Buffer.concat([files.poster, Buffer.alloc(MEDIA_MAX_BYTES)]),
      'image/jpeg',
    );
    const tooLarge = await confirm(id);
    expect(tooLarge.statusCode).toBe(422);
    expect(tooLarge.json().message).toBe(MEDIA_MESSAGES.tooLarge);
    expect(await storage.head(row.lowresKey!)).toBeNull();

    expect((await put(upload.poster_upload_url!, files.poster, 'image/jpeg')).statusCode).toBe(204);
    // An MP4 that is not one is refused and removed too.
    expect(
      (await put(upload.upload_url, Buffer.from('not a video, just text'), 'video/mp4')).statusCode,
    ).toBe(204);
    const badVideo = await confirm(id);
    expect(badVideo.statusCode).toBe(422);
    expect(await storage.head(row.s3Key)).toBeNull();

    // The booth asks for fresh links for what is still waiting: all four files.
    const fresh = await app.inject({
      method: 'POST',
      url: `/api/device/media/${id}/upload-url`,
      headers: booth.auth,
    });
    expect(fresh.statusCode, fresh.body).toBe(200);
    const links = fresh.json<MotionUpload>();
    expect(links).toEqual({
      media_id: id,
      upload_url: expect.stringContaining(row.s3Key),
      content_type: 'video/mp4',
      poster_upload_url: expect.stringContaining(row.lowresKey!),
      preview_upload_url: expect.stringContaining(row.previewKey!),
      gif_upload_url: expect.stringContaining(row.gifKey!),
      expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
    });
    expect((await put(links.upload_url, MP4, 'video/mp4')).statusCode).toBe(204);
    const done = await confirm(id);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ id, is_uploaded: true });

    // Its poster is its preview: the preview worker never takes a video.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await rowOf(id)).toMatchObject({
      isUploaded: true,
      lowresKey: row.lowresKey,
      previewAttempts: 0,
      previewError: null,
    });
  });

  it('lists a video with its MP4, poster, preview and gif everywhere, and streams byte ranges', async () => {
    const templateId = await motionTemplate('gif', { prints: true, slots: 1 });
    const { person, result, sent } = await captured(templateId);
    const [videoId, printId] = result.media_ids as [number, number];
    const upload = sent.uploads[0] as MotionUpload;
    await uploadVideo(upload);
    expect((await confirm(videoId)).statusCode).toBe(200);
    expect(
      (await put(sent.uploads[1]!.upload_url, await makeJpeg(1200), 'image/jpeg')).statusCode,
    ).toBe(204);
    expect((await confirm(printId)).statusCode).toBe(200);
    const row = await rowOf(videoId);

    // My Media: the MP4, the poster as the preview image, the animated WebP and the .gif.
    const mine = (await regular('GET', 'media', person.token)).json<{ items: Media[] }>().items;
    const item = mine.find((entry) => entry.id === videoId)!;
    expect(item).toMatchObject({
      media_type: 'video',
      s3_url: expect.stringContaining(row.s3Key),
      lowres_s3_url: expect.stringContaining(row.lowresKey!),
      preview_s3_url: expect.stringContaining(row.previewKey!),
      gif_s3_url: expect.stringContaining(row.gifKey!),
      is_uploaded: true,
    });
    const printItem = mine.find((entry) => entry.id === printId)!;
    expect(printItem).toMatchObject({
      media_type: 'image',
      preview_s3_url: null,
      gif_s3_url: null,
    });

    // The local store answers byte ranges (a phone's player seeks with them).
    const whole = await app.inject({ url: item.s3_url! });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.rawPayload.equals(MP4)).toBe(true);
    const part = await app.inject({ url: item.s3_url!, headers: { range: 'bytes=4-11' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 4-11/${MP4.length}`);
    expect(part.headers['content-length']).toBe('8');
    expect(part.rawPayload.toString('latin1')).toBe('ftypisom');
    const tail = await app.inject({ url: item.s3_url!, headers: { range: 'bytes=-16' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(MP4.subarray(MP4.length - 16))).toBe(true);
    const beyond = await app.inject({
      url: item.s3_url!,
      headers: { range: `bytes=${MP4.length}-` },
    });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${MP4.length}`);

    // On the wall once public: the wall, the staff views, the kiosk wall and the share page.
    const made = await regular('PATCH', `media/${videoId}`, person.token, { is_public: true });
    expect(made.statusCode, made.body).toBe(200);
    const wall = (await regular('GET', 'media/public?limit=50', person.token)).json<{
      items: Media[];
    }>();
    expect(wall.items.find((entry) => entry.id === videoId)).toMatchObject({
      preview_s3_url: expect.stringContaining(row.previewKey!),
      gif_s3_url: expect.stringContaining(row.gifKey!),
    });
    const all = (
      await apiCall(app, 'GET', 'media/all?limit=50', superUser.token)
    ).json<StaffMediaPage>();
    expect(all.items.find((entry) => entry.id === videoId)).toMatchObject({
      media_type: 'video',
      s3_url: expect.stringContaining(row.s3Key),
      lowres_s3_url: expect.stringContaining(row.lowresKey!),
      preview_s3_url: expect.stringContaining(row.previewKey!),
      gif_s3_url: expect.stringContaining(row.gifKey!),
    });
    const ofOrg = (
      await apiCall(
        app,
        'GET',
        `organizations/${orgId}/media/repost_allowed?limit=50`,
        superUser.token,
      )
    ).json<StaffMediaPage>();
    expect(ofOrg.items.find((entry) => entry.id === videoId)?.preview_s3_url).toContain(
      row.previewKey!,
    );

    const kiosk = await app.inject({ url: `/api/regular/walls/${orgId}` });
    expect(kiosk.statusCode, kiosk.body).toBe(200);
    const shown = kiosk
      .json<{ items: { id: number; [field: string]: unknown }[] }>()
      .items.find((entry) => entry.id === videoId);
    const share = `/p/${row.publicId}`;
    expect(shown).toMatchObject({
      media_type: 'video',
      image_url: `${share}/image.jpg`,
      video_url: `${share}/video.mp4`,
      preview_s3_url: `${share}/preview.webp`,
      gif_s3_url: `${share}/animation.gif`,
    });
    for (const [path, type, body] of [
      ['video.mp4', 'video/mp4', MP4],
      ['preview.webp', 'image/webp', files.webp],
      ['animation.gif', 'image/gif', files.gif],
    ] as const) {
      const redirect = await app.inject({ url: `${share}/${path}` });
      expect(redirect.statusCode, path).toBe(302);
      const file = await app.inject({ url: redirect.headers.location! });
      expect(file.headers['content-type'], path).toBe(type);
      expect(file.rawPayload.equals(body), path).toBe(true);
    }
    // The share page plays the MP4 over its poster.
    const page = await app.inject({ url: share });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`${share}/video.mp4`);
    expect(page.body).toContain(`${share}/image.jpg`);
    const picture = await app.inject({ url: `${share}/image.jpg` });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/jpeg');
    // A print has no preview or gif to serve.
    const printRow = await rowOf(printId);
    await regular('PATCH', `media/${printId}`, person.token, { is_public: true });
    expect((await app.inject({ url: `/p/${printRow.publicId}/preview.webp` })).statusCode).toBe(
      404,
    );

    // Statistics count photos and videos apart.
    const stats = (
      await apiCall(app, 'GET', `organizations/${orgId}/stats`, superUser.token)
    ).json<OrganizationStats>();
    const counted = await database.db
      .select({ type: media.mediaType })
      .from(media)
      .where(eq(media.isUploaded, true));
    expect(stats.total_videos).toBe(counted.filter((entry) => entry.type === 'video').length);
    expect(stats.total_photos).toBe(counted.filter((entry) => entry.type === 'image').length);
    expect(stats.total_videos).toBeGreaterThanOrEqual(2);
    expect(stats.total_photos + stats.total_videos).toBe(stats.total_media);
  });

  it('erasing a video removes its MP4, poster, animated WebP and gif from the store', async () => {
    const templateId = await motionTemplate('gif', { prints: false, slots: 0 });
    const { result, sent } = await captured(templateId);
    await uploadVideo(sent.uploads[0] as MotionUpload);
    expect((await confirm(result.media_ids[0])).statusCode).toBe(200);
    const row = await rowOf(result.media_ids[0]);
    const keys = [row.s3Key, row.lowresKey!, row.previewKey!, row.gifKey!];
    for (const key of keys) expect(await storage.head(key), key).not.toBeNull();

    const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
    const now = () => new Date();
    const cleanup = new ObjectCleanup({ db: database.db, storage, now, log });
    const erased = await new MediaEraser({ db: database.db, cleanup, log, now }).erase([row.id]);
    expect(erased.media).toBe(1);
    for (const key of keys) expect(await storage.head(key), key).toBeNull();
  });
});
