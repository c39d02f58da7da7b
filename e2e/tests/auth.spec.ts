import { expect, test } from '@playwright/test';
import { latestCode, newMobile, signInThroughUi } from './support';

test.describe('sign-in', () => {
  test('a new visitor signs up through the outbox and lands home, signed in', async ({ page }) => {
    const mobile = newMobile();
    await page.goto('/regular/login');
    await signInThroughUi(page, 'regular', mobile, 'Priya Sharma');
    await expect(page).toHaveURL('/');
    await expect(page.getByText('Welcome, Priya Sharma')).toBeVisible();
    await expect(page.getByText('Use the navigation to explore.')).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav).toBeVisible();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
    expect(stored).toMatchObject({ name: 'Priya Sharma', type: 'regular', phone: `+91${mobile}` });
  });

  test('returns to the page the visitor first asked for', { tag: '@flow' }, async ({ page }) => {
    await page.goto('/regular/profile?tab=1');
    await expect(page).toHaveURL(/\/regular\/login$/);
    await signInThroughUi(page, 'regular', newMobile(), 'Rohan Mehta');
    await expect(page).toHaveURL('/regular/profile?tab=1');
    await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  });

  test(
    'staff sign up on the venue login and are kept out of visitor pages',
    { tag: '@flow' },
    async ({ page }) => {
      await page.goto('/enterprise/profile');
      await expect(page).toHaveURL(/\/enterprise\/login$/);
      await signInThroughUi(page, 'enterprise', newMobile(), 'Staff Member');
      await expect(
        page.getByRole('heading', { level: 1, name: 'Enterprise Profile' }),
      ).toBeVisible();

      for (const path of ['/regular/media', '/b/1']) {
        await page.goto(path);
        await expect(page).toHaveURL('/enterprise/profile?blocked=regular');
        const banner = page.getByRole('alert').filter({ hasText: 'Venue Portal' });
        await expect(banner).toBeVisible();
      }
      await page.getByRole('button', { name: 'Dismiss' }).click();
      await expect(page).toHaveURL('/enterprise/profile');
      await expect(page.getByRole('alert').filter({ hasText: 'Venue Portal' })).toHaveCount(0);
    },
  );

  test('checks the phone number before sending', { tag: '@flow' }, async ({ page }) => {
    await page.goto('/regular/login');
    await expect(page.getByLabel('Country code')).toHaveValue('+91');
    await page.getByLabel('Mobile number').fill('12345');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('Please enter a valid phone number.')).toBeVisible();
  });

  test(
    'refuses letters in the mobile number, even beside enough digits',
    { tag: '@flow' },
    async ({ page }) => {
      await page.goto('/regular/login');
      await page.getByLabel('Mobile number').fill('98765abc43210');
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByText('Please enter a valid phone number.')).toBeVisible();
      await expect(page.getByLabel('One-time code')).toHaveCount(0);
      await expect(page.getByLabel('Full name')).toHaveCount(0);
      // The server checks it too: a phone with letters is not a phone.
      const response = await page.request.post('/api/regular/auth/sign-in', {
        data: { phone: '+9198765abc43210' },
      });
      expect(response.status()).toBe(400);
      expect(await response.json()).toMatchObject({
        message: 'Please enter a valid phone number.',
      });
    },
  );

  test(
    'staff land in the console after signing in, not on the marketing page',
    { tag: '@flow' },
    async ({ page }) => {
      await signInThroughUi(page, 'enterprise', newMobile(), 'Console Arrival');
      await expect(page).toHaveURL('/enterprise/organizations');
      await expect(page.getByRole('heading', { level: 1, name: 'Organizations' })).toBeVisible();
    },
  );

  test(
    'a visitor on the venue login is offered their own home, staff the console',
    { tag: '@flow' },
    async ({ page }) => {
      await signInThroughUi(page, 'regular', newMobile(), 'Wrong Door');
      await expect(page).toHaveURL('/');
      await page.goto('/enterprise/organizations');
      await expect(page).toHaveURL('/enterprise/login');
      await expect(page.getByText("You're signed in as Wrong Door")).toBeVisible();
      await page.getByRole('link', { name: 'Go to home' }).click();
      await expect(page).toHaveURL('/');
    },
  );

  test('a wrong code clears the field and sends a new code', { tag: '@flow' }, async ({ page }) => {
    const mobile = newMobile();
    const phone = `+91${mobile}`;
    await page.goto('/regular/login');
    await page.getByLabel('Mobile number').fill(mobile);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Full name').fill('Wrong Code');
    await page.getByRole('button', { name: 'Create account' }).click();
    const codeField = page.getByLabel('One-time code');
    await expect(codeField).toBeVisible();
    const first = await latestCode(page.request, phone);
    await codeField.fill(first === '0000' ? '1111' : '0000');
    await expect(
      page.getByText('Invalid OTP. A new OTP is being sent to your phone.'),
    ).toBeVisible();
    await expect(codeField).toHaveValue('');
    const second = await latestCode(page.request, phone, first);
    await codeField.fill(second);
    await expect(page).toHaveURL('/');
  });

  test('a signed-in person sees who they are on the login page and can sign out there', async ({
    page,
  }) => {
    await signInThroughUi(page, 'regular', newMobile(), 'Already In');
    await expect(page).toHaveURL('/');
    await page.goto('/regular/login');
    await expect(page.getByText("You're signed in as Already In")).toBeVisible();
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page.getByLabel('Mobile number')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
  });

  test(
    'a session whose refresh cookie is gone returns to the login, remembering the page',
    { tag: '@flow' },
    async ({ page, context }) => {
      await signInThroughUi(page, 'regular', newMobile(), 'Expired Session');
      await expect(page).toHaveURL('/');
      await context.clearCookies();
      await page.goto('/regular/profile');
      await expect(page).toHaveURL(/\/regular\/login$/);
      expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
      expect(await page.evaluate(() => sessionStorage.getItem('redirectAfterLogin'))).toBe(
        '/regular/profile',
      );
    },
  );

  test('the legal links open in a new tab', async ({ page }) => {
    await page.goto('/enterprise/login');
    for (const name of ['Terms', 'Refund Policy', 'Privacy Policy']) {
      await expect(
        page.getByRole('link', { name: `${name} (opens in a new tab)`, exact: true }),
      ).toHaveAttribute('target', '_blank');
    }
  });

  test(
    'a reload while reading the SMS opens on the code step for the same number',
    { tag: '@flow' },
    async ({ page }) => {
      // The booth page's QR code, signed out: the loader shows the sign-in screen.
      await page.goto('/b/1');
      await expect(page).toHaveURL(/\/regular\/login$/);
      const mobile = newMobile();
      await page.getByLabel('Mobile number').fill(mobile);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Full name').fill('Meera Iyer');
      await page.getByRole('button', { name: 'Create account' }).click();
      await expect(page.getByLabel('One-time code')).toBeVisible();
      const code = await latestCode(page.request, `+91${mobile}`);

      // The phone discards the tab while the visitor reads the SMS, and reloads it on return.
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Enter OTP' })).toBeVisible();
      await expect(page.getByText(`+91${mobile}`)).toBeVisible();
      await expect(page.getByLabel('Mobile number')).toHaveCount(0);
      await page.getByLabel('One-time code').fill(code);
      // Signed in, back at the booth the QR code named; the step is forgotten.
      await expect(page).toHaveURL(/\/b\/1$/);
      expect(await page.evaluate(() => sessionStorage.getItem('signInProgress'))).toBeNull();
    },
  );

  test(
    'a reload on Create Your Account keeps the number; Change number starts afresh',
    { tag: '@flow' },
    async ({ page }) => {
      await page.goto('/regular/login');
      const mobile = newMobile();
      await page.getByLabel('Mobile number').fill(mobile);
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByLabel('Full name')).toBeVisible();

      await page.reload();
      await expect(page.getByRole('heading', { name: 'Create Your Account' })).toBeVisible();
      await expect(page.getByLabel('Full name')).toBeFocused();
      await page.getByRole('button', { name: /change number/i }).click();
      await expect(page.getByLabel('Mobile number')).toHaveValue(mobile);

      // Back at phone entry nothing is kept: a reload shows phone entry from the HTML.
      await page.reload();
      await expect(page.getByLabel('Mobile number')).toBeVisible();
      await expect(page.getByLabel('Full name')).toHaveCount(0);
    },
  );
});
