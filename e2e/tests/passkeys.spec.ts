import { expect, test, type Page } from '@playwright/test';
import { newMobile, signInThroughUi, type Pool } from './support';

/**
 * Passkeys end to end in Chromium with a virtual authenticator (the DevTools WebAuthn domain):
 * a platform authenticator with resident keys and user verification, as a phone's screen lock.
 * localhost is a secure context, and the server's relying party id defaults to `localhost`.
 */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  const credentials = async () =>
    (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  return { credentials };
}

async function signOut(page: Page, pool: Pool) {
  await page.goto(`/${pool}/profile`);
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await page.getByRole('button', { name: 'Yes, Sign Out' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/profile'));
}

const LOGIN_TITLE: Record<Pool, string> = {
  regular: 'Sign in to Flashbooth',
  enterprise: 'Venue Portal sign in',
};

for (const pool of ['regular', 'enterprise'] as const) {
  test(
    `${pool}: add a passkey, sign in with it, see it used, remove it`,
    { tag: '@flow' },
    async ({ page }) => {
      const authenticator = await addVirtualAuthenticator(page);
      await page.goto(`/${pool}/profile`);
      await signInThroughUi(page, pool, newMobile(), 'Passkey Tester');
      await expect(page).toHaveURL(`/${pool}/profile`);

      const section = page.getByRole('region', { name: 'Passkeys' });
      await expect(section.getByText(/No passkeys yet/)).toBeVisible();
      await section.getByRole('button', { name: 'Add a passkey' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
      await expect(dialog.getByLabel('Passkey name')).toHaveValue(/ on /);
      await dialog.getByLabel('Passkey name').fill('   ');
      await dialog.getByRole('button', { name: 'Create passkey' }).click();
      await expect(dialog.getByText('Please give the passkey a name.')).toBeVisible();
      await dialog.getByLabel('Passkey name').fill('Test phone');
      await dialog.getByRole('button', { name: 'Create passkey' }).click();
      await expect(page.getByText('Passkey added.')).toBeVisible();
      await expect(dialog).toBeHidden();
      const item = section.getByRole('listitem').filter({ hasText: 'Test phone' });
      await expect(item).toContainText(/Added \d\d\/\d\d\/\d{4} \d\d:\d\d/);
      await expect(item).toContainText('Never used');
      // The authenticator holds a discoverable credential for this site.
      const [credential] = await authenticator.credentials();
      expect(credential).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });

      // Sign out, then back in with the passkey alone: no phone number, no code. First through
      // the phone field's autofill (conditional mediation), which the virtual authenticator
      // answers at once (a person would pick the passkey from the field's suggestions).
      await signOut(page, pool);
      await page.goto(`/${pool}/login`);
      await page.waitForURL((url) => !url.pathname.endsWith('/login'));
      // Visitors land home; staff in the console (issue 20 item 8).
      if (pool === 'regular') await expect(page.getByText('Welcome, Passkey Tester')).toBeVisible();
      else await expect(page).toHaveURL('/enterprise/organizations');

      // Then with the button, in a browser without passkey autofill.
      await signOut(page, pool);
      await page.addInitScript(() => {
        PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
      });
      await page.goto(`/${pool}/login`);
      await expect(page.getByRole('heading', { name: LOGIN_TITLE[pool] })).toBeVisible();
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.waitForURL((url) => !url.pathname.endsWith('/login'));

      await page.goto(`/${pool}/profile`);
      await expect(page.getByLabel('Full Name')).toHaveValue('Passkey Tester');
      await expect(item).toContainText(/Last used \d\d\/\d\d\/\d{4} \d\d:\d\d/);

      await item.getByRole('button', { name: 'Remove passkey Test phone' }).click();
      const confirm = page.getByRole('dialog', { name: 'Remove passkey' });
      await expect(confirm).toContainText('Remove the passkey "Test phone"?');
      await confirm.getByRole('button', { name: 'Remove' }).click();
      await expect(page.getByText('Passkey removed.')).toBeVisible();
      await expect(section.getByText(/No passkeys yet/)).toBeVisible();
    },
  );
}

test(
  'a cancelled passkey prompt says so and leaves the login as it was',
  { tag: '@flow' },
  async ({ page }) => {
    // No authenticator that can answer: the browser's request ends as NotAllowedError.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: false,
      },
    });
    await page.goto('/regular/login');
    // The phone field offers passkeys in its autofill (conditional mediation).
    await expect(page.getByLabel('Mobile number')).toHaveAttribute('autocomplete', /webauthn$/);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByText(/Passkey sign-in was cancelled or timed out/)).toBeVisible();
    await expect(page).toHaveURL(/\/regular\/login$/);
    await expect(page.getByLabel('Mobile number')).toBeVisible();
  },
);

test(
  'on an address the relying party does not cover, passkeys are not offered and no error shows',
  { tag: '@flow' },
  async ({ browser }, testInfo) => {
    // The server's relying party is `localhost`; 127.0.0.1 is the same site, but a passkey made for
    // localhost cannot be used there (issue 20 item 7).
    const use = testInfo.project.use;
    const address = new URL(use.baseURL!);
    address.hostname = '127.0.0.1';
    const context = await browser.newContext({
      baseURL: address.origin,
      viewport: use.viewport,
      userAgent: use.userAgent,
      deviceScaleFactor: use.deviceScaleFactor,
      isMobile: use.isMobile,
      hasTouch: use.hasTouch,
    });
    const page = await context.newPage();
    for (const pool of ['regular', 'enterprise'] as const) {
      await page.goto(`/${pool}/login`);
      await expect(page.getByRole('heading', { name: LOGIN_TITLE[pool] })).toBeVisible();
      await expect(page.getByLabel('Mobile number')).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toHaveCount(0);
      await expect(page.getByText('Passkeys do not work on this address of the site.')).toHaveCount(
        0,
      );
      await expect(page.getByRole('alert')).toHaveCount(0);
    }

    // The profile still lists passkeys but does not offer to make one that could not be used.
    await signInThroughUi(page, 'regular', newMobile(), 'Other Address');
    await expect(page).toHaveURL(`${address.origin}/`);
    await page.goto('/regular/profile');
    const section = page.getByRole('region', { name: 'Passkeys' });
    await expect(section.getByText(/No passkeys yet/)).toBeVisible();
    await expect(section.getByRole('button', { name: 'Add a passkey' })).toHaveCount(0);
    await expect(section.getByText(/can be added only at/)).toBeVisible();
    await context.close();
  },
);
