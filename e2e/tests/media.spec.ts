import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { captureAt, sharedRig, startBooth, type TestBooth } from './booths';
import { signInNewVisitor, staffApi, uniqueTag } from './support';

/*
 * My Media against real captures. Each worker registers two booths of its own and runs them with
 * the real booth agent (simulated camera and printer) with no countdown, so a capture takes a
 * second instead of 10 s: the server sends the capture command over MQTT, the agent composes,
 * uploads and confirms, and the server makes the low-resolution preview, as at a venue.
 */

interface Rig {
  orgName: string;
  lobby: TestBooth;
  rooftop: TestBooth;
  landscapeTemplate: number;
  portraitTemplate: number;
}

interface MediaItem {
  id: number;
  media_type: 'image' | 'video';
  lowres_s3_url: string | null;
  s3_url: string | null;
  s3_key: string;
  org_name: string | null;
  device_name: string | null;
  created_at: string;
  orientation: 'landscape' | 'portrait';
  caption: string | null;
  is_public: boolean;
  is_repost_allowed: boolean;
  is_downloaded: boolean;
  is_shared: boolean;
  is_uploaded: boolean;
}

const MESSAGES = {
  empty: 'No media found.',
  loadFailed: 'Failed to load media. Please try again.',
  publicFailed: 'Failed to toggle public status. Please try again.',
  repostFailed: 'Failed to update repost status. Please try again.',
  captionFailed: 'Failed to update caption. Please try again.',
  captionUnchanged: 'No changes detected.',
  captionSaved: 'Caption saved.',
  captionRemoved: 'Caption removed.',
  downloadStarted: 'Download started!',
  shared: 'Media shared successfully!',
  shareUnsupported: 'Sharing is not supported on this browser. Please download the image manually.',
};

/** The worker's booths and templates, made by the first test that needs them. */
const theRig = sharedRig<Rig>(
  async (request, serverUrl) => {
    const tag = uniqueTag();
    const staff = await staffApi(request);
    const orgId = await staff.demoOrgId();
    const lobby = await staff.createBooth(`Lobby Booth ${tag}`, orgId);
    const rooftop = await staff.createBooth(`Rooftop Booth ${tag}`, orgId);
    const landscapeTemplate = await staff.createTemplate(orgId, `${tag} Wide`, 'landscape', {
      slots: 1,
    });
    const portraitTemplate = await staff.createTemplate(orgId, `${tag} Tall`, 'portrait', {
      slots: 1,
    });
    return {
      orgName: lobby.orgName,
      lobby: await startBooth(lobby, serverUrl),
      rooftop: await startBooth(rooftop, serverUrl),
      landscapeTemplate,
      portraitTemplate,
    };
  },
  (rig) => Promise.all([rig.lobby.agent.stop(), rig.rooftop.agent.stop()]),
);

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A real capture at the booth for the visitor; resolves once the photo is uploaded. */
async function capture(
  request: APIRequestContext,
  token: string,
  booth: TestBooth,
  templateId: number,
): Promise<number> {
  const id = await captureAt(request, token, booth, templateId);
  const uploaded = await request.get(`/api/regular/media/uploaded?media_ids=${id}`, {
    headers: bearer(token),
  });
  expect(await uploaded.json()).toMatchObject({ media_items: [{ id, is_uploaded: true }] });
  // The server makes the low-resolution preview just after the confirmation (until then the
  // item's lowres link is the HD image): wait for it, so the cards show the real preview.
  await expect
    .poll(async () => (await mediaItem(request, token, id)).lowres_s3_url ?? '', {
      timeout: 20_000,
    })
    .toContain('/lowres/');
  return id;
}

/** A new visitor signed in to the page with one real capture; answers their token and its id. */
async function visitorWithCapture(
  page: Page,
  request: APIRequestContext,
  baseURL: string | undefined,
  booth: 'lobby' | 'rooftop' = 'lobby',
  template: 'landscapeTemplate' | 'portraitTemplate' = 'landscapeTemplate',
) {
  const rig = await theRig(request, baseURL);
  const token = await signInNewVisitor(page);
  return { token, id: await capture(request, token, rig[booth], rig[template]) };
}

async function myMedia(request: APIRequestContext, token: string): Promise<MediaItem[]> {
  const response = await request.get('/api/regular/media?limit=50&offset=0', {
    headers: bearer(token),
  });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { items: MediaItem[] }).items;
}

async function mediaItem(request: APIRequestContext, token: string, id: number) {
  const item = (await myMedia(request, token)).find((candidate) => candidate.id === id);
  expect(item, `media ${id} is listed`).toBeDefined();
  return item!;
}

const cards = (page: Page) => page.getByTestId('media-card');
const card = (page: Page, id: number) =>
  page.locator(`[data-testid="media-card"][data-media-id="${id}"]`);
const cardIds = (page: Page) =>
  cards(page).evaluateAll((nodes) =>
    nodes.map((node) => Number(node.getAttribute('data-media-id'))),
  );
const toast = (page: Page) => page.locator('.toast-region .status');

async function openMyMedia(page: Page) {
  await page.goto('/regular/media');
  await expect(page.getByRole('heading', { level: 1, name: 'My Media' })).toBeVisible();
}

async function search(page: Page, term: string, via: 'enter' | 'button' = 'enter') {
  const box = page.getByRole('searchbox', { name: 'Search my media' });
  await box.fill(term);
  if (via === 'enter') await box.press('Enter');
  else await page.getByRole('button', { name: 'Search', exact: true }).click();
}

/** Width over height of the card's preview frame. */
async function previewRatio(item: Locator): Promise<number> {
  const box = await item.locator('.media-card-preview').boundingBox();
  expect(box).not.toBeNull();
  return box!.width / box!.height;
}

/** A presigned link without its signature and expiry. */
const unsigned = (url: string) => url.split('?')[0]!;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** dd/mm/yyyy hh:mm of a zone-less UTC timestamp, as the spec shows it. */
function shownTime(utc: string): string {
  const [, year, month, day, hour, minute] = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(utc)!;
  return `${day}/${month}/${year} ${hour}:${minute}`;
}

test.describe('My Media', () => {
  test(
    'lists the visitor’s captures newest first with their previews, and search narrows them',
    { tag: '@flow' },
    async ({ page, request, baseURL }) => {
      test.setTimeout(90_000);
      const { orgName, lobby, rooftop, landscapeTemplate, portraitTemplate } = await theRig(
        request,
        baseURL,
      );
      const token = await signInNewVisitor(page);
      await capture(request, token, lobby, landscapeTemplate);
      await capture(request, token, lobby, portraitTemplate);
      await capture(request, token, rooftop, landscapeTemplate);
      const items = await myMedia(request, token);
      expect(items).toHaveLength(3);

      // Skeletons while the page loads: hold the list back until they have been seen.
      let releaseList!: () => void;
      const listHeld = new Promise<void>((resolve) => {
        releaseList = resolve;
      });
      await page.route('**/api/regular/media?*', async (route) => {
        await listHeld;
        await route.fallback();
      });
      await page.goto('/regular/media');
      await expect(page.getByTestId('media-skeleton').first()).toBeVisible();
      await expect(
        page.getByRole('status').filter({ hasText: 'Loading your media…' }),
      ).toBeAttached();
      releaseList();
      await expect(cards(page)).toHaveCount(3);
      await page.unrouteAll({ behavior: 'wait' });
      await expect(page.getByTestId('media-skeleton')).toHaveCount(0);

      // Newest first, each with its booth, time and low-resolution preview at the template's ratio.
      expect(await cardIds(page)).toEqual(items.map((item) => item.id));
      for (const item of items) {
        const shown = card(page, item.id);
        await shown.scrollIntoViewIfNeeded();
        await expect(shown.getByRole('heading', { level: 2 })).toHaveText(
          `${orgName} · ${item.device_name}`,
        );
        await expect(shown.locator('time')).toHaveText(shownTime(item.created_at));
        const image = shown.locator('.media-card-preview img');
        // The same object as the API's preview link (each response signs its links afresh).
        expect(item.lowres_s3_url).toContain('/lowres/');
        await expect(image).toHaveAttribute(
          'src',
          new RegExp(`^${escapeRegExp(unsigned(item.lowres_s3_url!))}\\?`),
        );
        // Really loaded, and really the preview: at most 1200 px wide (the print is 3600 or 2400).
        await expect
          .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
          .toBeGreaterThan(0);
        expect(
          await image.evaluate((img: HTMLImageElement) => img.naturalWidth),
        ).toBeLessThanOrEqual(1200);
        expect(await previewRatio(shown)).toBeCloseTo(
          item.orientation === 'landscape' ? 3 / 2 : 2 / 3,
          1,
        );
        await expect(shown.getByRole('button', { name: 'Download HD' })).toBeVisible();
        // Only public items have a caption box.
        await expect(shown.getByRole('textbox', { name: 'Caption' })).toHaveCount(0);
      }
      expect(items.map((item) => item.orientation)).toEqual(['landscape', 'portrait', 'landscape']);
      await expect(page.getByRole('navigation', { name: 'My Media pages' })).toHaveCount(0);

      await search(page, rooftop.name);
      await expect(cards(page)).toHaveCount(1);
      await expect(cards(page)).toContainText(rooftop.name);
      await search(page, lobby.name, 'button');
      await expect(cards(page)).toHaveCount(2);
      expect(await cardIds(page)).toEqual(items.slice(1).map((item) => item.id));
      await search(page, `${lobby.name} nothing like this`);
      await expect(page.getByText(MESSAGES.empty)).toBeVisible();
      await expect(cards(page)).toHaveCount(0);
      // Emptying the box shows everything again.
      await page.getByRole('searchbox', { name: 'Search my media' }).fill('');
      await expect(cards(page)).toHaveCount(3);
    },
  );

  test(
    'Public Wall opens the caption box; the caption and Allow Repost are saved',
    { tag: '@flow' },
    async ({ page, request, baseURL }) => {
      const { token, id } = await visitorWithCapture(page, request, baseURL);
      await openMyMedia(page);

      const item = card(page, id);
      const publicWall = item.getByRole('switch', { name: 'Public Wall' });
      const repost = item.getByRole('switch', { name: 'Allow Repost' });
      const caption = item.getByRole('textbox', { name: 'Caption' });
      await expect(publicWall).not.toBeChecked();
      await expect(repost).toBeChecked();
      await expect(caption).toHaveCount(0);

      await publicWall.click();
      await expect(publicWall).toBeChecked();
      await expect(caption).toBeVisible();
      await expect.poll(async () => (await mediaItem(request, token, id)).is_public).toBe(true);

      // Trimmed when saved; saving it again unchanged says so and sends nothing.
      await caption.fill('  Sunset with the team  ');
      await item.getByRole('button', { name: 'Save' }).click();
      await expect
        .poll(async () => (await mediaItem(request, token, id)).caption)
        .toBe('Sunset with the team');
      await expect(caption).toHaveValue('Sunset with the team');
      let patches = 0;
      page.on('request', (sent) => {
        if (sent.method() === 'PATCH') patches += 1;
      });
      await caption.press('Enter');
      await expect(toast(page)).toHaveText(MESSAGES.captionUnchanged);
      expect(patches).toBe(0);

      // From the keyboard: the switch keeps the focus and flips with Space.
      await repost.focus();
      await page.keyboard.press('Space');
      await expect(repost).not.toBeChecked();
      await expect(repost).toBeFocused();
      await expect
        .poll(async () => (await mediaItem(request, token, id)).is_repost_allowed)
        .toBe(false);

      await page.reload();
      await expect(publicWall).toBeChecked();
      await expect(caption).toHaveValue('Sunset with the team');
      await expect(repost).not.toBeChecked();

      // The label flips its switch too.
      await item.locator('label', { hasText: 'Allow Repost' }).click();
      await expect(repost).toBeChecked();
      await expect
        .poll(async () => (await mediaItem(request, token, id)).is_repost_allowed)
        .toBe(true);

      // Off the wall: no caption box; the caption itself is kept.
      await publicWall.click();
      await expect(publicWall).not.toBeChecked();
      await expect(caption).toHaveCount(0);
      await expect.poll(async () => (await mediaItem(request, token, id)).is_public).toBe(false);
      expect((await mediaItem(request, token, id)).caption).toBe('Sunset with the team');
    },
  );

  test(
    'saving or clearing a caption says so, and each new message replaces the last at once',
    { tag: '@flow' },
    async ({ page, request, baseURL }) => {
      const { token, id } = await visitorWithCapture(page, request, baseURL);
      await openMyMedia(page);
      const item = card(page, id);
      await item.getByRole('switch', { name: 'Public Wall' }).click();
      const caption = item.getByRole('textbox', { name: 'Caption' });
      const save = item.getByRole('button', { name: 'Save' });
      await expect(caption).toBeVisible();

      // Nothing typed yet: nothing to save.
      await save.click();
      await expect(toast(page)).toHaveText(MESSAGES.captionUnchanged);
      // Saved: confirmed at once, in place of the earlier message (well before its 5 s are over).
      await caption.fill('  Balloons at noon ');
      await save.click();
      await expect(toast(page)).toHaveText(MESSAGES.captionSaved, { timeout: 2000 });
      await expect(toast(page)).toHaveCount(1);
      await expect(page.getByTestId('status-success')).toBeVisible();
      expect((await mediaItem(request, token, id)).caption).toBe('Balloons at noon');

      // Cleared: removed, and said so.
      await caption.fill('   ');
      await caption.press('Enter');
      await expect(toast(page)).toHaveText(MESSAGES.captionRemoved, { timeout: 2000 });
      await expect(caption).toHaveValue('');
      expect((await mediaItem(request, token, id)).caption).toBeNull();
    },
  );

  test(
    'a change the server refuses is undone and explained, and the message fades after 5 s',
    { tag: '@flow' },
    async ({ page, request, baseURL }) => {
      const { token, id } = await visitorWithCapture(
        page,
        request,
        baseURL,
        'lobby',
        'portraitTemplate',
      );
      await openMyMedia(page);

      const item = card(page, id);
      const publicWall = item.getByRole('switch', { name: 'Public Wall' });
      const repost = item.getByRole('switch', { name: 'Allow Repost' });
      const failure = { status: 500, json: { message: 'Something went wrong.', code: 'internal' } };
      const failPatches = (pattern: string) =>
        page.route(pattern, (route) =>
          route.request().method() === 'PATCH' ? route.fulfill(failure) : route.fallback(),
        );

      await failPatches(`**/api/regular/media/${id}`);
      await publicWall.click();
      await expect(toast(page)).toHaveText(MESSAGES.publicFailed);
      await expect(page.getByTestId('status-error')).toBeVisible();
      await expect(publicWall).not.toBeChecked();
      await expect(item.getByRole('textbox', { name: 'Caption' })).toHaveCount(0);

      await failPatches('**/api/regular/media/repost_allowed');
      await repost.click();
      // The new message replaces the old one: never two at once.
      await expect(toast(page)).toHaveText(MESSAGES.repostFailed);
      await expect(toast(page)).toHaveCount(1);
      await expect(repost).toBeChecked();
      const shownAt = Date.now();
      // It fades in and out over its 5 s and then goes.
      await expect(toast(page)).toHaveCSS('animation-name', 'toast-life');
      await expect(toast(page)).toHaveCSS('animation-duration', '5s');
      await expect(toast(page)).toHaveCount(0, { timeout: 10_000 });
      expect(Date.now() - shownAt).toBeGreaterThan(3500);

      const saved = await mediaItem(request, token, id);
      expect(saved.is_public).toBe(false);
      expect(saved.is_repost_allowed).toBe(true);

      // A caption the server refuses keeps the visitor's text and says so.
      await page.unrouteAll({ behavior: 'wait' });
      await publicWall.click();
      await expect.poll(async () => (await mediaItem(request, token, id)).is_public).toBe(true);
      await failPatches(`**/api/regular/media/${id}`);
      const caption = item.getByRole('textbox', { name: 'Caption' });
      await caption.fill('Rooftop party');
      await item.getByRole('button', { name: 'Save' }).click();
      await expect(toast(page)).toHaveText(MESSAGES.captionFailed);
      await expect(caption).toHaveValue('Rooftop party');
      expect((await mediaItem(request, token, id)).caption).toBeNull();
    },
  );

  test(
    'Download HD saves the full-size JPEG and marks it downloaded',
    { tag: '@flow' },
    async ({ page, request, baseURL }) => {
      const { token, id } = await visitorWithCapture(page, request, baseURL, 'rooftop');
      const before = await mediaItem(request, token, id);
      expect(before.is_downloaded).toBe(false);
      await openMyMedia(page);

      const downloading = page.waitForEvent('download');
      await card(page, id).getByRole('button', { name: 'Download HD' }).click();
      const download = await downloading;
      // Named after the venue and the date (issue 38), not the key's UUID.
      expect(download.suggestedFilename()).toMatch(
        new RegExp(`^flashbooth-(?:[\\p{L}\\p{N}-]+-)?\\d{4}-\\d{2}-\\d{2}-${id}\\.jpg$`, 'u'),
      );
      expect(download.suggestedFilename()).toContain(before.created_at.slice(0, 10));
      const saved = await readFile((await download.path())!);
      expect([...saved.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      // The HD file itself, not the preview.
      const hd = await request.get(before.s3_url!);
      expect(hd.ok()).toBe(true);
      expect(saved.equals(await hd.body())).toBe(true);
      const preview = await request.get(before.lowres_s3_url!);
      expect(saved.length).toBeGreaterThan((await preview.body()).length);

      await expect(toast(page)).toHaveText(MESSAGES.downloadStarted);
      await expect(page.getByTestId('status-success')).toBeVisible();
      await expect.poll(async () => (await mediaItem(request, token, id)).is_downloaded).toBe(true);
    },
  );

  test('Share is offered on phones only and hands the photo to the share sheet', async ({
    page,
    request,
    isMobile,
    baseURL,
  }) => {
    // Chromium on Linux has no share sheet: stand in for the phone's, recording what it is given.
    await page.addInitScript(() => {
      const calls: { text?: string; url?: string; files: { name: string; type: string }[] }[] = [];
      const state = { calls, dismiss: false, heads: [] as number[][] };
      Object.assign(window, { __share: state });
      Object.defineProperty(navigator, 'canShare', {
        configurable: true,
        value: (data?: ShareData) => Array.isArray(data?.files) && data.files.length > 0,
      });
      Object.defineProperty(navigator, 'share', {
        configurable: true,
        value: async (data: ShareData) => {
          const files = data.files ?? [];
          calls.push({
            text: data.text,
            url: data.url,
            files: files.map((file) => ({ name: file.name, type: file.type })),
          });
          for (const file of files) {
            state.heads.push([...new Uint8Array(await file.slice(0, 3).arrayBuffer())]);
          }
          if (state.dismiss) throw new DOMException('Share canceled', 'AbortError');
        },
      });
    });
    const { token, id } = await visitorWithCapture(page, request, baseURL);
    await openMyMedia(page);
    const item = card(page, id);
    await expect(item.getByRole('button', { name: 'Download HD' })).toBeVisible();
    const share = item.getByRole('button', { name: 'Share' });

    if (!isMobile) {
      // A desktop user agent gets no Share button at all.
      await expect(share).toHaveCount(0);
      return;
    }

    await expect(share).toBeVisible();
    type ShareState = {
      calls: { text?: string; url?: string; files: { name: string; type: string }[] }[];
      dismiss: boolean;
      heads: number[][];
    };
    const shareState = () =>
      page.evaluate(() => (window as unknown as { __share: ShareState }).__share);

    // Dismissing the sheet is silent.
    await page.evaluate(() => {
      (window as unknown as { __share: ShareState }).__share.dismiss = true;
    });
    await share.click();
    await expect.poll(async () => (await shareState()).calls.length).toBe(1);
    await expect(share).toHaveText('Share');
    await expect(share).not.toHaveAttribute('aria-disabled', 'true');
    await expect(toast(page)).toHaveCount(0);
    expect((await mediaItem(request, token, id)).is_shared).toBe(false);

    await page.evaluate(() => {
      (window as unknown as { __share: ShareState }).__share.dismiss = false;
    });
    await share.click();
    await expect(toast(page)).toHaveText(MESSAGES.shared);
    const { calls, heads } = await shareState();
    expect(calls).toHaveLength(2);
    expect(calls[1]!.files).toEqual([{ name: `${id}.jpg`, type: 'image/jpeg' }]);
    expect(heads[1]).toEqual([0xff, 0xd8, 0xff]);
    expect(calls[1]!.text?.length ?? 0).toBeGreaterThan(0);
    await expect.poll(async () => (await mediaItem(request, token, id)).is_shared).toBe(true);

    // A browser without a share sheet says so.
    await page.evaluate(() => {
      Object.defineProperty(navigator, 'share', { configurable: true, value: undefined });
    });
    await share.click();
    await expect(toast(page)).toHaveText(MESSAGES.shareUnsupported);
  });

  test(
    'a video item plays on its own, muted and looping, from its clip with its poster',
    { tag: '@flow' },
    async ({ page, request, baseURL }) => {
      const { id } = await visitorWithCapture(page, request, baseURL);

      // Record a short clip in the browser and present this capture as a video whose HD file is
      // that clip (motion.spec.ts plays a booth's real MP4).
      const clip = await page.evaluate(async () => {
        const canvas = document.createElement('canvas');
        canvas.width = 240;
        canvas.height = 160;
        const context = canvas.getContext('2d')!;
        let frame = 0;
        const draw = () => {
          context.fillStyle = `hsl(${(frame * 25) % 360}, 70%, 50%)`;
          context.fillRect(0, 0, 240, 160);
          frame += 1;
        };
        draw();
        const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm' });
        const chunks: Blob[] = [];
        recorder.ondataavailable = (event) => chunks.push(event.data);
        const stopped = new Promise((resolve) => {
          recorder.onstop = resolve;
        });
        const timer = setInterval(draw, 40);
        recorder.start();
        await new Promise((resolve) => setTimeout(resolve, 1500));
        recorder.stop();
        await stopped;
        clearInterval(timer);
        const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
        return Array.from(bytes);
      });
      expect(clip.length).toBeGreaterThan(1000);
      const clipUrl = '/e2e-clips/low.webm';
      await page.route(`**${clipUrl}`, (route) =>
        route.fulfill({ body: Buffer.from(clip), contentType: 'video/webm' }),
      );
      await page.route('**/api/regular/media?*', async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as { items: MediaItem[] };
        for (const item of body.items) {
          // A motion item: its clip is the HD file, its low-resolution copy the poster.
          if (item.id === id) Object.assign(item, { media_type: 'video', s3_url: clipUrl });
        }
        await route.fulfill({ response, json: body });
      });
      await openMyMedia(page);

      const item = card(page, id);
      const video = item.locator('video');
      await expect(video).toHaveCount(1);
      await expect(item.locator('img')).toHaveCount(0);
      await expect(video).toHaveAttribute('src', clipUrl);
      await expect(video).toHaveAttribute('muted', '');
      const flags = await video.evaluate((element: HTMLVideoElement) => ({
        autoplay: element.autoplay,
        muted: element.muted,
        loop: element.loop,
        playsInline: element.hasAttribute('playsinline'),
        controls: element.controls,
      }));
      expect(flags).toEqual({
        autoplay: true,
        muted: true,
        loop: true,
        playsInline: true,
        controls: false,
      });
      // It plays by itself.
      await expect
        .poll(() =>
          video.evaluate((element: HTMLVideoElement) => !element.paused && element.currentTime),
        )
        .toBeGreaterThan(0);
      expect(await previewRatio(item)).toBeCloseTo(3 / 2, 1);

      // And it can be stopped (and started again) from the keyboard.
      const pause = item.getByRole('button', { name: 'Pause video' });
      await pause.focus();
      await page.keyboard.press('Enter');
      await expect
        .poll(() => video.evaluate((element: HTMLVideoElement) => element.paused))
        .toBe(true);
      const play = item.getByRole('button', { name: 'Play video' });
      await expect(play).toBeFocused();
      await page.keyboard.press('Enter');
      await expect
        .poll(() => video.evaluate((element: HTMLVideoElement) => element.paused))
        .toBe(false);
    },
  );

  test(
    'a new visitor sees the empty state; a list that fails to load says so',
    { tag: '@flow' },
    async ({ page }) => {
      await signInNewVisitor(page, 'Empty Visitor');
      await openMyMedia(page);
      await expect(page.getByText(MESSAGES.empty)).toBeVisible();
      await expect(cards(page)).toHaveCount(0);
      await expect(page.getByRole('navigation', { name: 'My Media pages' })).toHaveCount(0);
      await expect(toast(page)).toHaveCount(0);

      await page.route('**/api/regular/media?*', (route) =>
        route.fulfill({
          status: 500,
          json: { message: 'Something went wrong.', code: 'internal' },
        }),
      );
      await page.reload();
      await expect(toast(page)).toHaveText(MESSAGES.loadFailed);
      await expect(page.getByTestId('status-error')).toBeVisible();
      await expect(page.getByText(MESSAGES.empty)).toBeVisible();
    },
  );

  test(
    'more than 10 items page by 10 with the spec’s pager',
    { tag: '@flow' },
    async ({ page, request, baseURL }) => {
      test.setTimeout(150_000);
      const { lobby, rooftop, landscapeTemplate, portraitTemplate } = await theRig(
        request,
        baseURL,
      );
      const token = await signInNewVisitor(page);
      for (let index = 0; index < 11; index += 1) {
        await capture(
          request,
          token,
          index % 2 === 0 ? lobby : rooftop,
          index % 3 === 0 ? portraitTemplate : landscapeTemplate,
        );
      }
      const items = await myMedia(request, token);
      expect(items).toHaveLength(11);
      await openMyMedia(page);

      const pager = page.getByRole('navigation', { name: 'My Media pages' });
      await expect(cards(page)).toHaveCount(10);
      expect(await cardIds(page)).toEqual(items.slice(0, 10).map((item) => item.id));
      await expect(pager.getByRole('button', { name: 'Page 1' })).toHaveAttribute(
        'aria-current',
        'page',
      );
      await expect(pager.getByRole('button', { name: /^Page \d+$/ })).toHaveCount(2);
      await expect(pager.getByRole('button', { name: 'Previous page' })).toBeDisabled();

      await pager.getByRole('button', { name: 'Next page' }).click();
      await expect(cards(page)).toHaveCount(1);
      expect(await cardIds(page)).toEqual([items[10]!.id]);
      await expect(pager.getByRole('button', { name: 'Page 2' })).toHaveAttribute(
        'aria-current',
        'page',
      );
      await expect(pager.getByRole('button', { name: 'Next page' })).toBeDisabled();
      // The focus goes back to the top of the list for keyboard and screen-reader users.
      await expect(page.getByRole('heading', { level: 1, name: 'My Media' })).toBeFocused();

      await pager.getByRole('button', { name: 'Page 1' }).click();
      await expect(cards(page)).toHaveCount(10);
      await expect(pager.getByRole('button', { name: 'Page 1' })).toHaveAttribute(
        'aria-current',
        'page',
      );

      // A new search starts again at page 1.
      await pager.getByRole('button', { name: 'Page 2' }).click();
      await expect(cards(page)).toHaveCount(1);
      await search(page, rooftop.name);
      await expect(cards(page)).toHaveCount(5);
      await expect(pager).toHaveCount(0);

      // Many pages: the first, the last and the current page's neighbours, with ellipses (the
      // server's total is enlarged here; 60 items would take a minute to capture).
      await page.route('**/api/regular/media?*', async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as { items: MediaItem[]; total_count: number };
        await route.fulfill({ response, json: { ...body, total_count: 60 } });
      });
      await search(page, '');
      await expect(pager.getByRole('button', { name: /^Page \d+$/ })).toHaveText(['1', '2', '6']);
      await pager.getByRole('button', { name: 'Page 2' }).click();
      await expect(pager.getByRole('button', { name: /^Page \d+$/ })).toHaveText([
        '1',
        '2',
        '3',
        '6',
      ]);
      await expect(pager.getByText('…')).toHaveCount(1);
      await pager.getByRole('button', { name: 'Next page' }).click();
      await pager.getByRole('button', { name: 'Next page' }).click();
      await expect(pager.getByRole('button', { name: 'Page 4' })).toHaveAttribute(
        'aria-current',
        'page',
      );
      await expect(pager.getByRole('button', { name: /^Page \d+$/ })).toHaveText([
        '1',
        '3',
        '4',
        '5',
        '6',
      ]);
      await expect(pager.getByText('…')).toHaveCount(1);
    },
  );
});
