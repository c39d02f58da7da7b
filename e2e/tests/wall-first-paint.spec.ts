/**
 * The public wall before and after its script (issue 41): the server's HTML shows the first page
 * of cards, as a signed-out visitor's app draws them, and carries that page for the app, which
 * takes over on first use without a request for it, without changing or moving a card; a Like
 * tapped before the app has started still asks to sign in and is done on the way back.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { captureAt, demoRig } from './booths';
import {
  layoutShiftSoFar,
  recordLayoutShifts,
  signInNewVisitor,
  signUpThroughApi,
  uniqueTag,
} from './support';

const rig = demoRig('Wall First Paint');

/** A public photo of a new visitor with `caption`, once the wall's HTML shows it. */
async function publicPhoto(
  request: APIRequestContext,
  baseURL: string | undefined,
  caption: string,
): Promise<number> {
  const { booth, templateId } = await rig(request, baseURL);
  const token = await signUpThroughApi(request, 'regular', `Owner ${uniqueTag()}`);
  const id = await captureAt(request, token, booth, templateId);
  for (const data of [{ caption }, { is_public: true }]) {
    const changed = await request.patch(`/api/regular/media/${id}`, {
      headers: { Authorization: `Bearer ${token}` },
      data,
    });
    expect(changed.ok(), await changed.text()).toBe(true);
  }
  // The server renders the wall's page again at most every few seconds.
  await expect
    .poll(async () => (await request.get('/regular/wall')).text(), { timeout: 15_000 })
    .toContain(`data-media-id="${id}"`);
  return id;
}

/** Holds the app's scripts (not the page's loader) until the returned function is called. */
async function holdAppScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/(?!app-loader-)[\w-]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/**
 * The wall's cards and page numbers as structure (tags, attributes sorted, text) and where each
 * card is: the ids that tie a card's heading to its buttons differ between the server's and
 * React's naming, and the server fetches the first picture eagerly; nothing else may.
 */
function wallShape(page: Page) {
  return page.evaluate(() => {
    const skip = new Set(['id', 'aria-labelledby', 'aria-describedby', 'loading', 'fetchpriority']);
    const shape = (node: Node): unknown => {
      if (node.nodeType === Node.TEXT_NODE) return node.textContent;
      if (!(node instanceof Element)) return null;
      const attributes = [...node.attributes]
        .filter((attribute) => !skip.has(attribute.name))
        // A style as the browser reads it (React sets it through the DOM, the server writes it).
        .map((attribute) =>
          attribute.name === 'style'
            ? `style=${(node as HTMLElement).style.cssText}`
            : `${attribute.name}=${attribute.value}`,
        )
        .sort();
      return [node.tagName.toLowerCase(), attributes, [...node.childNodes].map(shape)];
    };
    const cards = [...document.querySelectorAll('[data-testid="wall-card"]')].map((card) => {
      const box = card.getBoundingClientRect();
      return {
        shape: shape(card),
        box: [box.x, box.y, box.width, box.height].map(Math.round),
      };
    });
    const pages = document.querySelector('nav.pagination');
    return { cards, pages: pages && shape(pages) };
  });
}

test(
  'the HTML alone shows the wall’s first cards, with their pictures and Sign in',
  { tag: '@flow' },
  async ({ browser, request, baseURL }) => {
    test.setTimeout(90_000);
    const caption = `Rooftop <b>party</b> & "friends" ${uniqueTag()}`;
    const id = await publicPhoto(request, baseURL, caption);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const response = await page.goto('/regular/wall');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'Wall' })).toBeVisible();
    const card = page.locator(`[data-testid="wall-card"][data-media-id="${id}"]`);
    await expect(card.getByText(caption)).toBeVisible();
    await expect(
      card.getByRole('button', { name: /^Like, 0 likes\. Sign in to like$/ }),
    ).toBeVisible();
    const picture = card.getByRole('img', { name: `Photo: ${caption}` });
    await picture.scrollIntoViewIfNeeded();
    await expect
      .poll(() => picture.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBeGreaterThan(0);
    await expect(page.getByRole('link', { name: /^Sign in/ })).toHaveAttribute(
      'href',
      '/regular/login',
    );
    await context.close();
  },
);

test(
  'the app takes the wall over with the same cards, no request for them and nothing moving',
  { tag: '@flow' },
  async ({ page, request, baseURL }) => {
    test.setTimeout(90_000);
    const id = await publicPhoto(request, baseURL, `Take over ${uniqueTag()}`);
    await recordLayoutShifts(page);
    const asked: string[] = [];
    page.on('request', (sent) => {
      if (sent.url().includes('/api/regular/media/public')) asked.push(sent.url());
    });
    const release = await holdAppScripts(page);
    await page.goto('/regular/wall');
    await expect(page.locator(`[data-testid="wall-card"][data-media-id="${id}"]`)).toBeVisible();
    const before = await wallShape(page);
    expect(before.cards.length).toBeGreaterThan(0);
    expect(await page.locator('html').getAttribute('data-interactive')).toBeNull();

    // Nobody touches the page: the loader starts the app once the page has been idle a while.
    release();
    await expect(page.locator('html')).toHaveAttribute('data-interactive', 'true');
    const after = await wallShape(page);
    expect(after).toEqual(before);
    expect(asked).toEqual([]);
    const shift = await layoutShiftSoFar(page);
    expect(shift).toBeLessThan(0.01);
  },
);

test(
  'a Like tapped before the app has started asks to sign in and is done on the way back',
  { tag: '@flow' },
  async ({ page, request, baseURL }) => {
    test.setTimeout(90_000);
    const id = await publicPhoto(request, baseURL, `Early like ${uniqueTag()}`);
    const release = await holdAppScripts(page);
    await page.goto('/regular/wall');
    const card = page.locator(`[data-testid="wall-card"][data-media-id="${id}"]`);
    await card.getByRole('button', { name: /^Like, 0 likes\. Sign in to like$/ }).click();
    await expect(page).toHaveURL(/\/regular\/wall$/);
    release();
    // The app takes over and taps Like again: signed out, it goes to sign in, the like kept.
    await expect(page).toHaveURL(/\/regular\/login$/);
    await signInNewVisitor(page, `Early Fan ${uniqueTag()}`);
    await expect(page).toHaveURL(new RegExp(`/regular/wall#wall-item-${id}$`));
    const back = page.locator(`[data-testid="wall-card"][data-media-id="${id}"]`);
    await expect(back.getByRole('button', { name: /^Like,/ })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(back.getByTestId('like-count')).toHaveText('1');
  },
);
