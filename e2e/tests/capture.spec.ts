import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import sharp from 'sharp';
import { startBooth, type TestBooth } from './booths';
import { newMobile, signInThroughUi, staffApi, staffToken, uniqueTag } from './support';

async function staffCall<T>(
  request: APIRequestContext,
  token: string,
  method: 'get' | 'post',
  path: string,
  data?: unknown,
): Promise<T> {
  const response = await request[method](`/api/enterprise/${path}`, {
    headers: { Authorization: `Bearer ${token}` },
    data,
  });
  expect(response.ok(), `${method.toUpperCase()} ${path}: ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

interface Slot {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * How far the print's pixels are from the foreground's where only the foreground's opaque
 * frame can show: everything at least `margin` pixels away from every photo slot (JPEG blocks
 * near a slot mix photo and frame). Returns the worst 100×100 block's mean difference per
 * channel, and the same for a print on the white canvas without any foreground (what a booth
 * that ignored the foreground would make), so the check is known to tell the two apart.
 */
async function frameDifference(print: Buffer, foreground: Buffer, slots: Slot[], margin = 24) {
  const fg = await sharp(foreground).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const hd = await sharp(print).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = fg.info;
  expect([hd.info.width, hd.info.height], 'the print is the size of the foreground').toEqual([
    width,
    height,
  ]);
  const nearSlot = (x: number, y: number) =>
    slots.some(
      (s) =>
        x >= s.x - margin && x < s.x + s.w + margin && y >= s.y - margin && y < s.y + s.h + margin,
    );
  const block = 100;
  let worst = 0;
  let worstWithoutForeground = Infinity;
  let frameBlocks = 0;
  for (let by = 0; by < height; by += block) {
    for (let bx = 0; bx < width; bx += block) {
      let sum = 0;
      let white = 0;
      let pixels = 0;
      for (let y = by; y < Math.min(by + block, height); y += 1) {
        for (let x = bx; x < Math.min(bx + block, width); x += 1) {
          const f = (y * width + x) * 4;
          if (fg.data[f + 3] !== 255 || nearSlot(x, y)) continue;
          const p = (y * width + x) * 3;
          for (let c = 0; c < 3; c += 1) {
            sum += Math.abs(hd.data[p + c]! - fg.data[f + c]!);
            white += 255 - fg.data[f + c]!;
          }
          pixels += 1;
        }
      }
      // Blocks that are mostly photo or edge say little; judge the ones that are frame.
      if (pixels < (block * block) / 2) continue;
      frameBlocks += 1;
      worst = Math.max(worst, sum / (pixels * 3));
      worstWithoutForeground = Math.min(worstWithoutForeground, white / (pixels * 3));
    }
  }
  return { worst, worstWithoutForeground, frameBlocks };
}

test('a visitor captures at the demo booth and sees the photos are ready', async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  test.setTimeout(90_000);

  const token = await staffToken(request);
  const devices = await staffCall<{ items: { id: number; name: string; org_id: number | null }[] }>(
    request,
    token,
    'get',
    'devices?search=Demo%20Booth&limit=100',
  );
  const demoBooth = devices.items.find((device) => device.name === 'Demo Booth');
  expect(demoBooth?.org_id, 'the seeded Demo Booth is linked to an organization').toBeTruthy();
  // The seeded Demo Booth (run by the server) takes one session at a time and both projects run
  // at once: the desktop project captures there, the phone project at a booth of its own in the
  // demo organization, run here by the same booth agent with the same real 10 s countdown.
  let own: TestBooth | undefined;
  if (testInfo.project.name === 'phone') {
    if (!baseURL) throw new Error('baseURL is not configured');
    const staff = await staffApi(request);
    const registered = await staff.createBooth(`Phone Booth ${uniqueTag()}`, demoBooth!.org_id!);
    own = await startBooth(registered, baseURL, { countdownMs: 10_000 });
  }
  const booth = own ?? demoBooth;
  try {
    await captureAndCheck(booth!.id, demoBooth!.org_id!);
  } finally {
    await own?.agent.stop();
  }

  async function captureAndCheck(boothId: number, orgId: number) {
    // The seeded "Golden Hour": one photo (the quickest session) under a foreground that frames
    // it on every side, so the print must show the foreground wherever there is no photo.
    const templates = await staffCall<{
      items: { id: number; name: string; foreground_s3_url: string | null; images: Slot[] }[];
    }>(request, token, 'get', `orgs/${orgId}/templates`);
    const template = templates.items.find((item) => item.name === 'Golden Hour');
    if (!template) throw new Error('The seeded "Golden Hour" template is missing.');
    expect(template.foreground_s3_url, 'the demo template has a foreground').toBeTruthy();
    expect(template.images).toHaveLength(1);

    await signInThroughUi(page, 'regular', newMobile(), 'Capture Visitor');
    await expect(page).not.toHaveURL(/\/regular\/login$/);
    // Scaled timings (non-production only). The simulated booth really takes 10 s per photo,
    // so the scale keeps the upload polling window (processing wait + 30 polls) longer than that.
    await page.goto(
      `/regular/photobooths/${boothId}/capture?template_id=${template.id}&timing_scale=0.5`,
    );
    await expect(page.getByRole('heading', { name: 'Photobooth capture' })).toBeVisible();
    const capture = page.getByRole('button', { name: 'Capture' });
    await expect(capture).toBeEnabled();
    await capture.click();
    await expect(page.getByTestId('capture-countdown')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText('All done! Your photos are ready.')).toBeVisible({
      timeout: 60_000,
    });
    await expect(page.getByRole('switch', { name: /repost/i })).toBeChecked();
    // The stored full-resolution print really carries the template's foreground. The page's own
    // API call, GET media, with this visitor's session (a refreshed token from the page's cookie).
    const refreshed = await page.request.post('/api/regular/auth/refresh');
    expect(refreshed.ok(), await refreshed.text()).toBe(true);
    const { access_token: visitorToken } = (await refreshed.json()) as { access_token: string };
    const mediaResponse = await page.request.get('/api/regular/media?limit=10&offset=0', {
      headers: { Authorization: `Bearer ${visitorToken}` },
    });
    expect(mediaResponse.ok(), await mediaResponse.text()).toBe(true);
    const media = (await mediaResponse.json()) as {
      items: { id: number; s3_url: string | null }[];
    };
    expect(media.items).toHaveLength(1);
    if (!own) {
      // The seeded booth took the photo with the webcam driver (ffmpeg's test source, see
      // playwright.config.ts) and printed to its spool: the print is there, named by the item.
      const spool = path.join(process.env.E2E_DATA_DIR!, 'spool');
      const printed = (await readdir(spool)).filter((name) =>
        name.endsWith(`-media-${media.items[0]!.id}.jpg`),
      );
      expect(printed, 'the print is in the booth’s spool').toHaveLength(1);
      const meta = await sharp(await readFile(path.join(spool, printed[0]!))).metadata();
      expect(meta.format).toBe('jpeg');
      // And the booth's health, as the console shows it, names the camera that took it.
      await expect
        .poll(async () => {
          const view = await staffCall<{ health: { camera?: { driver: string; ok: boolean } } }>(
            request,
            token,
            'get',
            `devices/${boothId}/health`,
          );
          return view.health?.camera;
        })
        .toMatchObject({ driver: 'webcam', ok: true });
    }
    expect(media.items[0]!.s3_url, 'the HD image is uploaded').toBeTruthy();
    const [print, foreground] = await Promise.all(
      [media.items[0]!.s3_url!, template.foreground_s3_url!].map(async (url) => {
        const response = await request.get(url);
        expect(response.ok(), url).toBe(true);
        return response.body();
      }),
    );
    const { worst, worstWithoutForeground, frameBlocks } = await frameDifference(
      print!,
      foreground!,
      template.images,
    );
    expect(frameBlocks, 'the foreground has a frame to compare').toBeGreaterThan(100);
    expect(worstWithoutForeground, 'a print without the foreground would fail').toBeGreaterThan(40);
    expect(worst, 'the print matches the foreground in its frame (JPEG tolerance)').toBeLessThan(8);

    await page.getByRole('link', { name: 'Go to My Media' }).click();
    await expect(page).toHaveURL('/regular/media');
  }
});
