import { expect, test, type Page } from '@playwright/test';
import { startBooth, type TestBooth } from './booths';
import { newMobile, signInThroughUi, staffApi, uniqueTag, type RegisteredBooth } from './support';

/** Agents this worker started (a booth must be online to be picked at); stopped after the file. */
const running: TestBooth[] = [];
test.afterAll(async () => {
  await Promise.all(running.splice(0).map((booth) => booth.agent.stop()));
});

async function online(booth: RegisteredBooth, serverUrl: string | undefined) {
  if (!serverUrl) throw new Error('baseURL is not configured');
  running.push(await startBooth(booth, serverUrl));
}

/** A signed-out visitor scans the booth's QR code, signs in and comes back to the booth. */
async function openBoothAsNewVisitor(page: Page, deviceId: number) {
  await page.goto(`/b/${deviceId}`);
  await expect(page).toHaveURL('/regular/login');
  await signInThroughUi(page, 'regular', newMobile(), 'Booth Visitor');
  await expect(page).toHaveURL(`/b/${deviceId}`);
}

async function search(page: Page, term: string, via: 'enter' | 'button') {
  const box = page.getByRole('searchbox', { name: 'Search templates' });
  await box.fill(term);
  if (via === 'enter') await box.press('Enter');
  else await page.getByRole('button', { name: 'Search', exact: true }).click();
}

const cards = (page: Page) => page.getByTestId('template-card');

test.describe('booth template selection', () => {
  test('a visitor confirms the booth, searches and pages templates, and picks a free one', async ({
    page,
    request,
    baseURL,
  }) => {
    const tag = uniqueTag();
    const staff = await staffApi(request);
    const orgId = await staff.demoOrgId();
    const booth = await staff.createBooth(`Lobby Booth ${tag}`, orgId);
    await online(booth, baseURL);
    const landscapeName = `${tag} Sunset Strips`;
    const portraitName = `${tag} Classic Portrait`;
    const landscapeId = await staff.createTemplate(orgId, landscapeName, 'landscape', {
      cut: { is_duplicated: true },
    });
    await staff.createTemplate(orgId, portraitName, 'portrait');
    await staff.createTemplate(orgId, `${tag} Twin Unique`, 'landscape', {
      cut: { is_duplicated: false },
    });
    // Enough for a second page under this tag (9 per page).
    for (let index = 1; index <= 8; index += 1) {
      await staff.createTemplate(orgId, `${tag} Extra ${index}`, 'portrait');
    }

    await openBoothAsNewVisitor(page, booth.id);

    const dialog = page.getByRole('dialog', { name: 'Confirm Your Location' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId('location-org')).toHaveText(booth.orgName);
    await expect(dialog.getByTestId('location-device')).toHaveText(booth.name);
    await expect(page.getByTestId('booth-skeleton')).toBeAttached();
    await dialog.getByRole('button', { name: "Yes, I'm Here" }).click();
    await expect(dialog).toBeHidden();

    await expect(
      page.getByRole('heading', { level: 1, name: 'Select Your Template' }),
    ).toBeVisible();
    await expect(page.getByTestId('price-badge')).toHaveText('FREE');
    // The organization offers at least this run's 11 templates: a full first page and more.
    await expect(cards(page)).toHaveCount(9);
    await expect(page.getByRole('button', { name: 'Load More Templates' })).toBeVisible();

    await search(page, tag, 'enter');
    const landscapeCard = cards(page).filter({ hasText: landscapeName });
    const portraitCard = cards(page).filter({ hasText: portraitName });
    await expect(landscapeCard).toBeVisible();
    await expect(landscapeCard).toContainText('2 strips');
    await expect(landscapeCard).toContainText('Duplicate');
    await expect(landscapeCard).toContainText('No sample');
    await expect(portraitCard).toContainText('1 large print');
    await expect(cards(page).filter({ hasText: `${tag} Twin Unique` })).toContainText(
      'Unique Sides',
    );
    await expect(cards(page)).toHaveCount(9);

    // A scroll hint while more cards are below the fold, gone at the bottom.
    await expect(page.getByTestId('scroll-hint')).toBeVisible();
    await page.getByRole('button', { name: 'Load More Templates' }).click();
    await expect(cards(page)).toHaveCount(11);
    await expect(page.getByRole('button', { name: 'Load More Templates' })).toHaveCount(0);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(page.getByTestId('scroll-hint')).toBeHidden();

    // A new search starts the list again.
    await search(page, `${tag} Sunset`, 'button');
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page)).toContainText(landscapeName);

    await search(page, `${tag} nothing like this`, 'enter');
    await expect(page.getByText('No templates found.')).toBeVisible();
    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect(cards(page)).toHaveCount(9);
    await expect(page.getByRole('searchbox', { name: 'Search templates' })).toHaveValue('');

    await search(page, landscapeName, 'enter');
    await page.getByRole('button', { name: new RegExp(landscapeName) }).click();
    await expect(page).toHaveURL(
      `/regular/photobooths/${booth.id}/capture?template_id=${landscapeId}`,
    );
  });

  test(
    'a priced booth shows the price; a template without photo slots cannot be paid for; wrong location goes home',
    { tag: '@flow' },
    async ({ page, request, baseURL }) => {
      const tag = uniqueTag();
      const staff = await staffApi(request);
      const orgId = await staff.demoOrgId();
      const booth = await staff.createBooth(`Paid Booth ${tag}`, orgId, 49.5);
      await online(booth, baseURL);
      const templateName = `${tag} Paid Pick`;
      await staff.createTemplate(orgId, templateName, 'portrait');

      await openBoothAsNewVisitor(page, booth.id);
      const dialog = page.getByRole('dialog', { name: 'Confirm Your Location' });
      await expect(dialog.getByTestId('location-device')).toHaveText(booth.name);
      // Wrong Location leaves for home; the full address opens the same screen and asks again.
      await dialog.getByRole('button', { name: 'Wrong Location' }).click();
      await expect(page).toHaveURL('/');
      await page.goto(`/regular/photobooths/${booth.id}`);
      await expect(dialog.getByTestId('location-device')).toHaveText(booth.name);
      await dialog.getByRole('button', { name: "Yes, I'm Here" }).click();

      // A new visitor has no credits: the full price.
      await expect(page.getByTestId('price-badge')).toHaveText('Price ₹49.50');
      await search(page, tag, 'enter');
      await expect(cards(page)).toHaveCount(1);
      // The template has no photo slots yet, so the server refuses to take a payment for it.
      await cards(page).click();
      await expect(
        page.getByText('Could not initiate payment. Please try again or contact support.'),
      ).toBeVisible();
      await expect(page).toHaveURL(`/regular/photobooths/${booth.id}`);

      // Once answered, the visit remembers it (issue 37): a reload goes straight to the templates.
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Select Your Template' })).toBeVisible();
      await expect(dialog).toHaveCount(0);

      // A bad link and an unknown booth each explain themselves and lead home.
      await page.goto('/b/not-a-booth');
      await expect(page.getByText('Missing device_id')).toBeVisible();
      await page.goto('/b/987654321');
      await expect(
        page.getByText("We couldn't find this photobooth. Please scan the QR code again."),
      ).toBeVisible();
      await page.getByRole('link', { name: 'Go to home' }).click();
      await expect(page).toHaveURL('/');
    },
  );
});
