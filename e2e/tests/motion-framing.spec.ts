/**
 * Issue 38 (motion): a boomerang from the booth's 3:2 camera is framed by the template's 3:2 slot,
 * not cut to 16:9 (the simulated camera's label along the top of its picture is in the frame),
 * and every player has the clip's own shape: My Media, the wall and the share page, which plays
 * it as everywhere else (muted, looping, on its own; a tap pauses and plays it) and gives link
 * previews its real size.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { captureAt, startBooth } from './booths';
import { screenshotBothSizes, signInNewVisitor, staffApi, uniqueTag } from './support';

const run = promisify(execFile);

/** The video stream of an MP4 as ffprobe reads it. */
async function probe(file: string) {
  const { stdout } = await run('ffprobe', [
    ...['-v', 'error', '-select_streams', 'v:0', '-of', 'json'],
    ...['-show_entries', 'stream=codec_name,profile,pix_fmt,width,height:format=duration'],
    file,
  ]);
  const parsed = JSON.parse(stdout) as {
    streams: {
      codec_name: string;
      profile: string;
      pix_fmt: string;
      width: number;
      height: number;
    }[];
    format: { duration: string };
  };
  return { ...parsed.streams[0]!, duration: Number(parsed.format.duration) };
}

/** One frame of the MP4 at `seconds` as raw RGB. */
async function frameAt(file: string, seconds: number): Promise<Buffer> {
  const { stdout } = await run(
    'ffmpeg',
    [
      ...['-v', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1'],
      ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}

/** How many pixels of the box (x0..x1, y0..y1) are near white. */
function whitePixels(
  frame: Buffer,
  width: number,
  box: { x0: number; x1: number; y0: number; y1: number },
) {
  let count = 0;
  for (let y = box.y0; y < box.y1; y += 1) {
    for (let x = box.x0; x < box.x1; x += 1) {
      const i = (y * width + x) * 3;
      if (frame[i]! > 215 && frame[i + 1]! > 215 && frame[i + 2]! > 215) count += 1;
    }
  }
  return count;
}

/** The element's width ÷ height on the screen. */
async function shapeOf(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on the screen');
  return box.width / box.height;
}

/** The video plays: it has data and its time moves on. */
async function expectPlaying(video: Locator) {
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState), {
      timeout: 15_000,
    })
    .toBeGreaterThanOrEqual(3);
  const first = await video.evaluate((element: HTMLVideoElement) => element.currentTime);
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), {
      timeout: 10_000,
    })
    .not.toBe(first);
  expect(await video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(false);
}

const paused = (video: Locator) => video.evaluate((element: HTMLVideoElement) => element.paused);

/** The content of a `<meta property="…">` of the page. */
const meta = (page: Page, property: string) =>
  page.locator(`meta[property="${property}"]`).getAttribute('content');

interface MediaItem {
  id: number;
  media_type: 'image' | 'video';
  s3_url: string | null;
  share_path?: string | null;
}

test(
  'a boomerang from a 3:2 camera keeps its whole picture and fills its player in My Media, on the wall and on the share page',
  { tag: '@flow' },
  async ({ page, request, baseURL }) => {
    test.setTimeout(180_000);
    if (!baseURL) throw new Error('baseURL is not configured');
    const tag = uniqueTag();
    const staff = await staffApi(request);
    const orgId = await staff.demoOrgId();
    const templates = await staff.call<{
      items: { id: number; name: string; capture_kind: string }[];
    }>('get', `orgs/${orgId}/templates?search=Boomerang&limit=100`);
    const template = templates.items.find(
      (item) => item.name === 'Boomerang' && item.capture_kind === 'boomerang',
    );
    if (!template) throw new Error('The seeded "Boomerang" template is missing.');

    const registered = await staff.createBooth(`Framing Booth ${tag}`, orgId);
    const booth = await startBooth(registered, baseURL);
    const work = await mkdtemp(path.join(os.tmpdir(), 'flashbooth-framing-'));
    try {
      const token = await signInNewVisitor(page, `Framing ${tag}`);
      const id = await captureAt(page.request, token, booth, template.id);
      const auth = { headers: { Authorization: `Bearer ${token}` } };
      const listed = await page.request.get('/api/regular/media?limit=10&offset=0', auth);
      const items = ((await listed.json()) as { items: MediaItem[] }).items;
      const video = items.find((item) => item.id === id);
      expect(video?.media_type).toBe('video');

      // The MP4: the slot's 3:2 at 1280 wide, H.264 High yuv420p.
      const mp4 = await request.get(video!.s3_url!);
      expect(mp4.ok()).toBe(true);
      const file = path.join(work, 'boomerang.mp4');
      await writeFile(file, await mp4.body());
      const info = await probe(file);
      expect(info).toMatchObject({
        codec_name: 'h264',
        profile: 'High',
        pix_fmt: 'yuv420p',
        width: 1280,
        height: 854,
      });
      expect(info.duration).toBeGreaterThanOrEqual(3);
      // The simulated camera writes "Flashbooth simulated camera" in white along the top of its
      // 3:2 picture (at 58–90 of 1080, left): in every frame, as the picture was not cut to 16:9.
      // (At 0, 0.73 and 1.47 s the bouncing ball is at the bottom left, the top middle and the
      // bottom right: never over the label.)
      for (const at of [0, 0.73, 1.47]) {
        const frame = await frameAt(file, at);
        expect(frame.length).toBe(1280 * 854 * 3);
        const label = whitePixels(frame, 1280, { x0: 40, x1: 520, y0: 40, y1: 76 });
        expect(label, `the camera's label at ${at} s`).toBeGreaterThan(1500);
        // The top row is the picture (its gradient), not a bar.
        const top = frame.subarray(0, 1280 * 3);
        const dark = [...Array(1280).keys()].filter((x) => top[x * 3]! + top[x * 3 + 1]! < 40);
        expect(dark.length).toBeLessThan(64);
      }

      // My Media: the box has the clip's shape, and the clip fills it.
      await page.goto('/regular/media');
      const card = page.locator(`[data-testid="media-card"][data-media-id="${id}"]`);
      const player = card.locator('video');
      await expectPlaying(player);
      const box = card.getByTestId('media-preview-box');
      await expect.poll(() => shapeOf(box)).toBeCloseTo(1280 / 854, 1);
      expect(await player.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight])).toEqual(
        [1280, 854],
      );
      await card.scrollIntoViewIfNeeded();
      await screenshotBothSizes(page, 'my-media-boomerang');
      await page.setViewportSize({ width: 1280, height: 800 });
      await expect.poll(() => shapeOf(box)).toBeCloseTo(1280 / 854, 1);
      await page.setViewportSize({ width: 390, height: 844 });

      // On the wall.
      const publicWall = card.getByRole('switch', { name: 'Public Wall' });
      await publicWall.click();
      await expect(publicWall).toBeChecked();
      await page.goto('/regular/wall');
      const search = page.getByRole('searchbox', { name: 'Search the wall' });
      await search.fill(booth.name);
      await search.press('Enter');
      const wallCard = page.locator(`[data-testid="wall-card"][data-media-id="${id}"]`);
      await expectPlaying(wallCard.locator('video'));
      await expect
        .poll(() => shapeOf(wallCard.getByTestId('media-preview-box')))
        .toBeCloseTo(1280 / 854, 1);
      await wallCard.scrollIntoViewIfNeeded();
      await screenshotBothSizes(page, 'wall-boomerang');

      // The share page: plays on its own, muted and looping, at the clip's shape; a tap pauses
      // it and another plays it again; link previews are told the real size.
      const again = await page.request.get('/api/regular/media?limit=10&offset=0', auth);
      const shared = ((await again.json()) as { items: MediaItem[] }).items.find(
        (item) => item.id === id,
      );
      expect(shared?.share_path).toBeTruthy();
      await page.goto(shared!.share_path!);
      const shareVideo = page.locator('video');
      await expect(shareVideo).toHaveAttribute('autoplay', '');
      await expect(shareVideo).toHaveAttribute('loop', '');
      await expect(shareVideo).toHaveAttribute('playsinline', '');
      expect(await shareVideo.evaluate((v: HTMLVideoElement) => v.muted)).toBe(true);
      await expect(shareVideo).not.toHaveAttribute('controls', /.*/);
      await expectPlaying(shareVideo);
      expect(await meta(page, 'og:video:width')).toBe('1280');
      expect(await meta(page, 'og:video:height')).toBe('854');
      expect(await shapeOf(shareVideo)).toBeCloseTo(1280 / 854, 1);
      await screenshotBothSizes(page, 'share-boomerang');
      await shareVideo.tap();
      await expect.poll(() => paused(shareVideo)).toBe(true);
      await expect(page.getByRole('button', { name: 'Play video' })).toBeVisible();
      await shareVideo.tap();
      await expect.poll(() => paused(shareVideo)).toBe(false);
      await page.getByRole('button', { name: 'Pause video' }).click();
      await expect.poll(() => paused(shareVideo)).toBe(true);
      expect(booth.errors).toEqual([]);
    } finally {
      await booth.agent.stop();
      await rm(work, { recursive: true, force: true });
    }
  },
);
