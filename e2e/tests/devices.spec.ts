import { expect, test, type Page } from '@playwright/test';
import { signInSeededStaff, staffApi, STAFF_PHONE, uniqueTag } from './support';

/*
 * The staff console's device screens (staff.md section 2: Devices list, Device detail, Device
 * error logs). A super user registers a booth of their own for every change (the demo booths are
 * shared with the capture and payment tests, so they are only pinged); the demo organization's
 * admin sees only that organization's devices, without the privileged buttons, and the server
 * refuses those calls from them too.
 */

const ORG_ADMIN_PHONE = '+919000000002';

async function search(page: Page, label: string, text: string) {
  const box = page.getByRole('searchbox', { name: label });
  await box.fill(text);
  await box.press('Enter');
}

/** Opens the device card with exactly this name from the Devices list. */
async function openDevice(page: Page, name: string) {
  await search(page, 'Search devices', name);
  const card = page
    .getByTestId('device-card')
    .filter({ has: page.getByText(name, { exact: true }) });
  await card.click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

test(
  'a super user registers a booth, prices and restocks it, pings the demo booth and reads the logs',
  { tag: '@flow' },
  async ({ page }) => {
    const name = `Lobby ${uniqueTag()}`;
    await signInSeededStaff(page, STAFF_PHONE, '/enterprise/devices');
    await expect(page.getByRole('heading', { level: 1, name: 'Devices' })).toBeVisible();

    // +Add registers the booth and shows its secret once, with the env block for the booth.
    await page.getByRole('button', { name: '+Add' }).click();
    const register = page.getByRole('dialog', { name: 'Register Device' });
    await register.getByLabel('Device name (optional)').fill(name);
    await register.getByRole('button', { name: 'Register' }).click();
    const registered = page.getByRole('dialog', { name: 'Device Registered' });
    await expect(registered).toContainText(name);
    await expect(registered).toContainText('cannot be shown again');
    const env = await registered.getByTestId('booth-env').innerText();
    const values = Object.fromEntries(
      env
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(Object.keys(values)).toEqual([
      'BOOTH_MQTT_URL',
      'BOOTH_THING_NAME',
      'BOOTH_SECRET',
      'BOOTH_SERVER_URL',
    ]);
    expect(values.BOOTH_MQTT_URL).toMatch(/^mqtt:\/\/[^/]+:\d+$/);
    expect(values.BOOTH_THING_NAME).toMatch(/^fb-[a-z2-7]{10}$/);
    expect(values.BOOTH_SERVER_URL).toBe(new URL(page.url()).origin);
    const secret = values.BOOTH_SECRET!;
    expect(secret.length).toBeGreaterThanOrEqual(43);
    await expect(registered).toContainText(secret);
    await expect(registered.getByRole('button', { name: 'Copy secret' })).toBeVisible();
    await registered.getByRole('link', { name: 'Open Device' }).click();

    // The detail never shows the secret again, not even in the raw record.
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByText('(Not linked to an organization)')).toBeVisible();
    await expect(page.getByLabel('Raw device record')).toContainText(values.BOOTH_THING_NAME!);
    await expect(page.locator('body')).not.toContainText(secret);
    await expect(page.getByRole('button', { name: 'Link Device' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'QR poster' })).toHaveCount(0);

    // Edit Price: a bad value is refused in the dialog, a good one is rounded to two decimals.
    await page.getByRole('button', { name: 'Edit Price' }).click();
    const price = page.getByRole('dialog', { name: 'Edit Device Price' });
    await price.getByLabel('Price (Rupees)').fill('1000.5');
    await price.getByRole('button', { name: 'Save' }).click();
    await expect(price.getByRole('alert')).toHaveText(
      'Price must be a number between 0.00 and 1000.00.',
    );
    await price.getByLabel('Price (Rupees)').fill('49.999');
    await price.getByRole('button', { name: 'Save' }).click();
    await expect(price).toBeHidden();
    await expect(page.getByTestId('device-price')).toHaveText('₹50.00');

    // Restock Printer Media: 100 to 700.
    await page.getByRole('button', { name: 'Restock Media' }).click();
    const restock = page.getByRole('dialog', { name: 'Restock Printer Media' });
    await restock.getByLabel('Prints left').fill('50');
    await restock.getByRole('button', { name: 'Restock' }).click();
    await expect(restock.getByRole('alert')).toHaveText(
      'Value must be a number between 100 and 700.',
    );
    await restock.getByLabel('Prints left').fill('150');
    await restock.getByRole('button', { name: 'Restock' }).click();
    await expect(restock).toBeHidden();
    await expect(page.getByTestId('device-prints')).toContainText('150 / 700');
    await expect(page.getByRole('progressbar', { name: 'Prints left' })).toHaveAttribute(
      'aria-valuenow',
      '150',
    );

    // The error log of the new booth: empty, and back to the device.
    await page.getByRole('link', { name: 'View Logs' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Error Logs' })).toBeVisible();
    const deviceId = /\/enterprise\/devices\/(\d+)\/logs$/.exec(page.url())?.[1];
    await expect(page.locator('.list-page-subtitle')).toHaveText(`Device #${deviceId}`);
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText(name);
    await expect(page.getByRole('searchbox', { name: 'Search logs' })).toHaveAttribute(
      'placeholder',
      'Search logs…',
    );
    await expect(page.getByText('No logs found.')).toBeVisible();
    await page.getByRole('link', { name: '← Back to Device' }).click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

    // Delete it again ("This action cannot be undone."), back to the list after 1.5 s.
    await page.getByRole('button', { name: 'Delete Device' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Deletion' });
    await expect(confirm).toContainText('This action cannot be undone.');
    await confirm.getByRole('button', { name: 'Yes, Delete' }).click();
    await expect(page).toHaveURL(/\/enterprise\/devices$/);

    // Ping the demo booth (run by the launcher): "Ping successful!".
    await openDevice(page, 'Demo Booth');
    await page.getByRole('button', { name: 'Ping Device' }).click();
    await expect(page.getByTestId('ping-result')).toHaveText('Ping successful!');
    await expect(page.getByRole('link', { name: 'QR poster' })).toBeVisible();
  },
);

test(
  'an organization admin sees only their organization’s devices and no privileged actions',
  { tag: '@flow' },
  async ({ page }) => {
    // A booth of no organization, which the admin must not see.
    const staff = await staffApi(page.request);
    const hidden = `Spare ${uniqueTag()}`;
    const spare = await staff.call<{ id: number }>('post', 'devices', { name: hidden });

    const token = await signInSeededStaff(page, ORG_ADMIN_PHONE, '/enterprise/devices');
    await expect(page.getByRole('heading', { level: 1, name: 'Devices' })).toBeVisible();
    await expect(page.getByTestId('device-card').first()).toBeVisible();
    await expect(page.getByRole('button', { name: '+Add' })).toHaveCount(0);
    for (const card of await page.getByTestId('device-card').all()) {
      await expect(card).toContainText('Flashbooth Demo Café');
    }
    await search(page, 'Search devices', hidden);
    await expect(page.getByText('No devices found.')).toBeVisible();

    await openDevice(page, 'Demo Booth');
    const actions = page.getByRole('group', { name: 'Device actions' });
    await expect(actions.getByRole('button', { name: 'Edit Name' })).toBeVisible();
    await expect(actions.getByRole('button', { name: 'Ping Device' })).toBeVisible();
    for (const privileged of [
      'Link Device',
      'Unlink Device',
      'Edit Software Channel',
      'Restock Media',
      'Edit Price',
      'Update Software',
      'Delete Device',
    ]) {
      await expect(actions.getByRole('button', { name: privileged })).toHaveCount(0);
    }
    await expect(actions.getByRole('link', { name: 'View Logs' })).toHaveCount(0);
    await expect(page.getByText('Sensitive information is hidden.')).toBeVisible();
    await expect(page.getByLabel('Raw device record')).toHaveCount(0);

    // The server refuses the same calls: 403 on their organization's booth, 404 on another.
    const deviceId = /\/enterprise\/devices\/(\d+)$/.exec(page.url())![1];
    const headers = { Authorization: `Bearer ${token}` };
    const price = await page.request.patch(`/api/enterprise/devices/${deviceId}`, {
      headers,
      data: { price_rupees: 1 },
    });
    expect(price.status()).toBe(403);
    const logs = await page.request.get(`/api/enterprise/devices/${deviceId}/errors`, { headers });
    expect(logs.status()).toBe(403);
    const registerCall = await page.request.post('/api/enterprise/devices', { headers });
    expect(registerCall.status()).toBe(403);
    const other = await page.request.get(`/api/enterprise/devices/${spare.id}`, { headers });
    expect(other.status()).toBe(404);
  },
);
