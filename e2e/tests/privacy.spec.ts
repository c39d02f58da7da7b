import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { latestCode, newMobile, screenshotBothSizes, signInThroughUi } from './support';

test.describe('privacy', () => {
  test(
    'a visitor downloads their data, then deletes their account and ends signed out',
    { tag: '@flow' },
    async ({ page }) => {
      const mobile = newMobile();
      const phone = `+91${mobile}`;
      await page.goto('/regular/profile');
      const signInCode = await signInThroughUi(page, 'regular', mobile, 'Priya Privacy');
      await expect(page).toHaveURL('/regular/profile');

      // Download my data: prepared in the background, then offered with its expiry.
      const exportCard = page.getByRole('region', { name: 'Download my data' });
      await exportCard.getByRole('button', { name: 'Prepare my data' }).click();
      await expect(
        exportCard.getByText(
          /Your data is ready\. The download link works until \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}\./,
        ),
      ).toBeVisible({ timeout: 20_000 });
      await expect(exportCard.getByText('0 photos and videos', { exact: false })).toBeVisible();
      const downloading = page.waitForEvent('download');
      await exportCard.getByRole('link', { name: 'Download ZIP' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^flashbooth-data-\d{4}-\d{2}-\d{2}\.zip$/);
      const zip = await readFile((await download.path())!);
      expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
      expect(zip.includes('data.json')).toBe(true);

      // Delete my account: consequences, a fresh code by SMS, then gone at once.
      const deleteCard = page.getByRole('region', { name: 'Delete my account' });
      await deleteCard.getByRole('button', { name: 'Delete my account' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
      await expect(
        dialog.getByText('Every photo and video, also from the wall and shared links'),
      ).toBeVisible();
      await dialog.getByRole('button', { name: 'Send code' }).click();
      await expect(dialog.getByText(`We sent a 4-digit code to ${phone}.`)).toBeVisible();
      const code = await latestCode(page.request, phone, signInCode);
      const field = dialog.getByLabel('Confirmation code');
      await expect(field).toBeFocused();
      // A wrong code is refused and the account stays.
      const wrong = String((Number(code) + 1) % 10_000).padStart(4, '0');
      await field.fill(wrong);
      await dialog.getByRole('button', { name: 'Delete my account for good' }).click();
      await expect(
        dialog.getByText('That code is not right. Check the SMS and try again.'),
      ).toBeVisible();
      await field.fill(code);
      await dialog.getByRole('button', { name: 'Delete my account for good' }).click();

      await expect(page.getByRole('heading', { name: 'Account deleted' })).toBeFocused();
      await expect(
        page.getByText(
          'Your account and your data have been deleted, and you have been signed out everywhere.',
        ),
      ).toBeVisible();
      // No tabs into the account that is gone.
      await expect(page.getByTestId('bottom-nav')).toHaveCount(0);
      await screenshotBothSizes(page, 'account-deleted');
      await page.getByRole('button', { name: 'Go to the home page' }).click();
      await expect(page).toHaveURL('/');

      // Signed out: the profile asks for a sign-in, and the old phone starts a new account.
      await page.goto('/regular/profile');
      await expect(page).toHaveURL('/regular/login');
      await page.getByLabel('Mobile number').fill(mobile);
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByLabel('Full name')).toBeVisible();
    },
  );
});
