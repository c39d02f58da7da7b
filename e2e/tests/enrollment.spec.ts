import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signInSeededStaff, STAFF_PHONE, uniqueTag } from './support';

/*
 * Issue 22, item 5: a booth computer set up with a one-time enrollment code. The Register Device
 * dialog shows the code with its expiry and the one command for the booth (issue 39: install,
 * enroll and start; the secret and env block
 * stay as "Advanced: paste settings"); the device page makes a new code on demand. The codes
 * shown are traded at the booth's own call, POST /api/device/enroll.
 */

const CODE = /^[A-HJKMNP-TW-Z2-9]{4}-[A-HJKMNP-TW-Z2-9]{4}$/;

const enroll = (request: APIRequestContext, code: string) =>
  request.post('/api/device/enroll', { data: { code } });

/** The dialog's code once it is made. */
async function shownCode(page: Page, dialogName: string): Promise<string> {
  const code = page.getByRole('dialog', { name: dialogName }).getByTestId('enrollment-code');
  await expect(code).toHaveText(CODE);
  return (await code.textContent())!;
}

test(
  'Register Device shows a one-time enrollment code and the command for the booth',
  { tag: '@flow' },
  async ({ page, request, baseURL }, testInfo) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(baseURL!).origin,
    });
    await signInSeededStaff(page, STAFF_PHONE, '/enterprise/devices');
    await page.getByRole('button', { name: '+Add' }).click();
    const register = page.getByRole('dialog', { name: 'Register Device' });
    await register.getByLabel('Device name (optional)').fill(`Enroll ${uniqueTag()}`);
    await register.getByRole('button', { name: 'Register' }).click();

    const registered = page.getByRole('dialog', { name: 'Device Registered' });
    const code = await shownCode(page, 'Device Registered');
    await expect(registered.getByTestId('enrollment-expiry')).toHaveText(
      /^Works once, until \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} UTC \(30 minutes\)\.$/,
    );
    // Issue 39: one line for the booth's terminal installs, enrolls and starts it.
    const origin = new URL(baseURL!).origin;
    const command = `curl -fsSL ${origin}/booth/install.sh | sudo sh -s -- ${code}`;
    await expect(registered.getByTestId('enrollment-command')).toHaveText(command);
    await expect(registered.getByTestId('enrollment-installed-command')).toContainText(
      `sudo flashbooth-booth enroll ${origin} ${code}`,
    );
    // The line names a script the server serves, without sign-in.
    const script = await request.get('/booth/install.sh');
    expect(script.status()).toBe(200);
    expect(script.headers()['content-type']).toMatch(/^text\/x-shellscript/);
    // The advanced way is still there: the secret and the env block.
    await expect(
      registered.getByRole('heading', { name: 'Advanced: paste settings' }),
    ).toBeVisible();
    await expect(registered.getByTestId('booth-env')).toContainText('BOOTH_SECRET=');
    // Nothing on the dialog scrolls sideways but the boxes meant to.
    expect(await registered.evaluate((dialog) => dialog.scrollWidth - dialog.clientWidth)).toBe(0);
    await page.screenshot({ path: testInfo.outputPath('registered.png') });

    await registered.getByRole('button', { name: 'Copy command' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(command);

    // The booth's call: the code works once.
    const first = await enroll(request, code.toLowerCase());
    expect(first.status()).toBe(200);
    expect(Object.keys(await first.json()).sort()).toEqual([
      'BOOTH_MQTT_URL',
      'BOOTH_SECRET',
      'BOOTH_SERVER_URL',
      'BOOTH_THING_NAME',
    ]);
    expect((await enroll(request, code)).status()).toBe(409);
  },
);

test(
  'a device’s page makes a new enrollment code, which replaces the one before',
  { tag: '@flow' },
  async ({ page, request }, testInfo) => {
    const name = `Enroll again ${uniqueTag()}`;
    await signInSeededStaff(page, STAFF_PHONE, '/enterprise/devices');
    await page.getByRole('button', { name: '+Add' }).click();
    const register = page.getByRole('dialog', { name: 'Register Device' });
    await register.getByLabel('Device name (optional)').fill(name);
    await register.getByRole('button', { name: 'Register' }).click();
    const first = await shownCode(page, 'Device Registered');
    await page
      .getByRole('dialog', { name: 'Device Registered' })
      .getByRole('link', { name: 'Open Device' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

    await page.getByRole('button', { name: 'Enroll a booth computer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enroll a booth computer' });
    const second = await shownCode(page, 'Enroll a booth computer');
    expect(second).not.toBe(first);
    await expect(dialog.getByTestId('enrollment-command')).toContainText(second);
    await page.screenshot({ path: testInfo.outputPath('enroll-dialog.png') });

    await dialog.getByRole('button', { name: 'New Code' }).click();
    await expect(dialog.getByTestId('enrollment-code')).not.toHaveText(second);
    const third = await shownCode(page, 'Enroll a booth computer');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();

    // Only the newest code works. (Few wrong codes: the server counts them per address, and every
    // test here calls from 127.0.0.1.)
    expect((await enroll(request, second)).status()).toBe(401);
    expect((await enroll(request, third)).status()).toBe(200);
  },
);
