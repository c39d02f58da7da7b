import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { captureAt, demoRig, type DemoRig } from './booths';
import { signInSeededStaff, signUpThroughApi, STAFF_PHONE, uniqueTag } from './support';

/*
 * The staff media views (issue 13): a visitor's public photo with repost allowed, made by a real
 * capture at a booth of the demo organization, on the organization's media page (its admin) and
 * on All Media (a super user, filtered by Org ID and Device ID, with the repost badge); the admin
 * hides it from the wall and it leaves GET media/public; All Media is refused to the org admin.
 */

/** The demo organization's admin: no super user or product admin flag. */
const ORG_ADMIN_PHONE = '+919000000002';

const theRig = demoRig('Media');

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A public photo with a caption (reposting is allowed by default) from a real capture. */
async function publicPhoto(request: APIRequestContext, rig: DemoRig, caption: string) {
  const token = await signUpThroughApi(request, 'regular', 'Staff Media Visitor');
  const id = await captureAt(request, token, rig.booth, rig.templateId);
  for (const data of [{ is_public: true }, { caption }]) {
    const patch = await request.patch(`/api/regular/media/${id}`, { headers: bearer(token), data });
    expect(patch.ok(), await patch.text()).toBe(true);
  }
  return id;
}

/** A photo its owner keeps off the wall (reposting still allowed), with a caption. */
async function privatePhoto(request: APIRequestContext, rig: DemoRig, caption: string) {
  const token = await signUpThroughApi(request, 'regular', 'Private Visitor');
  const id = await captureAt(request, token, rig.booth, rig.templateId);
  const patch = await request.patch(`/api/regular/media/${id}`, {
    headers: bearer(token),
    data: { caption },
  });
  expect(patch.ok(), await patch.text()).toBe(true);
  return id;
}

const HIDE_CONFIRM =
  'This photo will no longer show on the public wall. Its owner keeps it in My Media, marked as hidden by the venue, and you can show it again at any time.';
const HIDE_NOT_PUBLIC =
  'This media is not on the wall: its owner has not made it public, so there is nothing to hide.';

async function search(page: Page, text: string) {
  const box = page.getByPlaceholder('Search user, device, captions etc.');
  await box.fill(text);
  await box.press('Enter');
}

async function onWall(request: APIRequestContext, tag: string): Promise<number[]> {
  const response = await request.get(
    `/api/regular/media/public?search=${encodeURIComponent(tag)}&limit=10&offset=0`,
  );
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { items: { id: number }[] }).items.map((item) => item.id);
}

test("the organization's admin sees the public photo and hides it from the wall", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const current = await theRig(page.request, baseURL);
  const tag = uniqueTag();
  const id = await publicPhoto(page.request, current, `Team photo ${tag}`);
  expect(await onWall(page.request, tag)).toEqual([id]);

  const token = await signInSeededStaff(page, ORG_ADMIN_PHONE);
  await page.goto(`/enterprise/organizations/${current.orgId}`);
  await page.getByRole('link', { name: 'View Media' }).click();
  await expect(page).toHaveURL(new RegExp(`/enterprise/organizations/${current.orgId}/media$`));
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs.getByRole('link', { name: 'Organizations' })).toBeVisible();
  await expect(crumbs.getByText('Media', { exact: true })).toBeVisible();

  await search(page, tag);
  const card = page.locator(`[data-testid="staff-media-card"][data-media-id="${id}"]`);
  await expect(card).toBeVisible();
  await expect(page.getByTestId('staff-media-card')).toHaveCount(1);
  await expect(card.getByText(`Team photo ${tag}`)).toBeVisible();
  await expect(card.getByText(`, ${current.booth.name}`)).toBeVisible();
  await expect(card.getByRole('button', { name: 'Download HD' })).toBeVisible();
  // Share is offered on mobile user agents only (the phone project's).
  const mobile = /Mobi|Android|iPhone/.test(await page.evaluate(() => navigator.userAgent));
  await expect(card.getByRole('button', { name: 'Share' })).toHaveCount(mobile ? 1 : 0);
  await expect(card.getByTestId('repost-badge')).toHaveCount(0);
  await expect(card.locator('img')).toHaveJSProperty('complete', true);

  // Hide from wall asks first; Cancel leaves it on the wall.
  const hide = card.getByRole('button', { name: 'Hide from wall' });
  await hide.click();
  const confirm = page.getByRole('dialog', { name: 'Hide from wall?' });
  await expect(confirm).toContainText(HIDE_CONFIRM);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(hide).toBeVisible();
  expect(await onWall(page.request, tag)).toEqual([id]);

  await hide.click();
  await confirm.getByRole('button', { name: 'Yes, Hide' }).click();
  const message = page.locator('.toast-region .status');
  await expect(message).toHaveText('Media hidden from the wall.');
  await expect(card.getByTestId('hidden-mark')).toHaveText('Hidden from wall');
  const show = card.getByRole('button', { name: 'Show on wall' });
  await expect(show).toBeVisible();
  expect(await onWall(page.request, tag)).toEqual([]);
  // The message sits in the card, under its buttons: over none of them, nor the photo.
  const shown = (await message.boundingBox())!;
  for (const part of [
    show,
    card.getByRole('button', { name: 'Download HD' }),
    card.locator('img'),
  ]) {
    const box = (await part.boundingBox())!;
    const over =
      shown.x < box.x + box.width &&
      box.x < shown.x + shown.width &&
      shown.y < box.y + box.height &&
      box.y < shown.y + shown.height;
    expect(over, 'message over the card').toBe(false);
  }

  // A photo its owner keeps private is not on the wall: nothing to hide, so no button.
  const privateId = await privatePhoto(page.request, current, `Private ${tag}`);
  await search(page, `Private ${tag}`);
  const privateCard = page.locator(
    `[data-testid="staff-media-card"][data-media-id="${privateId}"]`,
  );
  await expect(privateCard).toBeVisible();
  await expect(privateCard.getByRole('button', { name: 'Hide from wall' })).toHaveCount(0);
  await expect(privateCard.getByRole('button', { name: 'Download HD' })).toBeVisible();
  // The server refuses it too, and says why.
  const refused = await page.request.post(`/api/enterprise/media/${privateId}/hide`, {
    headers: bearer(token),
  });
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { message: string }).message).toBe(HIDE_NOT_PUBLIC);

  // The org admin is no super user or product admin: the server refuses All Media.
  const all = await page.request.get('/api/enterprise/media/all', { headers: bearer(token) });
  expect(all.status()).toBe(403);
  await page.goto('/enterprise/media/all');
  await expect(page.getByText('You are not authorized to view this page.')).toBeVisible();
});

test(
  'a super user filters All Media by Org ID and Device ID and sees the repost badge',
  { tag: '@flow' },
  async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    const current = await theRig(page.request, baseURL);
    const tag = uniqueTag();
    const id = await publicPhoto(page.request, current, `Sunset ${tag}`);

    await signInSeededStaff(page, STAFF_PHONE);
    await page.goto('/enterprise/media/all');
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(crumbs.getByText('Admin')).toBeVisible();
    await expect(crumbs.getByText('All Media')).toBeVisible();

    // Below the minimum of 1: refused on screen, nothing applied.
    await page.getByLabel('Org ID').fill('0');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByText('Org ID must be a whole number of at least 1.')).toBeVisible();

    await page.getByLabel('Org ID').fill(String(current.orgId));
    await page.getByLabel('Device ID').fill(String(current.booth.id));
    const applied = page.waitForResponse(
      (response) =>
        response.url().includes('/api/enterprise/media/all') &&
        response.url().includes(`device_id=${current.booth.id}`) &&
        response.url().includes(`org_id=${current.orgId}`),
    );
    await page.getByRole('button', { name: 'Apply' }).click();
    expect((await applied).ok()).toBe(true);
    await search(page, tag);
    const card = page.locator(`[data-testid="staff-media-card"][data-media-id="${id}"]`);
    await expect(card).toBeVisible();
    await expect(card.getByTestId('repost-badge')).toHaveText('Repost Allowed');
    await expect(card.getByRole('button', { name: 'Hide from wall' })).toBeVisible();

    // Another booth's number: nothing of this one.
    await page.getByLabel('Device ID').fill(String(current.booth.id + 100_000));
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByText('No media found.')).toBeVisible();
  },
);
