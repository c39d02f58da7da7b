import { expect, test, type APIRequestContext } from '@playwright/test';
import { captureAt, demoRig } from './booths';
import { newMobile, signInSeededStaff, signUpThroughApi, staffApi, uniqueTag } from './support';

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
 * A booth of the demo organization for the visitor's capture (its own, so the two projects do not
 * queue at the seeded Demo Booth).
 */
const theRig = demoRig('Stats');

async function stats(request: APIRequestContext, token: string, orgId: number) {
  return request.get(`/api/enterprise/organizations/${orgId}/stats`, {
    headers: { Authorization: `Bearer ${token}` },
  });
}

test(
  'after a capture the demo organization’s statistics show charts and, to its admin, the admin-only cards',
  { tag: '@flow' },
  async ({ page, request, baseURL }) => {
    test.setTimeout(90_000);
    const { orgId, booth, templateId } = await theRig(request, baseURL);
    const adminToken = await signInSeededStaff(page, ORG_ADMIN_PHONE);
    const before = (await (await stats(request, adminToken, orgId)).json()) as StatsBody;
    // A visitor captures at the booth.
    const visitorToken = await signUpThroughApi(request, 'regular', `Stats ${uniqueTag()}`);
    await captureAt(request, visitorToken, booth, templateId);
    // The photo counts once the server has confirmed its upload.
    await expect
      .poll(
        async () =>
          ((await (await stats(request, adminToken, orgId)).json()) as StatsBody).total_media,
      )
      .toBeGreaterThan(before.total_media);

    await page.goto(`/enterprise/organizations/${orgId}`);
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
      'Late Deliveries',
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
  },
);

test(
  'a member sees the statistics without the admin-only cards; the server refuses a non-member',
  { tag: '@flow' },
  async ({ page, request }) => {
    test.setTimeout(60_000);
    const staff = await staffApi(request);
    const orgId = await staff.demoOrgId();

    // A new staff member joins the demo organization as a member (invited, then accepting).
    const memberPhone = `+91${newMobile()}`;
    const memberToken = await signUpThroughApi(request, 'enterprise', 'Stats Member', memberPhone);
    await staff.call('post', `organizations/${orgId}/invites`, {
      role: 'member',
      invitee_phone: memberPhone,
    });
    const accepted = await request.post(`/api/enterprise/organizations/${orgId}/invites/accept`, {
      headers: { Authorization: `Bearer ${memberToken}` },
      data: {},
    });
    expect(accepted.ok(), await accepted.text()).toBe(true);

    const response = await stats(request, memberToken, orgId);
    expect(response.status()).toBe(200);
    const body = (await response.json()) as StatsBody;
    expect(body.total_captures).toEqual(expect.any(Number));
    for (const field of ['share_rate', 'download_rate', 'repeated_users', 'revenue']) {
      expect(body, field).not.toHaveProperty(field);
    }

    await signInSeededStaff(page, memberPhone, `/enterprise/organizations/${orgId}/stats`);
    const details = page.getByRole('list', { name: 'Details' });
    await expect(details.getByText('Most Used Template', { exact: true })).toBeVisible();
    for (const label of ['Share Rate', 'Download Rate', 'Repeated Users']) {
      await expect(page.getByText(label, { exact: true })).toHaveCount(0);
    }
    await expect(page.getByRole('heading', { name: 'Revenue' })).toHaveCount(0);

    // Staff of no organization: the organization is not even found.
    const outsiderToken = await signUpThroughApi(request, 'enterprise', 'Stats Outsider');
    expect((await stats(request, outsiderToken, orgId)).status()).toBe(404);
  },
);
