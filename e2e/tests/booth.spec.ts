import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { newMobile, signInThroughUi } from './support';

/** The seeded demo administrator: a super user and a member of the demo organization. */
const STAFF_PHONE = '+919000000001';

interface OutboxItem {
  code: string | null;
  created_at: string;
}

async function newestOutboxItem(
  request: APIRequestContext,
  phone: string,
): Promise<OutboxItem | undefined> {
  const response = await request.get(`/api/dev/sms?phone=${encodeURIComponent(phone)}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { items: OutboxItem[] }).items[0];
}

async function signInStaffOnce(request: APIRequestContext): Promise<string | null> {
  const before = await newestOutboxItem(request, STAFF_PHONE);
  const signIn = await request.post('/api/enterprise/auth/sign-in', {
    data: { phone: STAFF_PHONE },
  });
  expect(signIn.ok(), await signIn.text()).toBe(true);
  let code: string | null = null;
  await expect
    .poll(async () => {
      const item = await newestOutboxItem(request, STAFF_PHONE);
      const fresh =
        item !== undefined && (item.created_at !== before?.created_at || item.code !== before.code);
      code = fresh ? item.code : null;
      return code;
    })
    .not.toBeNull();
  const verify = await request.post('/api/enterprise/auth/verify', {
    data: { phone: STAFF_PHONE, code },
  });
  if (!verify.ok()) return null;
  return ((await verify.json()) as { access_token: string }).access_token;
}

/**
 * A staff access token for setting up data. Both projects run in parallel and sign in the same
 * staff phone, so a code may be replaced by the other worker's: then sign in again.
 */
let staffToken: Promise<string> | null = null;
function staffAccessToken(request: APIRequestContext): Promise<string> {
  staffToken ??= (async () => {
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const token = await signInStaffOnce(request);
      if (token) return token;
      await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 900));
    }
    throw new Error('Could not sign in the staff user for test setup.');
  })();
  staffToken.catch(() => {
    staffToken = null;
  });
  return staffToken;
}

class StaffApi {
  constructor(
    private readonly request: APIRequestContext,
    private readonly token: string,
  ) {}

  private async call<T>(method: 'get' | 'post' | 'patch', path: string, data?: unknown) {
    const response = await this.request[method](`/api/enterprise/${path}`, {
      headers: { Authorization: `Bearer ${this.token}` },
      data,
    });
    expect(response.ok(), `${method.toUpperCase()} ${path}: ${await response.text()}`).toBe(true);
    return (await response.json()) as T;
  }

  async demoOrgId(): Promise<number> {
    const self = await this.call<{ organizations?: { org_id: number }[] }>('get', 'users/self');
    const orgId = self.organizations?.[0]?.org_id;
    expect(orgId, 'the demo administrator belongs to the demo organization').toBeTruthy();
    return orgId!;
  }

  /** A device linked to the organization, optionally with a price. */
  async createBooth(name: string, orgId: number, priceRupees?: number) {
    const device = await this.call<{ id: number }>('post', 'devices', { name });
    const linked = await this.call<{ id: number; name: string; org_name: string | null }>(
      'patch',
      `devices/${device.id}/link`,
      { org_id: orgId },
    );
    if (priceRupees !== undefined) {
      await this.call('patch', `devices/${device.id}`, { price_rupees: priceRupees });
    }
    return { id: linked.id, name: linked.name, orgName: linked.org_name ?? '' };
  }

  async createTemplate(
    orgId: number,
    name: string,
    orientation: 'portrait' | 'landscape',
    cut?: { is_duplicated: boolean },
  ): Promise<number> {
    const template = await this.call<{ id: number }>('post', 'templates', { name, orientation });
    if (cut) {
      await this.call('patch', `templates/${template.id}`, {
        is_cut: true,
        is_duplicated: cut.is_duplicated,
      });
    }
    await this.call('post', `templates/${template.id}/orgs`, { org_id: orgId });
    return template.id;
  }
}

async function staffApi(request: APIRequestContext): Promise<StaffApi> {
  return new StaffApi(request, await staffAccessToken(request));
}

/** A tag unique to this test run and project, so parallel runs never see each other's data. */
function uniqueTag(): string {
  return `T${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
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
  }) => {
    const tag = uniqueTag();
    const staff = await staffApi(request);
    const orgId = await staff.demoOrgId();
    const booth = await staff.createBooth(`Lobby Booth ${tag}`, orgId);
    const landscapeName = `${tag} Sunset Strips`;
    const portraitName = `${tag} Classic Portrait`;
    const landscapeId = await staff.createTemplate(orgId, landscapeName, 'landscape', {
      is_duplicated: true,
    });
    await staff.createTemplate(orgId, portraitName, 'portrait');
    await staff.createTemplate(orgId, `${tag} Twin Unique`, 'landscape', { is_duplicated: false });
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

  test('a priced booth shows the price and cannot take payment yet; wrong location goes home', async ({
    page,
    request,
  }) => {
    const tag = uniqueTag();
    const staff = await staffApi(request);
    const orgId = await staff.demoOrgId();
    const booth = await staff.createBooth(`Paid Booth ${tag}`, orgId, 49.5);
    const templateName = `${tag} Paid Pick`;
    await staff.createTemplate(orgId, templateName, 'portrait');

    await openBoothAsNewVisitor(page, booth.id);
    const dialog = page.getByRole('dialog', { name: 'Confirm Your Location' });
    await expect(dialog.getByTestId('location-device')).toHaveText(booth.name);
    await dialog.getByRole('button', { name: "Yes, I'm Here" }).click();

    // A new visitor has no credits: the full price.
    await expect(page.getByTestId('price-badge')).toHaveText('Price ₹49.50');
    await search(page, tag, 'enter');
    await expect(cards(page)).toHaveCount(1);
    await cards(page).click();
    await expect(
      page.getByText('Could not initiate payment. Please try again or contact support.'),
    ).toBeVisible();
    await expect(page).toHaveURL(`/b/${booth.id}`);

    // The full address opens the same screen; Wrong Location leaves for home.
    await page.goto(`/regular/photobooths/${booth.id}`);
    await page
      .getByRole('dialog', { name: 'Confirm Your Location' })
      .getByRole('button', { name: 'Wrong Location' })
      .click();
    await expect(page).toHaveURL('/');

    // A bad link and an unknown booth each explain themselves and lead home.
    await page.goto('/b/not-a-booth');
    await expect(page.getByText('Missing device_id')).toBeVisible();
    await page.goto('/b/987654321');
    await expect(
      page.getByText("We couldn't find this photobooth. Please scan the QR code again."),
    ).toBeVisible();
    await page.getByRole('link', { name: 'Go to home' }).click();
    await expect(page).toHaveURL('/');
  });
});
