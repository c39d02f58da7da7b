import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { captureAt, demoRig, type DemoRig } from './booths';
import { signInNewVisitor, signUpThroughApi, uniqueTag } from './support';

/*
 * The public wall against a real capture: visitor A's photo (taken at a booth run by the real
 * booth agent, no countdown) is made public with a caption on My Media; visitor B, in a browser
 * of their own, finds it on the wall, likes it and comments on it.
 */

const theRig = demoRig('Wall');

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A real capture at the booth; resolves with the media id once the photo is uploaded. */
async function capture(request: APIRequestContext, token: string, rig: DemoRig): Promise<number> {
  const id = await captureAt(request, token, rig.booth, rig.templateId);
  await expect
    .poll(async () => {
      const uploaded = await request.get(`/api/regular/media/uploaded?media_ids=${id}`, {
        headers: bearer(token),
      });
      return ((await uploaded.json()) as { media_items: { is_uploaded: boolean }[] }).media_items[0]
        ?.is_uploaded;
    })
    .toBe(true);
  return id;
}

const toast = (page: Page) => page.locator('.toast-region .status');

async function searchWall(page: Page, term: string) {
  // Once the app has the page: typing and Enter in the HTML's box before it are kept and replayed
  // (booth-first-paint.spec.ts), but an Enter that lands on the app's box in the moment it
  // replaces the HTML's would submit before the replayed term is in it.
  await expect(page.locator('html')).toHaveAttribute('data-interactive', 'true');
  const box = page.getByRole('searchbox', { name: 'Search the wall' });
  await box.fill(term);
  await box.press('Enter');
}

test(
  'a public photo on the wall: found by its caption, liked, commented, edited, deleted',
  { tag: '@flow' },
  async ({ page, browser, request, baseURL }, testInfo) => {
    test.setTimeout(90_000);
    const theBooth = await theRig(request, baseURL);
    const tag = uniqueTag();
    const caption = `Rooftop party ${tag}`;

    // Visitor A: a capture, made public with a caption on My Media.
    const ownerName = `Owner ${tag}`;
    const ownerToken = await signInNewVisitor(page, ownerName);
    const id = await capture(request, ownerToken, theBooth);
    await page.goto('/regular/media');
    const mine = page.locator(`[data-testid="media-card"][data-media-id="${id}"]`);
    await mine.getByRole('switch', { name: 'Public Wall' }).click();
    await expect(mine.getByRole('switch', { name: 'Public Wall' })).toBeChecked();
    const saved = page.waitForResponse(
      (response) => response.url().endsWith(`/api/regular/media/${id}`) && response.ok(),
    );
    await mine.getByRole('textbox', { name: 'Caption' }).fill(caption);
    await mine.getByRole('button', { name: 'Save' }).click();
    await saved;

    // Visitor B, in a browser of their own at the same size.
    const { viewport, userAgent, deviceScaleFactor, isMobile, hasTouch } = testInfo.project.use;
    const context = await browser.newContext({
      baseURL,
      viewport,
      userAgent,
      deviceScaleFactor,
      isMobile,
      hasTouch,
    });
    try {
      const visitor = await context.newPage();
      // The wall is public (spec: wall viewing is public); its Sign in comes back to it.
      await visitor.goto('/regular/wall');
      await visitor.getByRole('link', { name: /^Sign in/ }).click();
      await signInNewVisitor(visitor, `Fan ${tag}`);
      await expect(visitor).toHaveURL(/\/regular\/wall$/);
      await expect(visitor.getByRole('heading', { level: 1, name: 'Wall' })).toBeVisible();

      await searchWall(visitor, tag);
      const cards = visitor.getByTestId('wall-card');
      await expect(cards).toHaveCount(1);
      const card = cards.first();
      await expect(card).toHaveAttribute('data-media-id', String(id));
      await expect(card.getByRole('heading', { name: ownerName })).toBeVisible();
      await expect(card.getByText(caption)).toBeVisible();
      await expect(card.locator('.media-card-preview img')).toBeVisible();

      // Like: pressed at once with the count, and still so after a reload.
      const like = card.getByRole('button', { name: /^Like,/ });
      await expect(like).toHaveAttribute('aria-pressed', 'false');
      await expect(card.getByTestId('like-count')).toHaveText('0');
      await like.click();
      await expect(like).toHaveAttribute('aria-pressed', 'true');
      await expect(card.getByTestId('like-count')).toHaveText('1');
      await expect
        .poll(async () => {
          const response = await request.get(
            `/api/regular/media/public?search=${encodeURIComponent(tag)}&limit=10&offset=0`,
          );
          return ((await response.json()) as { items: { likes_count: number }[] }).items[0]
            ?.likes_count;
        })
        .toBe(1);
      await visitor.reload();
      await searchWall(visitor, tag);
      await expect(like).toHaveAttribute('aria-pressed', 'true');
      await expect(card.getByTestId('like-count')).toHaveText('1');

      // A failed unlike puts the like back and says so.
      await visitor.route(`**/api/regular/media/${id}/likes`, (route) =>
        route.fulfill({ status: 500, json: { message: 'boom', code: 'internal' } }),
      );
      await like.click();
      await expect(toast(visitor)).toHaveText('Failed to toggle like. Please try again.');
      await expect(like).toHaveAttribute('aria-pressed', 'true');
      await expect(card.getByTestId('like-count')).toHaveText('1');
      await visitor.unroute(`**/api/regular/media/${id}/likes`);

      // Comments: Post only with text that is not blank.
      const toggle = card.getByRole('button', { name: 'Comments' });
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await toggle.click();
      await expect(card.getByRole('button', { name: 'Hide comments' })).toHaveAttribute(
        'aria-expanded',
        'true',
      );
      const panel = card.getByRole('region', { name: 'Comments' });
      await expect(panel.getByText('No comments yet.')).toBeVisible();
      const post = panel.getByRole('button', { name: 'Post' });
      const newComment = panel.getByRole('textbox', { name: 'Add a comment' });
      await expect(post).toBeDisabled();
      await newComment.fill('   ');
      await expect(post).toBeDisabled();
      await newComment.fill('  What a view!  ');
      await expect(post).toBeEnabled();
      await post.click();
      await expect(toast(visitor)).toHaveText('Comment added!');
      const comment = panel.getByTestId('wall-comment');
      await expect(comment).toHaveCount(1);
      await expect(comment.getByText(`Fan ${tag}`)).toBeVisible();
      await expect(comment.getByText('What a view!', { exact: true })).toBeVisible();
      await expect(newComment).toHaveValue('');

      // Esc cancels an edit; Enter saves it.
      await comment.getByRole('button', { name: 'Edit' }).click();
      const editor = comment.getByRole('textbox', { name: 'Edit comment' });
      await expect(editor).toBeFocused();
      await editor.fill('Not this');
      await editor.press('Escape');
      await expect(editor).toHaveCount(0);
      await expect(comment.getByText('What a view!', { exact: true })).toBeVisible();

      await comment.getByRole('button', { name: 'Edit' }).click();
      await editor.fill('What a view, again!');
      await editor.press('Enter');
      await expect(toast(visitor)).toHaveText('Comment updated!');
      await expect(editor).toHaveCount(0);
      await expect(comment.getByText('What a view, again!', { exact: true })).toBeVisible();

      // Closing and opening again reloads the list (from page 1).
      await card.getByRole('button', { name: 'Hide comments' }).click();
      await expect(panel).toHaveCount(0);
      await toggle.click();
      await expect(comment.getByText('What a view, again!', { exact: true })).toBeVisible();

      await comment.getByRole('button', { name: 'Delete' }).click();
      await expect(toast(visitor)).toHaveText('Comment deleted.');
      await expect(comment).toHaveCount(0);
      await expect(panel.getByText('No comments yet.')).toBeVisible();
    } finally {
      await context.close();
    }
  },
);

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box, 'on screen').not.toBeNull();
  return box!;
}

test('a message sits beside the comment box, never over it, the Post button or another card', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const theBooth = await theRig(request, baseURL);
  const tag = uniqueTag();
  // Two public photos of the tag: the first one's comments, with a card below it.
  const owner = await signUpThroughApi(request, 'regular', `Owner ${tag}`);
  for (let i = 0; i < 2; i += 1) {
    const id = await capture(request, owner, theBooth);
    for (const data of [{ is_public: true }, { caption: `Picnic ${tag} ${i}` }]) {
      const patch = await request.patch(`/api/regular/media/${id}`, {
        headers: bearer(owner),
        data,
      });
      expect(patch.ok(), await patch.text()).toBe(true);
    }
  }

  await signInNewVisitor(page, `Fan ${tag}`);
  await page.goto('/regular/wall');
  await searchWall(page, tag);
  const cards = page.getByTestId('wall-card');
  await expect(cards).toHaveCount(2);
  const card = cards.first();
  await card.getByRole('button', { name: 'Comments' }).click();
  const panel = card.getByRole('region', { name: 'Comments' });
  const newComment = panel.getByRole('textbox', { name: 'Add a comment' });
  const post = panel.getByRole('button', { name: 'Post' });
  await expect(panel.getByText('No comments yet.')).toBeVisible();

  // As a thumb leaves it: the comment box just above the bottom navigation.
  await newComment.evaluate((input) => {
    window.scrollBy(0, input.getBoundingClientRect().bottom - (window.innerHeight - 80));
  });
  await newComment.fill('Lovely light');
  await post.click();
  const message = page.locator('.toast-region .status');
  await expect(message).toHaveText('Comment added!');
  await expect(message).toHaveCount(1);
  await expect(message).toHaveAttribute('data-testid', 'status-success');
  // Announced: inside a live region.
  await expect(page.getByRole('status').filter({ hasText: 'Comment added!' })).toHaveCount(1);

  const shown = await boxOf(message);
  for (const control of [newComment, post, cards.nth(1)]) {
    expect(overlap(shown, await boxOf(control)), 'message over a control').toBe(false);
  }
  expect(overlap(shown, await boxOf(panel.getByTestId('wall-comment')))).toBe(false);
  // In sight: inside the window and above the bottom navigation.
  const nav = await boxOf(page.locator('.bottom-nav'));
  expect(shown.y).toBeGreaterThanOrEqual(0);
  expect(shown.y + shown.height).toBeLessThanOrEqual(nav.y);
});

test('a search nothing matches says so', { tag: '@flow' }, async ({ page }) => {
  await signInNewVisitor(page, 'Wall Visitor');
  await page.goto('/regular/wall');
  await searchWall(page, `nothing-${uniqueTag()}`);
  await expect(page.getByText('No public media found.')).toBeVisible();
  await expect(page.getByTestId('wall-card')).toHaveCount(0);
});
