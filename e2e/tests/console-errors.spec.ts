import { expect, test, type Page } from '@playwright/test';
import { signInSeededStaff, STAFF_PHONE, staffApi, uniqueTag } from './support';

/*
 * What the console says when a screen's record is refused (403) or is not there for this person
 * (404): plainly that, with a way back, and never a Try again that cannot work (issue 20 item 18).
 * Other failures keep their Try again.
 */

const ORG_ADMIN_PHONE = '+919000000002';

async function expectNoRetry(page: Page) {
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
}

test(
  'an organization admin refused a device’s logs is told so, with a way back',
  { tag: '@flow' },
  async ({ page }) => {
    const staff = await staffApi(page.request);
    const { items } = await staff.call<{ items: { id: number; name: string }[] }>(
      'get',
      'devices?search=Demo%20Booth',
    );
    const booth = items[0]!;
    await signInSeededStaff(page, ORG_ADMIN_PHONE, `/enterprise/devices/${booth.id}/logs`);
    await expect(page.getByRole('heading', { level: 1, name: 'Error Logs' })).toBeVisible();
    const panel = page
      .getByRole('alert')
      .filter({ hasText: 'You don’t have access to this page.' });
    await expect(panel).toBeVisible();
    await expect(panel).toContainText('Only super users and Flashbooth admins');
    await expectNoRetry(page);
    await expect(page.getByRole('searchbox', { name: 'Search logs' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Back to Device' }).click();
    await expect(page).toHaveURL(`/enterprise/devices/${booth.id}`);
    await expect(page.getByRole('heading', { level: 1, name: booth.name })).toBeVisible();
  },
);

test(
  'another organization’s pages read as not found or not theirs, never as a failure',
  { tag: '@flow' },
  async ({ page }) => {
    const staff = await staffApi(page.request);
    const other = await staff.call<{ id: number }>('post', 'organizations', {
      name: `Elsewhere ${uniqueTag()}`,
    });
    const spare = await staff.call<{ id: number }>('post', 'devices', {
      name: `Spare ${uniqueTag()}`,
    });
    await signInSeededStaff(page, ORG_ADMIN_PHONE, `/enterprise/organizations/${other.id}`);
    const notFound = page.getByRole('alert').filter({
      hasText:
        'We can’t find this organization. It may have been deleted, or it isn’t one of yours.',
    });
    await expect(notFound).toBeVisible();
    await expect(page.getByText('Failed to load organization details.')).toHaveCount(0);
    await expectNoRetry(page);
    await expect(page.getByRole('link', { name: 'Back to Organizations' })).toBeVisible();

    for (const screen of ['users', 'guests', 'stats']) {
      await page.goto(`/enterprise/organizations/${other.id}/${screen}`);
      await expect(notFound).toBeVisible();
      await expectNoRetry(page);
    }

    await page.goto(`/enterprise/devices/${spare.id}`);
    await expect(
      page.getByRole('alert').filter({
        hasText: 'We can’t find this device. It may have been deleted, or it isn’t one of yours.',
      }),
    ).toBeVisible();
    await expectNoRetry(page);
    await page.getByRole('link', { name: 'Back to Devices' }).click();
    await expect(page).toHaveURL('/enterprise/devices');
  },
);

test(
  'a template that is not there offers nothing to add, and a refused screen a way back',
  { tag: '@flow' },
  async ({ page }) => {
    await signInSeededStaff(page, STAFF_PHONE, '/enterprise/templates/999999/orgs');
    await expect(
      page.getByRole('alert').filter({ hasText: 'We can’t find this template.' }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: '+Add Organization' })).toHaveCount(0);
    await expectNoRetry(page);

    // The software screens are for super users and product admins: others get the spec's words
    // and the way back to the console.
    await signInSeededStaff(page, ORG_ADMIN_PHONE, '/enterprise/software/channels');
    await expect(page.getByText('You are not authorized to view this page.')).toBeVisible();
    await page.getByRole('link', { name: 'Back to Organizations' }).click();
    await expect(page).toHaveURL('/enterprise/organizations');
  },
);
