import { expect, test, type Page } from '@playwright/test';
import { newMobile, signInThroughUi } from './support';

/** dd/mm/yyyy `years` years before today. */
function dobYearsAgo(years: number): string {
  const now = new Date();
  const dd = String(now.getDate()).padStart(2, '0');
  const mm = String(now.getMonth() + 1).padStart(2, '0');
  return `${dd}/${mm}/${now.getFullYear() - years}`;
}

async function openProfile(page: Page, pool: 'regular' | 'enterprise', name: string) {
  await page.goto(`/${pool}/profile`);
  await signInThroughUi(page, pool, newMobile(), name);
  await expect(page).toHaveURL(`/${pool}/profile`);
  await expect(page.getByLabel('Full Name')).toHaveValue(name);
}

test.describe('profile', () => {
  test(
    'a visitor edits the profile with the spec rules and messages',
    { tag: '@flow' },
    async ({ page }) => {
      await openProfile(page, 'regular', 'Anita Desai');
      await expect(page.getByLabel('Credits')).toHaveValue('₹0.00');

      await page.getByRole('button', { name: 'Save Changes' }).click();
      await expect(page.getByText('No changes to save.')).toBeVisible();

      const email = page.getByLabel('Email Address');
      await email.fill('anita@');
      await email.blur();
      await expect(page.getByText('Please enter a valid email address')).toBeVisible();
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await expect(page.getByText('Please fix email validation error.')).toBeVisible();
      await email.fill('anita@example.com');

      const dob = page.getByLabel('Date of Birth');
      await dob.fill(dobYearsAgo(5));
      await dob.blur();
      await expect(page.getByText('Age must be between 10 and 100 years')).toBeVisible();
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await expect(page.getByText('Please fix date of birth validation error.')).toBeVisible();
      await dob.fill('31/02/1990');
      await dob.blur();
      await expect(page.getByText('Please enter a valid date')).toBeVisible();
      await dob.fill('14/05/1990');

      await page.getByLabel('Gender', { exact: true }).selectOption('Other');
      await page.getByLabel('Specify Gender').fill('  Non-binary ');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await expect(page.getByText('Profile updated successfully!')).toBeVisible();
      // Status lines on the profile disappear after 2 s.
      await expect(page.getByText('Profile updated successfully!')).toBeHidden({ timeout: 4000 });

      await page.reload();
      await expect(page.getByLabel('Email Address')).toHaveValue('anita@example.com');
      await expect(page.getByLabel('Date of Birth')).toHaveValue('14/05/1990');
      await expect(page.getByLabel('Gender', { exact: true })).toHaveValue('Other');
      await expect(page.getByLabel('Specify Gender')).toHaveValue('Non-binary');
    },
  );

  test(
    'staff profiles use the staff age messages and have no credits',
    { tag: '@flow' },
    async ({ page }) => {
      await openProfile(page, 'enterprise', 'Venue Staff');
      await expect(
        page.getByRole('heading', { level: 1, name: 'Enterprise Profile' }),
      ).toBeVisible();
      await expect(page.getByLabel('Credits')).toHaveCount(0);
      const dob = page.getByLabel('Date of Birth');
      await dob.fill(dobYearsAgo(5));
      await dob.blur();
      await expect(page.getByText('You must be at least 10 years old')).toBeVisible();
      await dob.fill(dobYearsAgo(120));
      await dob.blur();
      await expect(page.getByText('Please enter a valid date of birth')).toBeVisible();
    },
  );

  test('signing out asks for confirmation and goes home', { tag: '@flow' }, async ({ page }) => {
    await openProfile(page, 'regular', 'Leaving Soon');
    await page.getByRole('button', { name: 'Sign Out' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('Are you sure you want to Sign Out?')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, Sign Out' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('link', { name: 'User Login' })).toBeVisible();
    await page.goto('/regular/profile');
    await expect(page).toHaveURL(/\/regular\/login$/);
  });
});

test.describe('navigation', () => {
  test('visitors get the four visitor tabs with the active one marked', async ({ page }) => {
    await openProfile(page, 'regular', 'Tab Visitor');
    const nav = page.getByRole('navigation', { name: 'Main' });
    const narrow = (page.viewportSize()?.width ?? 1280) < 768;
    if (narrow) {
      await expect(nav.getByRole('link', { name: 'Wall' })).toBeVisible();
      await expect(nav.getByRole('link', { name: 'My Media' })).toBeVisible();
      await nav.getByRole('button', { name: 'More' }).click();
      const menu = page.getByRole('menu', { name: 'More pages' });
      await expect(menu.getByRole('menuitem', { name: 'Profile' })).toHaveAttribute(
        'aria-current',
        'page',
      );
      await expect(menu.getByRole('menuitem', { name: 'Transactions' })).toBeVisible();
      await page.mouse.click(200, 100);
      await expect(menu).toBeHidden();
    } else {
      for (const name of ['Wall', 'My Media', 'Profile', 'Transactions']) {
        await expect(nav.getByRole('link', { name })).toBeVisible();
      }
      await expect(nav.getByRole('link', { name: 'Profile' })).toHaveAttribute(
        'aria-current',
        'page',
      );
    }
  });

  test('super users also get SW Channels, SW Releases and Media', async ({ page }) => {
    await page.goto('/enterprise/profile');
    await signInThroughUi(page, 'enterprise', '9000000099', 'Administrator');
    await expect(page.getByRole('heading', { level: 1, name: 'Enterprise Profile' })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main' });
    const narrow = (page.viewportSize()?.width ?? 1280) < 768;
    if (narrow) await nav.getByRole('button', { name: 'More' }).click();
    const scope = narrow ? page.getByRole('menu', { name: 'More pages' }) : nav;
    const role = narrow ? 'menuitem' : 'link';
    for (const name of ['SW Channels', 'SW Releases', 'Media']) {
      await expect(scope.getByRole(role, { name, exact: true })).toBeVisible();
    }
  });
});
