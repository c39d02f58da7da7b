import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { signInSeededStaff, STAFF_PHONE, staffApi, staffToken, uniqueTag } from './support';

/*
 * Issue 20, items 4–6 (fit and finish of the template screens), on the phone (390×844) and the
 * desktop (1280×800): slots stay inside the canvas in the editor, nothing is wider than the
 * screen, Edit Template brings the editor into view, the checkboxes read as words and are the
 * same size, and the Template Studio shows one error at a time.
 */

interface Slot {
  id: number;
  x: number;
  y: number;
  w: number;
  h: number;
}
interface TemplateBody {
  id: number;
  images: Slot[];
}

/** A landscape template with one 1620×1080 slot (the 3600 px wide canvas). */
async function landscapeTemplate(page: Page, name: string) {
  const api = await staffApi(page.request);
  const template = await api.call<TemplateBody>('post', 'templates', {
    name,
    orientation: 'landscape',
  });
  await api.call('post', `templates/${template.id}/images`, { x: 120, y: 80, w: 1620, h: 1080 });
  return {
    id: template.id,
    read: () => api.call<TemplateBody>('get', `templates/${template.id}`),
    remove: async () => {
      const headers = { Authorization: `Bearer ${await staffToken(page.request)}` };
      await page.request.delete(`/api/enterprise/templates/${template.id}`, { headers });
    },
  };
}

/** Whether anything makes the page wider than the window (a sideways scroll). */
async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(
    scrollWidth,
    `page is ${scrollWidth} px wide in a ${innerWidth} px window`,
  ).toBeLessThanOrEqual(innerWidth);
}

const frame = () =>
  sharp({ create: { width: 3600, height: 2400, channels: 4, background: '#ff5a7a80' } })
    .png()
    .toBuffer();

test('the editor says a slot runs off the canvas before saving, and Save keeps it off the server', async ({
  page,
}) => {
  const template = await landscapeTemplate(page, `Fit ${uniqueTag()}`);
  try {
    await signInSeededStaff(page, STAFF_PHONE, `/enterprise/templates/${template.id}`);
    await page.getByRole('button', { name: 'Edit Template' }).click();
    const panel = page.getByRole('form', { name: 'Edit template' });
    await panel.getByLabel('Slot 1 w').fill('99999');
    const message =
      'Slot 1 runs off the 3600×2400 landscape canvas: x + w is 100119 and may be at most 3600. Move it left or make it narrower.';
    // Inline, beside the slot, as soon as it is typed; once on the screen.
    await expect(panel.getByTestId('slot-row-1')).toContainText(message);
    await expect(panel.getByLabel('Slot 1 w')).toHaveAttribute('aria-invalid', 'true');
    await expect(panel.getByLabel('Slot 1 x')).toHaveAttribute('aria-invalid', 'true');
    await expect(panel.getByLabel('Slot 1 y')).not.toHaveAttribute('aria-invalid');
    await panel.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(message)).toHaveCount(1);
    await expect(panel.getByLabel('Slot 1 x')).toBeFocused();
    await expect(page.getByText('Template updated successfully!')).toHaveCount(0);
    expect((await template.read()).images[0]).toMatchObject({ w: 1620 });

    // Fixed, the message goes and Save works.
    await panel.getByLabel('Slot 1 w').fill('1800');
    await panel.getByLabel('Slot 1 h').fill('1200');
    await expect(page.getByText(/runs off/)).toHaveCount(0);
    await panel.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Template updated successfully!')).toBeVisible();
    expect((await template.read()).images[0]).toMatchObject({ w: 1800, h: 1200 });
  } finally {
    await template.remove();
  }
});

test('a new orientation saves with slots moved onto the new canvas', async ({ page }) => {
  const template = await landscapeTemplate(page, `Turn ${uniqueTag()}`);
  try {
    await signInSeededStaff(page, STAFF_PHONE, `/enterprise/templates/${template.id}`);
    await page.getByRole('button', { name: 'Edit Template' }).click();
    const panel = page.getByRole('form', { name: 'Edit template' });
    await panel.getByLabel('Orientation').selectOption('portrait');
    // y 2500 + h 720 lies only on the portrait canvas, the stored x 120 + w 1620 on both.
    await panel.getByLabel('Slot 1 y').fill('2500');
    await panel.getByLabel('Slot 1 w').fill('1080');
    await panel.getByLabel('Slot 1 h').fill('720');
    await panel.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Template updated successfully!')).toBeVisible();
    const saved = await template.read();
    expect(saved).toMatchObject({ orientation: 'portrait' });
    expect(saved.images[0]).toMatchObject({ x: 120, y: 2500, w: 1080, h: 720 });
  } finally {
    await template.remove();
  }
});

test('the template detail fits the screen and Edit Template brings the editor into view', async ({
  page,
}) => {
  const template = await landscapeTemplate(page, `Wide ${uniqueTag()}`);
  try {
    await signInSeededStaff(page, STAFF_PHONE, `/enterprise/templates/${template.id}`);
    await page.getByTestId('upload-foreground').setInputFiles({
      name: 'frame.png',
      mimeType: 'image/png',
      buffer: await frame(),
    });
    await expect(page.getByText('Foreground image uploaded successfully!')).toBeVisible();
    await expect(page.getByRole('button', { name: /Enlarge the foreground image/ })).toBeVisible();
    await expectNoSidewaysScroll(page);
    // The whole foreground is on the screen, and so is the navigation at the bottom.
    const foreground = await page
      .getByRole('button', { name: /Enlarge the foreground image/ })
      .boundingBox();
    expect(foreground!.x + foreground!.width).toBeLessThanOrEqual(page.viewportSize()!.width);
    await expect(page.getByTestId('bottom-nav')).toBeInViewport({ ratio: 1 });

    await page.getByRole('button', { name: 'Edit Template' }).click();
    const panel = page.getByRole('form', { name: 'Edit template' });
    await expect(panel.getByRole('heading', { name: 'Edit Template' })).toBeInViewport();
    await expect(panel.getByRole('heading', { name: 'Edit Template' })).toBeFocused();
    await expectNoSidewaysScroll(page);

    // The checkboxes say what they do (the visitor screen's words), at the same size.
    const cut = panel.getByRole('checkbox', { name: /Cut into 2 strips/ });
    const duplicate = panel.getByRole('checkbox', { name: /Duplicate sides/ });
    await expect(cut).toBeVisible();
    await expect(duplicate).toBeVisible();
    await expect(page.getByText(/is_cut|is_duplicated/)).toHaveCount(0);
    const [cutBox, duplicateBox] = [await cut.boundingBox(), await duplicate.boundingBox()];
    expect(cutBox!.width).toBeGreaterThan(0);
    expect({ w: duplicateBox!.width, h: duplicateBox!.height }).toEqual({
      w: cutBox!.width,
      h: cutBox!.height,
    });
  } finally {
    await template.remove();
  }
});

test('the template list, organizations and Studio fit the screen', async ({ page }) => {
  const template = await landscapeTemplate(page, `Listed ${uniqueTag()}`);
  try {
    await signInSeededStaff(page, STAFF_PHONE, '/enterprise/templates');
    await expect(page.getByRole('heading', { name: 'Templates' }).first()).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.goto(`/enterprise/templates/${template.id}/orgs`);
    await expect(page.getByRole('button', { name: '+Add Organization' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.goto('/enterprise/template-studio');
    await expect(page.getByTestId('studio-idle')).toBeVisible();
    await expectNoSidewaysScroll(page);
  } finally {
    await template.remove();
  }
});

test('the Template Studio shows one error at a time, the newest', async ({ page }) => {
  await signInSeededStaff(page, STAFF_PHONE, '/enterprise/template-studio');
  const small = await sharp({
    create: { width: 1200, height: 800, channels: 3, background: '#fff' },
  })
    .png()
    .toBuffer();
  const sizeError = 'Image must be 3600×2400px. Yours is 1200×800px.';
  const noPng = 'No PNG data to download. Please upload a file first.';
  const errors = page.locator('.status-error');

  await page.getByLabel('Design (JPG or PNG)').setInputFiles({
    name: 'small.png',
    mimeType: 'image/png',
    buffer: small,
  });
  await expect(page.getByText(sizeError)).toBeVisible();
  // The refused design is no longer chosen, so the corrected file can be chosen again.
  await expect(page.getByLabel('Design (JPG or PNG)')).toHaveValue('');
  await page.getByRole('button', { name: 'Download PNG' }).click();
  await expect(page.getByText(noPng)).toBeVisible();
  await expect(page.getByText(sizeError)).toHaveCount(0);
  await expect(errors).toHaveCount(1);

  // A new upload's error replaces the download's.
  await page.getByLabel('Design (JPG or PNG)').setInputFiles({
    name: 'small-again.png',
    mimeType: 'image/png',
    buffer: small,
  });
  await expect(page.getByText(sizeError)).toBeVisible();
  await expect(page.getByText(noPng)).toHaveCount(0);
  await expect(errors).toHaveCount(1);
});
