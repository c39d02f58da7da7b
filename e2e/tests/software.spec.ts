import { expect, test, type Page, type Request } from '@playwright/test';
import { signInSeededStaff, STAFF_PHONE, uniqueTag } from './support';

/*
 * Software channels and releases (staff.md section 2): a super user (the seeded demo
 * administrator) creates a release, uploads its file with a progress bar fed by the upload's own
 * events, creates a channel and links the release to it, edits and deletes a scratch channel. The
 * demo organization's admin sees "You are not authorized to view this page.", the screens send no
 * software request for them, and the server refuses them (403).
 */

/** The demo organization's admin: no super user or product admin flag. */
const ORG_ADMIN_PHONE = '+919000000002';

async function search(page: Page, label: string, text: string) {
  const box = page.getByRole('searchbox', { name: label });
  await box.fill(text);
  await box.press('Enter');
}

const toast = (page: Page, kind: 'success' | 'error') => page.getByTestId(`status-${kind}`);

test(
  'a super user creates a release, uploads its file with progress and links it to a channel',
  { tag: '@flow' },
  async ({ page }) => {
    test.setTimeout(120_000);
    const tag = uniqueTag();
    const version = `2.0.0-${tag}`;
    const channelName = `Stable ${tag}`;
    await signInSeededStaff(page, STAFF_PHONE);

    // Create the release record.
    await page.goto('/enterprise/software/releases');
    await expect(page.getByRole('heading', { level: 1, name: 'Software Releases' })).toBeVisible();
    await page.getByRole('button', { name: '+Create Release' }).click();
    const create = page.getByRole('dialog', { name: 'Create Software Release' });
    const versionField = create.getByLabel('Version*');
    await expect(versionField).toHaveAttribute('placeholder', '1.0.0');
    await expect(create.getByRole('button', { name: 'Create Release' })).toBeDisabled();
    await versionField.fill(version);
    await create.getByLabel('Release Notes').fill('Faster printing and a brighter countdown.');
    await create.getByRole('button', { name: 'Create Release' }).click();
    await expect(create).toBeHidden();
    await expect(toast(page, 'success')).toHaveText(
      `Software release record '${version}' created! You can now upload the file.`,
    );
    await search(page, 'Search releases', tag);
    const card = page.getByTestId('release-card').filter({ hasText: version });
    await expect(card).toContainText('Faster printing');
    await expect(card).toContainText('File Uploaded');
    await expect(card).toContainText('No');
    await card.click();
    await expect(page.getByRole('heading', { level: 1, name: `Release ${version}` })).toBeVisible();
    await expect(page.getByTestId('release-uploaded')).toHaveText('No');

    // Upload its file: the bar follows the upload's own progress events (the upload is throttled
    // so they come in steps) and reaches 100 % before the server confirms the file.
    await page.getByRole('button', { name: 'Upload File' }).click();
    const upload = page.getByRole('dialog', { name: 'Upload Release File' });
    const submit = upload.getByRole('button', { name: 'Upload & Confirm' });
    await expect(submit).toBeDisabled();
    // Nothing tried yet: no error, only that no file is chosen (console-fit.spec.ts presses it).
    await expect(upload.getByText('No file chosen yet.')).toBeVisible();
    const bytes = Buffer.alloc(3 * 1024 * 1024, 7);
    await upload.getByLabel('Release file').setInputFiles({
      name: 'flashbooth-agent.bin',
      mimeType: 'application/octet-stream',
      buffer: bytes,
    });
    await expect(upload.getByText('flashbooth-agent.bin')).toBeVisible();
    await expect(upload.getByText('3.00 MB')).toBeVisible();

    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 1024 * 1024,
    });
    let releaseConfirm: () => void = () => undefined;
    const confirmHeld = new Promise<void>((resolve) => (releaseConfirm = resolve));
    await page.route('**/api/enterprise/software/releases/*/file/confirm', async (route) => {
      await confirmHeld;
      await route.continue();
    });
    const put = page.waitForRequest((request) => request.method() === 'PUT');
    await submit.click();
    const bar = upload.getByRole('progressbar');
    await expect(bar).toBeVisible();
    await expect(bar).toHaveAttribute('aria-valuenow', /^[1-9]\d?$/);
    const sent = await put;
    expect(sent.headers()['content-type']).toBe('application/octet-stream');
    expect(sent.headers().authorization).toBeUndefined();
    await expect(bar).toHaveAttribute('aria-valuenow', '100');
    await expect(upload.getByText('100%', { exact: true })).toBeVisible();
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    releaseConfirm();

    // The dialog closes and the release is reloaded with its file.
    await expect(upload).toBeHidden();
    await expect(toast(page, 'success')).toHaveText('File uploaded and confirmed successfully!');
    await expect(page.getByTestId('release-uploaded')).toHaveText('Yes');
    const key = page.getByTestId('release-s3-key');
    await expect(key).toHaveText(/^software\/releases\/\d+\/[0-9a-f-]{36}\.bin$/);
    const shownUrl = page.getByTestId('release-s3-url');
    await expect(shownUrl).toHaveText(
      new RegExp(`${(await key.textContent())!.replace(/\./g, '\\.')}$`),
    );
    await expect(shownUrl).not.toContainText('?');
    await expect(
      page.getByText(
        /its query part \(the signature\) is hidden here\. It expires at \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} UTC/,
      ),
    ).toBeVisible();
    await expect(page.getByText('3.00 MB')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Re-upload File' })).toBeVisible();

    // Create a channel (no release by default) and link the release to it.
    await page.goto('/enterprise/software/channels');
    await expect(page.getByRole('heading', { level: 1, name: 'Software Channels' })).toBeVisible();
    await page.getByRole('button', { name: '+Create Channel' }).click();
    const newChannel = page.getByRole('dialog', { name: 'Create Software Channel' });
    await expect(newChannel.getByRole('button', { name: 'Create Channel' })).toBeDisabled();
    await expect(newChannel.getByLabel('Link Release (optional)')).toHaveValue('');
    await newChannel.getByLabel('Name*').fill(channelName);
    await newChannel.getByLabel('Description').fill('Venues in production');
    await newChannel.getByRole('button', { name: 'Create Channel' }).click();
    await expect(newChannel).toBeHidden();
    await expect(toast(page, 'success')).toHaveText('Software channel created successfully!');
    await search(page, 'Search channels', tag);
    const channelCard = page.getByTestId('channel-card').filter({ hasText: channelName });
    await expect(channelCard).toContainText('Venues in production');
    await expect(channelCard).toContainText('(None)');
    await channelCard.click();
    await expect(page.getByRole('heading', { level: 1, name: channelName })).toBeVisible();
    await expect(page.getByTestId('linked-release')).toHaveText('(None)');
    await page.getByRole('button', { name: 'Link Release' }).click();
    const link = page.getByRole('dialog', { name: 'Link Release' });
    const select = link.getByLabel('Release');
    await expect(select.locator('option').first()).toHaveText('(None - Unlink)');
    await select.selectOption({ label: version });
    await link.getByRole('button', { name: 'Save' }).click();
    await expect(link).toBeHidden();
    await expect(toast(page, 'success')).toHaveText('Channel release link updated successfully!');
    await expect(page.getByTestId('linked-release')).toHaveText(version);
    await expect(page.getByRole('button', { name: 'Change Release' })).toBeVisible();

    // A linked release cannot be deleted: the server's reason is shown.
    await page.getByTestId('linked-release').getByRole('link', { name: version }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Release ${version}` })).toBeVisible();
    await page.getByRole('button', { name: 'Delete Release' }).click();
    const deleteRelease = page.getByRole('dialog', { name: 'Delete Release' });
    await expect(deleteRelease).toContainText('This action cannot be undone.');
    await deleteRelease.getByRole('button', { name: 'Yes, Delete' }).click();
    await expect(toast(page, 'error')).toHaveText(
      `This release is linked to the software channel "${channelName}". Link another release to the channel (or unlink it) first.`,
    );
    await expect(page.getByTestId('release-uploaded')).toHaveText('Yes');
  },
);

test('a super user edits and deletes a scratch channel', { tag: '@flow' }, async ({ page }) => {
  const tag = uniqueTag();
  const name = `Scratch ${tag}`;
  await signInSeededStaff(page, STAFF_PHONE);
  await page.goto('/enterprise/software/channels');
  await page.getByRole('button', { name: '+Create Channel' }).click();
  const create = page.getByRole('dialog', { name: 'Create Software Channel' });
  const nameField = create.getByLabel('Name*');
  await nameField.fill(' ');
  await expect(create.getByText('Channel name is required.')).toBeVisible();
  await expect(create.getByRole('button', { name: 'Create Channel' })).toBeDisabled();
  await nameField.fill(name);
  await create.getByRole('button', { name: 'Create Channel' }).click();
  await expect(create).toBeHidden();
  await search(page, 'Search channels', tag);
  const card = page.getByTestId('channel-card').filter({ hasText: name });
  await expect(card).toContainText('(No description)');
  await card.click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

  await page.getByRole('button', { name: 'Edit Channel' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Channel' });
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit.getByText('No changes to save.')).toBeVisible();
  await edit.getByLabel('Name*').fill(`${name} renamed`);
  await edit.getByLabel('Description').fill('Booths that try new builds first');
  const patch = page.waitForRequest((request) => request.method() === 'PATCH');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  expect((await patch).postDataJSON()).toEqual({
    name: `${name} renamed`,
    description: 'Booths that try new builds first',
  });
  await expect(edit).toBeHidden();
  await expect(toast(page, 'success')).toHaveText('Channel details updated successfully!');
  await expect(page.getByRole('heading', { level: 1, name: `${name} renamed` })).toBeVisible();
  await expect(page.getByText('Booths that try new builds first')).toBeVisible();

  await page.getByRole('button', { name: 'Delete Channel' }).click();
  const remove = page.getByRole('dialog', { name: 'Delete Channel' });
  await expect(remove).toContainText(
    `Are you sure you want to delete channel "${name} renamed"? This action cannot be undone.`,
  );
  await remove.getByRole('button', { name: 'Yes, Delete' }).click();
  await expect(toast(page, 'success')).toHaveText('Channel deleted successfully.');
  // Back to the list after 1.5 s; the channel is gone.
  await expect(page).toHaveURL(/\/enterprise\/software\/channels$/);
  await search(page, 'Search channels', tag);
  await expect(page.getByText(`No software channels match “${tag}”.`)).toBeVisible();
});

test(
  'an organization admin is not authorized: the screens fetch nothing and the server refuses',
  { tag: '@flow' },
  async ({ page }) => {
    const token = await signInSeededStaff(page, ORG_ADMIN_PHONE);
    const softwareRequests: string[] = [];
    const watch = (request: Request) => {
      if (request.url().includes('/api/enterprise/software')) softwareRequests.push(request.url());
    };
    page.on('request', watch);
    for (const path of [
      '/enterprise/software/channels',
      '/enterprise/software/releases',
      '/enterprise/software/channels/1',
      '/enterprise/software/releases/1',
    ]) {
      await page.goto(path);
      await expect(page.getByText('You are not authorized to view this page.')).toBeVisible();
      await expect(page.getByRole('button', { name: /\+Create/ })).toHaveCount(0);
    }
    page.off('request', watch);
    expect(softwareRequests).toEqual([]);

    // The server refuses the same calls (its rule, not the screen's).
    for (const [method, path] of [
      ['get', 'software/channels'],
      ['get', 'software/releases'],
      ['post', 'software/channels'],
    ] as const) {
      const response = await page.request[method](`/api/enterprise/${path}`, {
        headers: { Authorization: `Bearer ${token}` },
        ...(method === 'post' ? { data: { name: 'Not mine' } } : {}),
      });
      expect(response.status()).toBe(403);
    }
  },
);
