import { expect, test } from '@playwright/test';
import { signInSeededStaff, staffApi, STAFF_PHONE, uniqueTag } from './support';

/*
 * Ping Device while the answer is on its way (issue 20, item 12): the button says it is waiting
 * and takes no second click; a booth that never connected gets "Ping failed." (the server knows
 * it is away and answers at once).
 */

test(
  'Ping Device shows that it is waiting, then the offline booth’s answer',
  { tag: '@flow' },
  async ({ page }) => {
    const staff = await staffApi(page.request);
    const name = `Away ${uniqueTag()}`;
    const device = await staff.call<{ id: number }>('post', 'devices', { name });

    await signInSeededStaff(page, STAFF_PHONE, `/enterprise/devices/${device.id}`);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    const actions = page.getByRole('group', { name: 'Device actions' });
    const ping = actions.getByRole('button', { name: /^Ping/ });
    await expect(ping).toHaveText('Ping Device');

    // Hold the answer back a moment, so the waiting state can be seen.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/enterprise/devices/${device.id}/ping`, async (route) => {
      await held;
      await route.continue();
    });
    await ping.click();
    await expect(ping).toHaveText('Pinging…');
    await expect(ping).toBeDisabled();
    await expect(ping).toHaveAttribute('aria-busy', 'true');
    await expect(ping.locator('.spinner')).toBeVisible();
    await expect(page.getByTestId('ping-result')).toHaveText('');

    release();
    await expect(page.getByTestId('ping-result')).toHaveText('Ping failed.');
    await expect(ping).toHaveText('Ping Device');
    await expect(ping).toBeEnabled();
    await expect(ping).not.toHaveAttribute('aria-busy', 'true');
  },
);
