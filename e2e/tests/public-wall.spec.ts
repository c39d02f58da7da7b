import { expect, test, type APIRequestContext } from '@playwright/test';
import { captureAt, sharedRig, startBooth } from './booths';
import {
  screenshotBothSizes,
  signInNewVisitor,
  signUpThroughApi,
  staffApi,
  uniqueTag,
} from './support';

/*
 * The wall without a session (issue 26): a signed-out visitor reads it, likes or comments, signs
 * in and comes back to the same card with it done; a public photo's share page (server HTML with
 * Open Graph tags, no script) and its image without a session, gone once the photo is private;
 * a venue's kiosk wall on a screen.
 */

/**
 * A venue of its own (so its kiosk wall holds only this file's photos, whatever else the run
 * makes public), with a running booth and a one-photo template.
 */
const theRig = sharedRig(
  async (request, serverUrl) => {
    const tag = uniqueTag();
    const staff = await staffApi(request);
    const venue = `Rooftop ${tag}`;
    const org = await staff.call<{ id: number }>('post', 'organizations', { name: venue });
    const registered = await staff.createBooth(`Share Booth ${tag}`, org.id);
    const templateId = await staff.createTemplate(org.id, `${tag} Share`, 'landscape', {
      slots: 1,
    });
    return { orgId: org.id, venue, booth: await startBooth(registered, serverUrl), templateId };
  },
  (rig) => rig.booth.agent.stop(),
);

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A real capture of a new visitor at the rig's booth, made public with `caption`. */
async function publicPhoto(
  request: APIRequestContext,
  baseURL: string | undefined,
  owner: string,
  caption: string,
  isPublic = true,
) {
  const rig = await theRig(request, baseURL);
  const token = await signUpThroughApi(request, 'regular', owner);
  const id = await captureAt(request, token, rig.booth, rig.templateId);
  for (const data of [{ caption }, ...(isPublic ? [{ is_public: true }] : [])]) {
    const changed = await request.patch(`/api/regular/media/${id}`, {
      headers: bearer(token),
      data,
    });
    expect(changed.ok(), await changed.text()).toBe(true);
  }
  // The wall's first page comes in its HTML, which the server renders again at most every few
  // seconds (apps/server/src/modules/wall/wall-page.ts WALL_PAGE_MIN_AGE_MS): a visitor opening
  // it in that moment reads the page before this photo.
  if (isPublic) {
    await expect
      .poll(async () => (await request.get('/regular/wall')).text(), { timeout: 15_000 })
      .toContain(`data-media-id="${id}"`);
  }
  return { id, token, orgId: rig.orgId, venue: rig.venue };
}

/** The item's share page address (My Media's share_path), null while it is private. */
async function sharePathOf(request: APIRequestContext, token: string, id: number) {
  const response = await request.get('/api/regular/media?limit=50', { headers: bearer(token) });
  const { items } = (await response.json()) as {
    items: { id: number; share_path: string | null }[];
  };
  return items.find((item) => item.id === id)?.share_path ?? null;
}

test(
  'a signed-out visitor likes on the wall, signs in and is back on the card with the like done',
  { tag: '@flow' },
  async ({ page, request, baseURL }) => {
    test.setTimeout(90_000);
    const tag = uniqueTag();
    const { id } = await publicPhoto(request, baseURL, `Owner ${tag}`, `Dance floor ${tag}`);

    // No session: the wall shows, with the card, its count and its comments.
    await page.goto(`/regular/wall?search=${encodeURIComponent(tag)}`);
    await expect(page).toHaveURL(/\/regular\/wall\?/);
    const card = page.locator(`[data-testid="wall-card"][data-media-id="${id}"]`);
    await expect(card.getByText(`Dance floor ${tag}`)).toBeVisible();
    await expect(card.getByTestId('like-count')).toHaveText('0');
    await card.getByRole('button', { name: 'Comments' }).click();
    await expect(card.getByText('No comments yet.')).toBeVisible();
    await screenshotBothSizes(page, 'wall-signed-out');

    // Like asks to sign in; signing in comes back to the same card, liked.
    await card.getByRole('button', { name: /^Like, 0 likes\. Sign in to like$/ }).click();
    await expect(page).toHaveURL(/\/regular\/login$/);
    const token = await signInNewVisitor(page, `Fan ${tag}`);
    await expect(page).toHaveURL(new RegExp(`/regular/wall\\?search=.*#wall-item-${id}$`));
    const back = page.locator(`[data-testid="wall-card"][data-media-id="${id}"]`);
    await expect(back.getByRole('button', { name: /^Like,/ })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(back.getByTestId('like-count')).toHaveText('1');
    await expect(back).toBeFocused();
    await expect(back).toBeInViewport();

    // The server has the like, by this visitor.
    const wall = await request.get(
      `/api/regular/media/public?search=${encodeURIComponent(tag)}&limit=10&offset=0`,
      { headers: bearer(token) },
    );
    const { items } = (await wall.json()) as {
      items: { id: number; likes_count: number; is_liked_by_caller: boolean }[];
    };
    expect(items.find((item) => item.id === id)).toMatchObject({
      likes_count: 1,
      is_liked_by_caller: true,
    });
  },
);

test(
  'a signed-out visitor comments on the wall: the comment is posted after signing in',
  { tag: '@flow' },
  async ({ page, request, baseURL }) => {
    test.setTimeout(90_000);
    const tag = uniqueTag();
    const { id } = await publicPhoto(request, baseURL, `Owner ${tag}`, `Cake ${tag}`);
    await page.goto(`/regular/wall?search=${encodeURIComponent(tag)}`);
    const card = page.locator(`[data-testid="wall-card"][data-media-id="${id}"]`);
    await card.getByRole('button', { name: 'Comments' }).click();
    await card.getByRole('textbox', { name: 'Add a comment' }).fill(`So good ${tag}`);
    await card.getByRole('button', { name: 'Post' }).click();
    await expect(page).toHaveURL(/\/regular\/login$/);
    await signInNewVisitor(page, `Commenter ${tag}`);
    const back = page.locator(`[data-testid="wall-card"][data-media-id="${id}"]`);
    await expect(back.getByTestId('wall-comment')).toHaveCount(1);
    await expect(back.getByTestId('wall-comment')).toContainText(`So good ${tag}`);
    await expect(back.getByTestId('wall-comment')).toContainText(`Commenter ${tag}`);
    await expect(back).toBeFocused();
  },
);

test(
  'a share page carries Open Graph tags, its image loads without a session, and it is gone once private',
  { tag: '@flow' },
  async ({ browser, request, baseURL }) => {
    test.setTimeout(90_000);
    const tag = uniqueTag();
    const caption = `Sparklers <b>${tag}</b>`;
    const { id, token, venue } = await publicPhoto(request, baseURL, `Mira Shah ${tag}`, caption);
    const sharePath = await sharePathOf(request, token, id);
    expect(sharePath).toMatch(/^\/p\/[A-Za-z0-9_-]{22}$/);

    // The page's HTML as a link preview reads it: no session, no script.
    const response = await request.get(sharePath!);
    expect(response.status()).toBe(200);
    const html = await response.text();
    const meta = (key: string) =>
      new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html)?.[1];
    expect(meta('og:title')).toBe(`Mira at ${venue}`);
    expect(meta('og:description')).toBe(`Sparklers &lt;b&gt;${tag}&lt;/b&gt;`);
    expect(meta('twitter:card')).toBe('summary_large_image');
    const image = meta('og:image')!;
    expect(image).toBe(`${baseURL}${sharePath}/image.jpg`);
    expect(meta('og:image:width')).toBe('1200');
    expect(html).not.toMatch(/<script/i);

    // The image address loads in a browser that never signed in.
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const picture = await context.request.get(image);
      expect(picture.status()).toBe(200);
      expect(picture.headers()['content-type']).toBe('image/jpeg');
      expect((await picture.body()).length).toBeGreaterThan(10_000);

      // With scripts off the page shows the photo, the venue and the way to the booth.
      const page = await context.newPage();
      await page.goto(sharePath!);
      await expect(page.getByRole('heading', { level: 1, name: `Mira at ${venue}` })).toBeVisible();
      await expect(page.getByText(caption)).toBeVisible();
      await expect(page.locator('figure img')).toHaveJSProperty('complete', true);
      const cta = page.getByRole('link', { name: `Get your own at ${venue}` });
      await expect(cta).toHaveAttribute('href', /^\/b\/\d+$/);
      await screenshotBothSizes(page, 'share-page');

      // Made private: the page and its image answer 404 at once.
      const made = await request.patch(`/api/regular/media/${id}`, {
        headers: bearer(token),
        data: { is_public: false },
      });
      expect(made.ok()).toBe(true);
      expect((await request.get(sharePath!)).status()).toBe(404);
      expect((await context.request.get(image)).status()).toBe(404);
      expect(await sharePathOf(request, token, id)).toBeNull();
    } finally {
      await context.close();
    }
  },
);

test("a venue's kiosk wall shows its photos with the venue and a QR code, and a photo made public at once", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const tag = uniqueTag();
  const shown = await publicPhoto(request, baseURL, `Kiosk Owner ${tag}`, `Kiosk ${tag}`);
  const later = await publicPhoto(request, baseURL, `Late Owner ${tag}`, `Later ${tag}`, false);

  await page.goto(`/wall/${shown.orgId}`);
  const slide = page.getByTestId('kiosk-slide');
  await expect(slide.locator('.kiosk-media')).toBeVisible();
  await expect(page.getByText(shown.venue, { exact: true })).toBeVisible();
  await expect(page.getByRole('img', { name: /^QR code to .*\/b\/\d+$/ })).toBeVisible();
  await expect(page.getByText('Get yours!')).toBeVisible();
  // Full screen: nothing scrolls, the photo and the QR code are inside the window.
  const overflow = await page.evaluate(
    () => document.documentElement.scrollHeight - window.innerHeight,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await expect(slide.locator('.kiosk-media')).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole('img', { name: /^QR code/ })).toBeInViewport({ ratio: 1 });
  await screenshotBothSizes(page, 'kiosk-wall');

  // Made public while the wall is open: it shows at once (the live stream), with its caption.
  const made = await request.patch(`/api/regular/media/${later.id}`, {
    headers: bearer(later.token),
    data: { is_public: true },
  });
  expect(made.ok()).toBe(true);
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(
    page.locator(`[data-testid="kiosk-slide"][data-media-id="${later.id}"]`),
  ).toBeVisible();
  await expect(page.getByText(`Later ${tag}`)).toBeVisible();
  await expect(page.locator('.kiosk-who')).toHaveText(/^Late at /);
});
