import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { devices, media } from '../../src/db/schema.js';
import { PUBLIC_ID_PATTERN } from '../../src/lib/share-paths.js';
import { LocalStorage } from '../../src/modules/storage/local-storage.js';
import { databaseTargets } from '../databases.js';
import { createOrg, eventually, signedInProductAdmin, startApp } from '../harness.js';
import { regular, staff, visitor } from '../wall/wall-suite.js';

/** A real JPEG, so the share image is really made from it (sharp). */
const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 120 } } })
    .jpeg()
    .toBuffer();

/** The content of `<meta property|name="key" content="…">` in a page. */
function meta(page: string, key: string): string | undefined {
  const match = new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)" ?/?>`).exec(page);
  return match?.[1];
}

describe.each(databaseTargets)('share pages and the public wall on $name', ({ open }) => {
  let database: DatabaseHandle;
  let storage: LocalStorage;
  let world: Awaited<ReturnType<typeof startApp>> & { orgId: number; boothId: number };
  let otherOrgId: number;
  let owner: Awaited<ReturnType<typeof visitor>>;
  let minute = 0;

  /** An uploaded item of the owner at the booth with its file in the store. */
  async function item(
    values: {
      isPublic?: boolean;
      caption?: string | null;
      mediaType?: 'image' | 'video';
      orgId?: number;
      userId?: number;
      /** A motion item's poster size (the booth makes it at the MP4's size). */
      poster?: { width: number; height: number };
    } = {},
  ) {
    minute += 1;
    const captureId = randomUUID();
    const video = values.mediaType === 'video';
    const s3Key = `media/${captureId}.${video ? 'mp4' : 'jpg'}`;
    const lowresKey = `previews/${captureId}.jpg`;
    if (video) {
      await storage.put(s3Key, Buffer.from('not really an mp4, but bytes'), 'video/mp4');
      const poster = values.poster ?? { width: 320, height: 480 };
      await storage.put(lowresKey, await jpeg(poster.width, poster.height), 'image/jpeg');
    } else {
      await storage.put(s3Key, await jpeg(1800, 1200), 'image/jpeg');
    }
    const [row] = await database.db
      .insert(media)
      .values({
        userId: values.userId ?? owner.userId,
        deviceId: world.boothId,
        orgId: values.orgId ?? world.orgId,
        captureId,
        mediaType: values.mediaType ?? 'image',
        s3Key,
        lowresKey: video ? lowresKey : null,
        orientation: 'landscape',
        caption: values.caption ?? null,
        isPublic: values.isPublic ?? true,
        isUploaded: true,
        createdAt: new Date(Date.UTC(2025, 9, 1, 0, minute)),
      })
      .returning({ id: media.id, publicId: media.publicId });
    return row!;
  }

  const page = (publicId: string) =>
    world.app.inject({ method: 'GET', url: `/p/${publicId}`, headers: { host: 'photos.test' } });
  const image = (publicId: string, width?: number) =>
    world.app.inject({
      method: 'GET',
      url: `/p/${publicId}/image.jpg${width ? `?w=${width}` : ''}`,
    });

  beforeAll(async () => {
    database = await open();
    storage = new LocalStorage({
      root: mkdtempSync(path.join(os.tmpdir(), 'flashbooth-share-')),
      signingKey: randomBytes(32),
      publicUrl: '',
      now: () => new Date(),
    });
    await storage.init();
    const testApp = await startApp(
      database,
      { OTP_SEND_LIMIT_PER_IP: '100000', OTP_GLOBAL_HOURLY_LIMIT: '100000' },
      { storage },
    );
    const orgId = await createOrg(database, 'Sunrise Mall');
    otherOrgId = await createOrg(database, 'Harbour Point');
    const [booth] = await database.db
      .insert(devices)
      .values({ name: 'Atrium booth', thingName: `share-${randomUUID()}`, orgId, secretHash: 'x' })
      .returning({ id: devices.id });
    world = { ...testApp, orgId, boothId: booth!.id };
    owner = await visitor(world.app, 'Asha Rao');
  });
  afterAll(async () => {
    await world.app.close();
    await database.close();
  });

  describe('the public wall', () => {
    it('answers without a session, each item with its share page', async () => {
      const shown = await item({ caption: 'Sunset' });
      const response = await regular(world.app, 'GET', 'media/public', undefined);
      expect(response.statusCode).toBe(200);
      const body = response.json<{ items: { id: number; share_path: string | null }[] }>();
      const found = body.items.find((entry) => entry.id === shown.id);
      expect(found?.share_path).toBe(`/p/${shown.publicId}`);
    });

    it('refuses likes and comments without a session (401) and changes nothing', async () => {
      const shown = await item();
      for (const [method, url, payload] of [
        ['POST', `media/${shown.id}/likes`, undefined],
        ['DELETE', `media/${shown.id}/likes`, undefined],
        ['POST', `media/${shown.id}/comments`, { comment_text: 'Nice' }],
      ] as const) {
        const response = await regular(world.app, method, url, undefined, payload);
        expect(response.statusCode, `${method} ${url}`).toBe(401);
      }
      const [row] = await database.db
        .select({ likes: media.likesCount })
        .from(media)
        .where(eq(media.id, shown.id));
      expect(row!.likes).toBe(0);
      const comments = await regular(world.app, 'GET', `media/${shown.id}/comments`, undefined);
      expect(comments.json<{ total_count: number }>().total_count).toBe(0);
    });

    it("gives My Media's public items a share path and private ones none", async () => {
      const shown = await item();
      const hidden = await item({ isPublic: false });
      const response = await regular(world.app, 'GET', 'media?limit=10', owner.token);
      const items = response.json<{ items: { id: number; share_path: string | null }[] }>().items;
      expect(items.find((entry) => entry.id === shown.id)?.share_path).toBe(`/p/${shown.publicId}`);
      expect(items.find((entry) => entry.id === hidden.id)?.share_path).toBeNull();
    });
  });

  describe('share pages', () => {
    it('render the photo, names, likes and comments with Open Graph and Twitter tags', async () => {
      const shown = await item({ caption: 'Best night' });
      const friend = await visitor(world.app, 'Ben Friend');
      await regular(world.app, 'POST', `media/${shown.id}/likes`, friend.token);
      await regular(world.app, 'POST', `media/${shown.id}/comments`, friend.token, {
        comment_text: 'Love it',
      });

      const response = await page(shown.publicId);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      // Opened from a shared link: no browsing context group switch (lib/opener-policy.ts).
      expect(response.headers['cross-origin-opener-policy']).toBeUndefined();
      const html = response.body;
      expect(meta(html, 'og:title')).toBe('Asha at Sunrise Mall');
      expect(meta(html, 'og:description')).toBe('Best night');
      expect(meta(html, 'og:url')).toBe(`http://photos.test/p/${shown.publicId}`);
      expect(meta(html, 'og:image')).toBe(`http://photos.test/p/${shown.publicId}/image.jpg`);
      expect(meta(html, 'og:image:width')).toBe('1200');
      expect(meta(html, 'og:image:height')).toBe('800');
      expect(meta(html, 'twitter:card')).toBe('summary_large_image');
      expect(meta(html, 'twitter:image')).toBe(meta(html, 'og:image'));
      expect(meta(html, 'og:video')).toBeUndefined();
      // The owner's first name only; the venue, the booth, the counts and the comment.
      expect(html).not.toContain('Rao');
      expect(html).toContain('Atrium booth');
      expect(html).toContain('1 like · 1 comment');
      expect(html).toContain('Ben Friend');
      expect(html).toContain('Love it');
      expect(html).toContain(`href="/b/${world.boothId}">Get your own at Sunrise Mall</a>`);
      // Works with scripts off: there are none.
      expect(html).not.toMatch(/<script/i);

      // The image address loads without a session: a JPEG 1200 px wide, cached briefly.
      const og = await image(shown.publicId);
      expect(og.statusCode).toBe(200);
      expect(og.headers['content-type']).toBe('image/jpeg');
      expect(og.headers['cache-control']).toBe('public, max-age=60');
      const size = await sharp(og.rawPayload).metadata();
      expect([size.format, size.width, size.height]).toEqual(['jpeg', 1200, 800]);
      const small = await sharp((await image(shown.publicId, 600)).rawPayload).metadata();
      expect(small.width).toBe(600);
      // Made once and kept in the object store.
      expect(await storage.head(`share/${shown.id}/w1200.jpg`)).not.toBeNull();
    });

    it('answer 404 (page and image) as soon as the owner makes the item private', async () => {
      const shown = await item();
      expect((await page(shown.publicId)).statusCode).toBe(200);
      expect((await image(shown.publicId)).statusCode).toBe(200);
      const made = await regular(world.app, 'PATCH', `media/${shown.id}`, owner.token, {
        is_public: false,
      });
      expect(made.statusCode).toBe(200);
      const gone = await page(shown.publicId);
      expect(gone.statusCode).toBe(404);
      expect(gone.headers['content-type']).toMatch(/^text\/html/);
      expect(gone.headers['cross-origin-opener-policy']).toBeUndefined();
      expect(gone.body).toContain('This photo is not shared');
      expect(gone.body).not.toContain('og:image');
      expect((await image(shown.publicId)).statusCode).toBe(404);
      expect((await image(shown.publicId, 600)).statusCode).toBe(404);
    });

    it('answer 404 for an item a moderator hid, and for ids that are not public ids', async () => {
      const shown = await item();
      const admin = await signedInProductAdmin(world.app, database);
      expect(
        (await staff(world.app, 'POST', `media/${shown.id}/hide`, admin.token)).statusCode,
      ).toBe(200);
      expect((await page(shown.publicId)).statusCode).toBe(404);
      expect((await image(shown.publicId)).statusCode).toBe(404);
      for (const id of [String(shown.id), 'x'.repeat(22), '..%2F..%2Fetc', 'a'.repeat(64)]) {
        expect((await page(id)).statusCode, id).toBe(404);
      }
    });

    it('escape captions, names and comments', async () => {
      const attacker = await visitor(world.app, '<img src=x onerror=alert(1)> Mallory');
      const shown = await item({
        caption: '<script>alert("caption")</script> "quoted" & \'single\'',
        userId: attacker.userId,
      });
      await regular(world.app, 'POST', `media/${shown.id}/comments`, attacker.token, {
        comment_text: '</p><script>alert(document.cookie)</script>',
      });
      const html = (await page(shown.publicId)).body;
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toContain('<img src=x');
      expect(html).toContain('&lt;script&gt;alert(&quot;caption&quot;)&lt;/script&gt;');
      expect(html).toContain('&lt;/p&gt;&lt;script&gt;alert(document.cookie)&lt;/script&gt;');
      expect(meta(html, 'og:title')).toBe('&lt;img at Sunrise Mall');
      expect(meta(html, 'og:description')).toBe(
        '&lt;script&gt;alert(&quot;caption&quot;)&lt;/script&gt; &quot;quoted&quot; &amp; &#39;single&#39;',
      );
    });

    it('carry og:video and the poster for a motion item, and serve its video', async () => {
      const clip = await item({ mediaType: 'video' });
      const html = (await page(clip.publicId)).body;
      expect(meta(html, 'og:type')).toBe('video.other');
      expect(meta(html, 'og:video')).toBe(`http://photos.test/p/${clip.publicId}/video.mp4`);
      expect(meta(html, 'og:video:type')).toBe('video/mp4');
      expect(meta(html, 'og:image')).toBe(`http://photos.test/p/${clip.publicId}/image.jpg`);
      expect(html).toMatch(`<source src="/p/${clip.publicId}/video.mp4" type="video/mp4"`);
      const video = await world.app.inject({ method: 'GET', url: `/p/${clip.publicId}/video.mp4` });
      expect(video.statusCode).toBe(302);
      expect(video.headers['cache-control']).toBe('no-store');
      // To the stored file (S3 answers the byte ranges phones' video players ask for).
      const file = await world.app.inject({ method: 'GET', url: String(video.headers.location) });
      expect(file.statusCode).toBe(200);
      expect(file.body).toBe('not really an mp4, but bytes');
      // A photo has no video.
      const photo = await item();
      const none = await world.app.inject({ method: 'GET', url: `/p/${photo.publicId}/video.mp4` });
      expect(none.statusCode).toBe(404);
    });

    it('play a motion item as everywhere else: muted, looping, on its own, tap to pause; og:video its real size (issue 38)', async () => {
      // A boomerang framed by a 3:2 slot: 1280×854, its poster the same size.
      const clip = await item({ mediaType: 'video', poster: { width: 1280, height: 854 } });
      const html = (await page(clip.publicId)).body;
      expect(meta(html, 'og:video:width')).toBe('1280');
      expect(meta(html, 'og:video:height')).toBe('854');
      // The link preview's image stays 1200 wide, at the clip's shape.
      expect(meta(html, 'og:image:width')).toBe('1200');
      expect(meta(html, 'og:image:height')).toBe('801');
      const tag = /<video[^>]*>/.exec(html)?.[0] ?? '';
      for (const attribute of ['autoplay', 'muted', 'loop', 'playsinline', 'data-share-video']) {
        expect(tag, attribute).toMatch(new RegExp(`\\s${attribute}[\\s>]`));
      }
      expect(tag).not.toMatch(/\scontrols[\s>=]/);
      expect(tag).not.toMatch(/preload="none"/);
      expect(tag).toMatch(`poster="/p/${clip.publicId}/image.jpg"`);
      expect(tag).toMatch('width="1280" height="854"');
      // Tap to pause: the page's script, from the page's own origin (the CSP allows no inline one).
      expect(html).toMatch('<script src="/p/share.js" defer></script>');
      expect(html).toMatch(/<button\s+type="button"\s+class="toggle"\s+data-share-toggle/);
      const script = await world.app.inject({ method: 'GET', url: '/p/share.js' });
      expect(script.statusCode).toBe(200);
      expect(script.headers['content-type']).toMatch(/^text\/javascript/);
      expect(script.body).toContain("addEventListener('click', toggle)");
      expect(String(script.headers['content-security-policy'])).toContain("script-src 'self'");
      // A photo's page has no script.
      const photo = await item();
      expect((await page(photo.publicId)).body).not.toContain('<script');
    });

    it('use unguessable public ids: not the media id, not sequential, 122 random bits', async () => {
      const made = [];
      for (let i = 0; i < 40; i += 1) made.push(await item({ isPublic: false }));
      const ids = made.map((row) => row.publicId);
      expect(new Set(ids).size).toBe(ids.length);
      for (const row of made) {
        expect(row.publicId).toMatch(PUBLIC_ID_PATTERN);
        expect(row.publicId).not.toBe(String(row.id));
        // 16 bytes: a version-4 UUID (6 fixed bits, 122 random).
        const bytes = Buffer.from(row.publicId, 'base64url');
        expect(bytes).toHaveLength(16);
        expect(bytes[6]! >> 4).toBe(4);
      }
      // Consecutive rows share no prefix beyond chance, and the bits are balanced.
      const sorted = [...ids].sort();
      const shared = sorted.slice(1).map((id, i) => {
        let n = 0;
        while (n < id.length && id[n] === sorted[i]![n]) n += 1;
        return n;
      });
      expect(Math.max(...shared)).toBeLessThan(5);
      const ones = ids
        .flatMap((id) => [...Buffer.from(id, 'base64url')])
        .reduce((sum, byte) => sum + byte.toString(2).replaceAll('0', '').length, 0);
      const ratio = ones / (ids.length * 128);
      expect(ratio).toBeGreaterThan(0.4);
      expect(ratio).toBeLessThan(0.6);
    });
  });

  describe('the kiosk wall', () => {
    it("lists an organization's newest public items without a session, first names only", async () => {
      const older = await item({ caption: 'First' });
      const privateOne = await item({ isPublic: false });
      const elsewhere = await item({ orgId: otherOrgId });
      const newest = await item({ caption: 'Latest' });
      const response = await regular(world.app, 'GET', `walls/${world.orgId}`, undefined);
      expect(response.statusCode).toBe(200);
      const body = response.json<{
        organization: { id: number; name: string; logo_url: string | null };
        booths: { id: number; name: string }[];
        items: { id: number; first_name: string; image_url: string; device_id: number }[];
      }>();
      expect(body.organization).toEqual({ id: world.orgId, name: 'Sunrise Mall', logo_url: null });
      expect(body.booths).toEqual([{ id: world.boothId, name: 'Atrium booth' }]);
      const ids = body.items.map((entry) => entry.id);
      expect(ids[0]).toBe(newest.id);
      expect(ids).toContain(older.id);
      expect(ids).not.toContain(privateOne.id);
      expect(ids).not.toContain(elsewhere.id);
      expect(body.items[0]).toMatchObject({
        first_name: 'Asha',
        image_url: `/p/${newest.publicId}/image.jpg`,
        device_id: world.boothId,
      });
      expect(JSON.stringify(body)).not.toContain('Rao');
      expect((await regular(world.app, 'GET', 'walls/999999', undefined)).statusCode).toBe(404);
    });

    it('streams when an item of the organization comes onto the wall or leaves it', async () => {
      const address = await world.app.listen({ port: 0, host: '127.0.0.1' });
      const controller = new AbortController();
      const response = await fetch(`${address}/api/regular/walls/${world.orgId}/events`, {
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      let text = '';
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      void (async () => {
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return;
            text += decoder.decode(value, { stream: true });
          }
        } catch {
          // aborted
        }
      })();
      try {
        await eventually(
          () => text,
          (seen) => seen.includes(': connected'),
        );
        const quiet = await item({ isPublic: false });
        const elsewhere = await item({ isPublic: false, orgId: otherOrgId });
        const other = await visitor(world.app, 'Other Owner');
        await database.db
          .update(media)
          .set({ userId: other.userId })
          .where(eq(media.id, elsewhere.id));
        await regular(world.app, 'PATCH', `media/${elsewhere.id}`, other.token, {
          is_public: true,
        });
        await regular(world.app, 'PATCH', `media/${quiet.id}`, owner.token, { is_public: true });
        await eventually(
          () => text,
          (seen) => seen.includes(`"media_id":${quiet.id}`),
        );
        expect(text).toContain(`event: wall\ndata: {"media_id":${quiet.id},"on_wall":true}`);
        expect(text).not.toContain(`"media_id":${elsewhere.id}`);
        await regular(world.app, 'PATCH', `media/${quiet.id}`, owner.token, { is_public: false });
        await eventually(
          () => text,
          (seen) => seen.includes(`{"media_id":${quiet.id},"on_wall":false}`),
        );
        // A moderator's hide and show reach the screen too.
        const shown = await item();
        const admin = await signedInProductAdmin(world.app, database);
        await staff(world.app, 'POST', `media/${shown.id}/hide`, admin.token);
        await eventually(
          () => text,
          (seen) => seen.includes(`{"media_id":${shown.id},"on_wall":false}`),
        );
        await staff(world.app, 'DELETE', `media/${shown.id}/hide`, admin.token);
        await eventually(
          () => text,
          (seen) => seen.includes(`{"media_id":${shown.id},"on_wall":true}`),
        );
      } finally {
        controller.abort();
      }
    });

    it('refuses a stream for an organization that does not exist', async () => {
      const response = await regular(world.app, 'GET', 'walls/999999/events', undefined);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'not_found' });
    });
  });
});
