import { expect, test, type APIRequestContext } from '@playwright/test';
import sharp from 'sharp';
import { signInSeededStaff, staffApi, STAFF_PHONE, staffToken, uniqueTag } from './support';

/*
 * Template detail (staff.md sections 2 and 4): a super user edits a template's slots in the edit
 * panel (number fields, the visual slot editor by keyboard and by dragging) and the save order's
 * outcome is checked through the API; uploads a sample and a foreground; opens the true print
 * preview; deletes the template. The demo organization's admin sees no edit, upload or delete.
 */

const ORG_ADMIN_PHONE = '+919000000002';

// A 6×4 PNG (half-transparent pink), small and valid.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAYAAAAECAYAAACtBE5DAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVR4nGM4oRHVgA0zUE8CAGuEKvHWoB/oAAAAAElFTkSuQmCC',
  'base64',
);

/**
 * A foreground as the foreground rule wants it (issue 38): a PNG of the portrait canvas, open
 * where newTemplate's two slots are.
 */
const FOREGROUND = sharp({
  create: { width: 2400, height: 3600, channels: 4, background: '#ff5a7acc' },
})
  .composite([
    {
      input: Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="2400" height="3600">' +
          '<rect x="61" y="555" width="1080" height="720"/><rect x="61" y="1440" width="1080" height="720"/></svg>',
      ),
      blend: 'dest-out',
    },
  ])
  .png()
  .toBuffer();

interface Slot {
  id: number;
  x: number;
  y: number;
  w: number;
  h: number;
  filter: string;
}
interface TemplateBody {
  id: number;
  name: string;
  is_cut: boolean;
  images: Slot[];
  sample_s3_url: string | null;
  foreground_s3_url: string | null;
}

async function readTemplate(request: APIRequestContext, id: number): Promise<TemplateBody> {
  const response = await request.get(`/api/enterprise/templates/${id}`, {
    headers: { Authorization: `Bearer ${await staffToken(request)}` },
  });
  expect(response.ok()).toBe(true);
  return (await response.json()) as TemplateBody;
}

async function deleteTemplate(request: APIRequestContext, id: number) {
  const response = await request.delete(`/api/enterprise/templates/${id}`, {
    headers: { Authorization: `Bearer ${await staffToken(request)}` },
  });
  expect([204, 404]).toContain(response.status());
}

async function newTemplate(request: APIRequestContext, name: string) {
  const api = await staffApi(request);
  const template = await api.call<TemplateBody>('post', 'templates', {
    name,
    orientation: 'portrait',
  });
  const first = await api.call<Slot>('post', `templates/${template.id}/images`, {
    x: 61,
    y: 555,
    w: 1080,
    h: 720,
  });
  const second = await api.call<Slot>('post', `templates/${template.id}/images`, {
    x: 61,
    y: 1440,
    w: 1080,
    h: 720,
    filter: 'warm',
  });
  return { id: template.id, first, second };
}

test(
  'a super user edits slots, uploads images, previews the print and deletes',
  { tag: '@flow' },
  async ({ page }) => {
    const name = `Detail ${uniqueTag()}`;
    const { id, first, second } = await newTemplate(page.request, name);
    try {
      await signInSeededStaff(page, STAFF_PHONE, `/enterprise/templates/${id}`);
      await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toHaveText(
        /Templates.*Detail/,
      );
      await expect(page.getByTestId('template-sample')).toHaveText('No sample');

      // Uploads: a sample, then a foreground.
      await page.getByTestId('upload-sample').setInputFiles({
        name: 'sample.png',
        mimeType: 'image/png',
        buffer: PNG,
      });
      await expect(page.getByText('Sample image uploaded successfully!')).toBeVisible();
      await page.getByTestId('upload-foreground').setInputFiles({
        name: 'frame.png',
        mimeType: 'image/png',
        buffer: await FOREGROUND,
      });
      await expect(page.getByText('Foreground image uploaded successfully!')).toBeVisible();
      await expect(
        page.getByRole('button', { name: /Enlarge the foreground image/ }),
      ).toBeVisible();
      // A wrong type is refused on screen with the spec message.
      await page.getByTestId('upload-sample').setInputFiles({
        name: 'notes.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('hello'),
      });
      await expect(page.getByText('Please select an image file for the sample.')).toBeVisible();

      // The sample enlarges full-screen; Escape closes it.
      await page.getByRole('button', { name: /Enlarge the sample image/ }).click();
      const lightbox = page.getByRole('dialog', { name: /Sample image/ });
      await expect(lightbox.getByRole('img')).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(lightbox).toBeHidden();

      // Edit: uploads are disabled while the panel is open.
      await page.getByRole('button', { name: 'Edit Template' }).click();
      const panel = page.getByRole('form', { name: 'Edit template' });
      await expect(page.getByRole('button', { name: 'Upload Sample' })).toBeDisabled();
      // Cancel discards the draft.
      await panel.getByLabel('Slot 1 x').fill('999');
      await panel.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: 'Edit Template' }).click();
      await expect(panel.getByLabel('Slot 1 x')).toHaveValue('61');

      // Number fields, the keyboard on the visual editor, remove and add.
      await panel.getByLabel('Name').fill(`  ${name} v2 `);
      await panel.getByLabel('Slot 1 x').fill('100');
      await panel.getByRole('button', { name: /^Slot 1: x 100, y 555/ }).focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Shift+ArrowDown');
      await expect(panel.getByLabel('Slot 1 x')).toHaveValue('110');
      await expect(panel.getByLabel('Slot 1 y')).toHaveValue('655');
      await panel.getByLabel('Slot 1 filter').selectOption('sepia');
      await expect(panel.getByLabel('Slot 1 filter').locator('option')).toHaveText([
        'none',
        'grayscale',
        'sepia',
        'warm',
        'cool',
        'vintage',
        'high-contrast',
      ]);
      await panel.getByRole('button', { name: 'Remove slot 2' }).click();
      await panel.getByRole('button', { name: '+ Add Slot' }).click();
      // The new slot's defaults by count (one slot left: the second position).
      await expect(panel.getByLabel('Slot 2 x')).toHaveValue('61');
      await expect(panel.getByLabel('Slot 2 y')).toHaveValue('1440');
      await expect(panel.getByLabel('Slot 2 w')).toHaveValue('1080');
      await panel.getByRole('checkbox', { name: /Cut into 2 strips/ }).check();

      // Drag the new slot with the pointer: it moves and its number fields follow.
      // In the middle of the window, clear of the fixed navigation bar.
      await panel
        .getByTestId('slot-box-2')
        .evaluate((element) => element.scrollIntoView({ block: 'center' }));
      const box = await panel.getByTestId('slot-box-2').boundingBox();
      expect(box).not.toBeNull();
      await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2);
      await page.mouse.down();
      await page.mouse.move(box!.x + box!.width / 2 + 40, box!.y + box!.height / 2 + 30, {
        steps: 4,
      });
      await page.mouse.up();
      await expect(panel.getByLabel('Slot 2 x')).not.toHaveValue('61');
      const draggedX = Number(await panel.getByLabel('Slot 2 x').inputValue());
      const draggedY = Number(await panel.getByLabel('Slot 2 y').inputValue());
      expect(draggedX).toBeGreaterThan(61);
      expect(draggedY).toBeGreaterThan(1440);

      // The true print preview of the draft: a portrait print (2400×3600).
      await panel.getByRole('button', { name: 'Preview print' }).click();
      const preview = page.getByRole('dialog', { name: 'Print preview' });
      const image = preview.getByRole('img');
      await expect(image).toBeVisible({ timeout: 20_000 });
      expect(await image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(
        2400,
      );
      await preview.getByRole('button', { name: 'Close' }).click();
      await expect(preview).toBeHidden();

      await panel.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('Template updated successfully!')).toBeVisible();
      await expect(panel).toBeHidden();
      await expect(page.getByRole('heading', { level: 1, name: `${name} v2` })).toBeVisible();

      // The save order's outcome, through the API.
      const saved = await readTemplate(page.request, id);
      expect(saved.name).toBe(`${name} v2`);
      expect(saved.is_cut).toBe(true);
      expect(saved.images).toHaveLength(2);
      expect(saved.images.find((slot) => slot.id === second.id)).toBeUndefined();
      expect(saved.images.find((slot) => slot.id === first.id)).toMatchObject({
        x: 110,
        y: 655,
        w: 1080,
        h: 720,
        filter: 'sepia',
      });
      expect(saved.images.find((slot) => slot.id !== first.id)).toMatchObject({
        x: draggedX,
        y: draggedY,
        w: 1080,
        h: 720,
        filter: 'none',
      });
      expect(saved.sample_s3_url).not.toBeNull();
      expect(saved.foreground_s3_url).not.toBeNull();

      // Delete: the confirmation, the message, and the return to the list.
      await page.getByRole('button', { name: 'Delete Template' }).click();
      const confirm = page.getByRole('dialog', { name: 'Confirm Deletion' });
      await expect(confirm).toContainText(
        `Are you sure you want to delete template "${name} v2"? This action cannot be undone.`,
      );
      await confirm.getByRole('button', { name: 'Yes, Delete' }).click();
      await expect(page.getByText('Template deleted successfully.')).toBeVisible();
      await expect(page).toHaveURL(/\/enterprise\/templates$/);
    } finally {
      await deleteTemplate(page.request, id);
    }
  },
);

test(
  'an organization admin sees the template without edit, upload or delete',
  { tag: '@flow' },
  async ({ page }) => {
    const name = `Viewed ${uniqueTag()}`;
    const { id } = await newTemplate(page.request, name);
    try {
      await signInSeededStaff(page, ORG_ADMIN_PHONE, `/enterprise/templates/${id}`);
      await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
      await expect(page.getByText(String(id), { exact: true })).toBeVisible();
      await expect(page.getByRole('link', { name: 'View Organizations' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Edit Template' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Delete Template' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: /^Upload/ })).toHaveCount(0);
    } finally {
      await deleteTemplate(page.request, id);
    }
  },
);
