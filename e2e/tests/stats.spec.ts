import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { startBooth } from './booths';
import { latestCode, newMobile, staffApi, uniqueTag } from './support';

/** The seeded admin of the demo organization (not a super user). */
const ORG_ADMIN_PHONE = '+919000000002';

interface StatsBody {
  total_media: number;
  total_captures: number;
  share_rate?: number;
  download_rate?: number;
  repeated_users?: number;
  revenue?: unknown;
  media_per_week: { week_start: string; count: number }[];
}

/**
 * Signs `phone` up (or in) in `pool` through the API with `request` and answers the session.
 * With a page's request context the refresh cookie lands in that browser, so the app finds the
 * session as after a reload. Other workers sign the seeded phones in too, so a code may be
 * replaced before it is used: then it starts again.
 */
async function session(
  request: APIRequestContext,
  pool: 'regular' | 'enterprise',
  phone: string,
  name = 'Stats Person',
): Promise<{ token: string; user: unknown }> {
  for (let attempt = 0; attempt < 6; attempt += 1) {
    const before = await request.get(`/api/dev/sms?phone=${encodeURIComponent(phone)}`);
    const previous = ((await before.json()) as { items: { code: string | null }[] }).items[0]?.code;
    const signUp = await request.post(`/api/${pool}/auth/sign-up`, { data: { phone, name } });
    if (signUp.status() === 409) {
      const signIn = await request.post(`/api/${pool}/auth/sign-in`, { data: { phone } });
      expect(signIn.ok(), await signIn.text()).toBe(true);
    } else {
      expect(signUp.ok(), await signUp.text()).toBe(true);
    }
    const code = await latestCode(request, phone, previous ?? undefined);
    const verify = await request.post(`/api/${pool}/auth/verify`, { data: { phone, code } });
    if (verify.ok()) {
      const body = (await verify.json()) as { access_token: string; user: unknown };
      return { token: body.access_token, user: body.user };
    }
    await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 900));
  }
  throw new Error(`${phone} could not sign in`);
}

/** Signs a staff phone in to this browser and opens `path`. */
async function openAsStaff(page: Page, phone: string, path: string, name?: string) {
  const { token, user } = await session(page.request, 'enterprise', phone, name);
  await page.goto('/enterprise/login');
  await page.evaluate((record) => localStorage.setItem('user', JSON.stringify(record)), user);
  await page.goto(path);
  return token;
}

async function stats(request: APIRequestContext, token: string, orgId: number) {
  return request.get(`/api/enterprise/organizations/${orgId}/stats`, {
    headers: { Authorization: `Bearer ${token}` },
  });
}

test('after a capture the demo organization’s statistics show charts and, to its admin, the admin-only cards', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  if (!baseURL) throw new Error('baseURL is not configured');
  const tag = uniqueTag();
  const staff = await staffApi(request);
  const orgId = await staff.demoOrgId();

  // A visitor captures at a booth of the demo organization (its own, so the two projects do
  // not queue at the seeded Demo Booth).
  const registered = await staff.createBooth(`Stats Booth ${tag}`, orgId);
  const templateId = await staff.createTemplate(orgId, `${tag} Stats`, 'landscape', { slots: 1 });
  const booth = await startBooth(registered, baseURL);
  const adminToken = (await session(request, 'enterprise', ORG_ADMIN_PHONE)).token;
  const before = (await (await stats(request, adminToken, orgId)).json()) as StatsBody;
  try {
    const visitor = await session(request, 'regular', `+91${newMobile()}`, `Stats ${tag}`);
    const capture = await request.post(`/api/regular/devices/${booth.id}/capture`, {
      headers: { Authorization: `Bearer ${visitor.token}` },
      data: { template_id: templateId },
    });
    expect(capture.ok(), await capture.text()).toBe(true);
    await booth.agent.idle();
    expect(booth.errors).toEqual([]);
  } finally {
    await booth.agent.stop();
  }
  // The photo counts once the server has confirmed its upload.
  await expect
    .poll(
      async () =>
        ((await (await stats(request, adminToken, orgId)).json()) as StatsBody).total_media,
    )
    .toBeGreaterThan(before.total_media);

  await openAsStaff(page, ORG_ADMIN_PHONE, `/enterprise/organizations/${orgId}`);
  await page.getByRole('link', { name: 'View Statistics' }).click();
  await expect(page).toHaveURL(new RegExp(`/enterprise/organizations/${orgId}/stats$`));
  const crumbs = page.getByRole('navigation', { name: /breadcrumb/i });
  await expect(crumbs.getByRole('link', { name: 'Organizations' })).toBeVisible();
  await expect(crumbs).toContainText('Statistics');

  const totals = page.getByRole('list', { name: 'Totals' });
  for (const label of [
    'Total Captures',
    'Total Media',
    'Shared Media',
    'Downloaded Media',
    'Users Who Captured',
  ]) {
    await expect(totals.getByText(label, { exact: true })).toBeVisible();
  }
  const totalMedia = totals.getByRole('listitem').filter({ hasText: 'Total Media' });
  await expect(totalMedia).toContainText(/Total Media\s*[1-9][\d,]*/);

  const details = page.getByRole('list', { name: 'Details' });
  for (const label of ['Share Rate', 'Download Rate', 'Repeated Users', 'Most Used Template']) {
    await expect(details.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(details.getByRole('listitem').filter({ hasText: 'Share Rate' })).toContainText(
    /\d+\.\d%/,
  );

  // Both charts are drawn (canvas with a text summary) and have their table alternative.
  await expect(page.getByRole('img', { name: /^Media per week from/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Media per month from/ })).toBeVisible();
  await expect(page.getByText('No weekly data available to display chart.')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Revenue' })).toBeVisible();
});

test('a member sees the statistics without the admin-only cards; the server refuses a non-member', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const staff = await staffApi(request);
  const orgId = await staff.demoOrgId();

  // A new staff member joins the demo organization as a member (invited, then accepting).
  const memberPhone = `+91${newMobile()}`;
  const member = await session(request, 'enterprise', memberPhone, 'Stats Member');
  await staff.call('post', `organizations/${orgId}/invites`, {
    role: 'member',
    invitee_phone: memberPhone,
  });
  const accepted = await request.post(`/api/enterprise/organizations/${orgId}/invites/accept`, {
    headers: { Authorization: `Bearer ${member.token}` },
    data: {},
  });
  expect(accepted.ok(), await accepted.text()).toBe(true);

  const response = await stats(request, member.token, orgId);
  expect(response.status()).toBe(200);
  const body = (await response.json()) as StatsBody;
  expect(body.total_captures).toEqual(expect.any(Number));
  for (const field of ['share_rate', 'download_rate', 'repeated_users', 'revenue']) {
    expect(body, field).not.toHaveProperty(field);
  }

  await openAsStaff(page, memberPhone, `/enterprise/organizations/${orgId}/stats`, 'Stats Member');
  const details = page.getByRole('list', { name: 'Details' });
  await expect(details.getByText('Most Used Template', { exact: true })).toBeVisible();
  for (const label of ['Share Rate', 'Download Rate', 'Repeated Users']) {
    await expect(page.getByText(label, { exact: true })).toHaveCount(0);
  }
  await expect(page.getByRole('heading', { name: 'Revenue' })).toHaveCount(0);

  // Staff of no organization: the organization is not even found.
  const outsider = await session(request, 'enterprise', `+91${newMobile()}`, 'Stats Outsider');
  expect((await stats(request, outsider.token, orgId)).status()).toBe(404);
});
