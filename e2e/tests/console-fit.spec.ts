import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { captureAt, demoRig } from './booths';
import { signInSeededStaff, signUpThroughApi, STAFF_PHONE, staffApi, uniqueTag } from './support';

/*
 * Fit and finish of the staff console at 390 × 844 and 1280 × 800 (issue 20, items 15, 16, 17
 * and 19): values a person copies stay whole on one line, the statistics' breadcrumb stays on one
 * line, the rollout bar shows what is done and a cancelled rollout's booths say they were not
 * updated, the upload dialog asks for a file only once someone tried, and All Media's previews
 * fill their box with the actions on one line.
 */

/** How many lines the text of each element takes on screen (distinct tops of its text boxes). */
async function renderedLines(locator: Locator): Promise<number[]> {
  return locator.evaluateAll((elements) =>
    elements.map((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      const tops = new Set(
        [...range.getClientRects()]
          .filter((rect) => rect.width > 0)
          .map((rect) => Math.round(rect.top)),
      );
      return tops.size;
    }),
  );
}

test('a registered booth’s secret and each env line stay on one line and copy exactly', async ({
  page,
  baseURL,
}) => {
  await page
    .context()
    .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(baseURL!).origin });
  await signInSeededStaff(page, STAFF_PHONE, '/enterprise/devices');
  await page.getByRole('button', { name: '+Add' }).click();
  const register = page.getByRole('dialog', { name: 'Register Device' });
  await register.getByLabel('Device name (optional)').fill(`Fit ${uniqueTag()}`);
  await register.getByRole('button', { name: 'Register' }).click();
  const registered = page.getByRole('dialog', { name: 'Device Registered' });
  const secretBox = registered.getByLabel('Secret', { exact: true });
  await expect(secretBox).toBeVisible();
  const secret = (await secretBox.textContent())!;
  // The secret (43 characters with "-" and "_") is never broken, not even at its hyphen.
  expect(secret).toMatch(/^[\w-]{43,}$/);
  expect(await renderedLines(secretBox)).toEqual([1]);

  // The env block: one line per variable, none split (not the port, not the secret).
  const env = registered.getByTestId('booth-env');
  const block = (await env.textContent())!;
  const lines = block.split('\n');
  expect(lines.map((line) => line.slice(0, line.indexOf('=')))).toEqual([
    'BOOTH_MQTT_URL',
    'BOOTH_THING_NAME',
    'BOOTH_SECRET',
    'BOOTH_SERVER_URL',
  ]);
  expect(await renderedLines(env)).toEqual([lines.length]);
  // What does not fit scrolls inside its box; the dialog itself never scrolls sideways.
  const dialogOverflow = await registered.evaluate(
    (dialog) => dialog.scrollWidth - dialog.clientWidth,
  );
  expect(dialogOverflow).toBeLessThanOrEqual(0);

  await registered.getByRole('button', { name: 'Copy secret' }).click();
  await expect(registered.getByText('Copied!')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await registered.getByRole('button', { name: 'Copy booth environment' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(block);
  expect(lines).toContain(`BOOTH_SECRET=${secret}`);
});

test('the statistics breadcrumb stays on one line and the weekly chart has its numbers', async ({
  page,
  request,
}) => {
  const api = await staffApi(request);
  const orgId = await api.demoOrgId();
  await signInSeededStaff(page, STAFF_PHONE, `/enterprise/organizations/${orgId}/stats`);
  await expect(page.getByRole('heading', { level: 1, name: /Statistics$/ })).toBeVisible();
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('listitem');
  await expect(crumbs).toHaveCount(3);
  const boxes = await crumbs.evaluateAll((items) =>
    items.map((item) => {
      const rect = item.getBoundingClientRect();
      return { middle: Math.round(rect.top + rect.height / 2), right: rect.right };
    }),
  );
  expect(new Set(boxes.map((box) => box.middle)).size).toBe(1);
  const width = page.viewportSize()!.width;
  for (const box of boxes) expect(box.right).toBeLessThanOrEqual(width);
  // The current page's name is whole: only the crumbs before it give way.
  const current = page.getByRole('navigation', { name: 'Breadcrumb' }).locator('[aria-current]');
  await expect(current).toHaveText('Statistics');
  expect(await current.evaluate((span) => span.scrollWidth - span.clientWidth)).toBeLessThanOrEqual(
    0,
  );
});

/** A release with a real file, linked to a fresh channel, and a booth on it that never connected. */
async function channelWithOfflineBooth(request: APIRequestContext) {
  const api = await staffApi(request);
  const tag = uniqueTag();
  const version = `4.0.0-${tag}`;
  const release = await api.call<{ id: number }>('post', 'software/releases', { version });
  const presigned = await api.call<{ upload_url: string; s3_key: string }>(
    'post',
    `software/releases/${release.id}/file/presigned_upload`,
    { filename: 'flashbooth-agent.bin' },
  );
  const put = await request.put(presigned.upload_url, {
    data: randomBytes(16 * 1024),
    headers: { 'content-type': 'application/octet-stream' },
  });
  expect(put.status()).toBe(204);
  await api.call('post', `software/releases/${release.id}/file/confirm`, {
    s3_key: presigned.s3_key,
  });
  const channel = await api.call<{ id: number }>('post', 'software/channels', {
    name: `Fit ${tag}`,
    release_id: release.id,
  });
  const booth = await api.call<{ id: number }>('post', 'devices', { name: `Offline ${tag}` });
  await api.call('patch', `devices/${booth.id}`, { software_channel_id: channel.id });
  return { api, version, channelId: channel.id, boothId: booth.id };
}

test('the rollout bar fills with the booths done, and a cancelled rollout’s booth reads not updated', async ({
  page,
  request,
}) => {
  const { api, version, channelId, boothId } = await channelWithOfflineBooth(request);
  await signInSeededStaff(page, STAFF_PHONE, `/enterprise/software/channels/${channelId}`);
  const panel = page.getByRole('region', { name: /Staged Rollout/ });
  await panel.getByRole('button', { name: `Roll out ${version}` }).click();
  await page
    .getByRole('dialog', { name: `Roll out ${version}` })
    .getByRole('button', { name: 'Roll out', exact: true })
    .click();

  const row = panel.getByTestId(`rollout-booth-${boothId}`);
  await expect(row).toContainText('Waiting: the booth is offline.');
  await expect(row.getByTestId('booth-state')).toHaveText('Pending');
  // 0 of 1 booths done: an empty bar.
  const filled = await panel
    .locator('.rollout-bar')
    .evaluate((track) =>
      [...track.children].reduce((sum, part) => sum + part.getBoundingClientRect().width, 0),
    );
  expect(filled).toBe(0);
  const bar = panel.getByRole('progressbar', { name: 'Booths done' });
  await expect(bar).toHaveAttribute('aria-valuenow', '0');
  await expect(bar).toHaveAttribute('aria-valuetext', '0 of 1 booth done');

  await panel.getByRole('button', { name: 'Cancel Rollout' }).click();
  await page
    .getByRole('dialog', { name: 'Cancel Rollout' })
    .getByRole('button', { name: 'Yes, Cancel Rollout' })
    .click();
  await expect(panel.getByTestId('rollout-state')).toHaveText('Cancelled');
  await expect(row.getByTestId('booth-state')).toHaveText('Not updated');
  await expect(row).toContainText('The rollout was cancelled before this booth was updated.');
  await expect(row).not.toContainText('Waiting');
  await expect(panel.getByTestId('rollout-counts')).toHaveText('1 booth: 1 not updated');

  // The server says the same.
  const latest = await api.call<{
    rollout: {
      state: string;
      counts: Record<string, number>;
      waves: { devices: { state: string }[] }[];
    };
  }>('get', `software/channels/${channelId}/rollouts/latest`);
  expect(latest.rollout.state).toBe('cancelled');
  expect(latest.rollout.counts).toMatchObject({ pending: 0, skipped: 1 });
  expect(latest.rollout.waves[0]!.devices[0]!.state).toBe('skipped');
});

test('the upload dialog asks for a file only after an attempt to upload without one', async ({
  page,
  request,
}) => {
  const api = await staffApi(request);
  const release = await api.call<{ id: number }>('post', 'software/releases', {
    version: `4.1.0-${uniqueTag()}`,
  });
  await signInSeededStaff(page, STAFF_PHONE, `/enterprise/software/releases/${release.id}`);
  await page.getByRole('button', { name: 'Upload File' }).click();
  const upload = page.getByRole('dialog', { name: 'Upload Release File' });
  const submit = upload.getByRole('button', { name: 'Upload & Confirm' });
  await expect(submit).toBeDisabled();
  await expect(upload.getByText('Please select a file to upload.')).toHaveCount(0);
  await expect(upload.getByText('No file chosen yet.')).toBeVisible();
  // A person presses it anyway: now it says what to do.
  await submit.click({ force: true });
  await expect(upload.getByRole('alert')).toHaveText('Please select a file to upload.');
  await upload.getByLabel('Release file').setInputFiles({
    name: 'flashbooth-agent.bin',
    mimeType: 'application/octet-stream',
    buffer: Buffer.alloc(1024, 1),
  });
  await expect(upload.getByRole('alert')).toHaveCount(0);
  await expect(submit).toBeEnabled();
});

const theRig = demoRig('Fit');

async function publicPhoto(page: Page, baseURL: string | undefined, caption: string) {
  const rig = await theRig(page.request, baseURL);
  const token = await signUpThroughApi(page.request, 'regular', 'Fit Visitor');
  const id = await captureAt(page.request, token, rig.booth, rig.templateId);
  for (const data of [{ is_public: true }, { caption }]) {
    const patch = await page.request.patch(`/api/regular/media/${id}`, {
      headers: { Authorization: `Bearer ${token}` },
      data,
    });
    expect(patch.ok(), await patch.text()).toBe(true);
  }
  return id;
}

test('All Media: a landscape preview fills its box and the actions keep their words on one line', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const tag = uniqueTag();
  const id = await publicPhoto(page, baseURL, `Fit ${tag}`);
  await signInSeededStaff(page, STAFF_PHONE, '/enterprise/media/all');
  const box = page.getByPlaceholder('Search user, device, captions etc.');
  await box.fill(tag);
  await box.press('Enter');
  const card = page.locator(`[data-testid="staff-media-card"][data-media-id="${id}"]`);
  await expect(card.locator('img')).toHaveJSProperty('complete', true);

  // The photo fills the card's image box edge to edge: no dark bars above, below or beside it.
  const fit = await card.evaluate((article) => {
    const stage = article.querySelector('.media-card-stage')!.getBoundingClientRect();
    const image = article.querySelector('img')!;
    const shown = image.getBoundingClientRect();
    return {
      stage: { width: stage.width, height: stage.height },
      shown: { width: shown.width, height: shown.height },
      card: article.clientWidth,
      natural: image.naturalWidth / image.naturalHeight,
    };
  });
  expect(Math.abs(fit.stage.width - fit.card)).toBeLessThanOrEqual(1);
  expect(Math.abs(fit.shown.width - fit.stage.width)).toBeLessThanOrEqual(1);
  expect(Math.abs(fit.shown.height - fit.stage.height)).toBeLessThanOrEqual(1);
  // …at the print's own ratio, so nothing is cut off either.
  expect(Math.abs(fit.shown.width / fit.shown.height - fit.natural)).toBeLessThan(0.02);

  // Each action's words stay on one line; on a laptop the actions share one row.
  const actions = card.locator('.staff-media-actions').getByRole('button');
  expect(await actions.count()).toBeGreaterThanOrEqual(2);
  expect(new Set(await renderedLines(actions))).toEqual(new Set([1]));
  if (page.viewportSize()!.width >= 1280) {
    const tops = await actions.evaluateAll((buttons) =>
      buttons.map((button) => Math.round(button.getBoundingClientRect().top)),
    );
    expect(new Set(tops).size).toBe(1);
  }
});
