import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import jsQR from 'jsqr';
import sharp from 'sharp';
import { signInSeededStaff, STAFF_PHONE, uniqueTag } from './support';

/** landscape3 (packages/contracts layouts): its three 1620×1080 photo openings. */
const LANDSCAPE3_SLOTS = [
  { x: 120, y: 80, w: 1620, h: 1080 },
  { x: 1860, y: 80, w: 1620, h: 1080 },
  { x: 120, y: 1240, w: 1620, h: 1080 },
];
/** Its QR code: 230×230 in the free bottom-right cell (template-studio-model qrPlacements). */
const LANDSCAPE3_QR = { x: 3250, y: 2090, w: 230, h: 230 };
const DESIGN_RGB = { r: 40, g: 90, b: 200 };

async function openStudio(page: Page): Promise<string> {
  const token = await signInSeededStaff(page, STAFF_PHONE, '/enterprise/template-studio');
  await expect(page.getByRole('heading', { name: 'Template Studio' })).toBeVisible();
  await expect(page.getByTestId('studio-idle')).toBeVisible();
  return token;
}

/** A solid opaque PNG design of the given size. */
function design(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: DESIGN_RGB } })
    .png()
    .toBuffer();
}

async function upload(page: Page, name: string, buffer: Buffer, mimeType = 'image/png') {
  await page.getByLabel('Design (JPG or PNG)').setInputFiles({ name, mimeType, buffer });
}

async function download(page: Page, button: string): Promise<Buffer> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button }).click(),
  ]);
  return readFile((await file.path())!);
}

test(
  'downloads need a result; a wrong-size or unreadable design gives its message',
  { tag: '@flow' },
  async ({ page }) => {
    await openStudio(page);
    await page.getByRole('button', { name: 'Download PNG' }).click();
    await expect(page.getByTestId('status-error')).toHaveText(
      'No PNG data to download. Please upload a file first.',
    );
    await page.getByRole('button', { name: 'Download JPG' }).click();
    await expect(page.getByTestId('status-error')).toHaveText(
      'No JPG data to download. Please upload a file first.',
    );

    await upload(page, 'small.png', await design(1200, 800));
    await expect(page.getByTestId('studio-error')).toHaveText(
      'Image must be 3600×2400px. Yours is 1200×800px.',
    );

    // portrait6 wants the canvas the other way round.
    await page.getByLabel(/portrait6/).check();
    await expect(page.getByTestId('studio-idle')).toBeVisible();
    await upload(page, 'landscape.png', await design(3600, 2400));
    await expect(page.getByTestId('studio-error')).toHaveText(
      'Image must be 2400×3600px. Yours is 3600×2400px.',
    );

    await upload(page, 'broken.png', Buffer.from('not an image at all'));
    await expect(page.getByTestId('studio-error')).toHaveText(
      "Could not load the image file. Please ensure it's a valid JPG or PNG.",
    );
  },
);

test(
  'a 3600×2400 design gives a PNG with transparent openings and a working QR code, and a 900×600 JPG',
  { tag: '@flow' },
  async ({ page }) => {
    await openStudio(page);
    const address = `https://studio.example/${uniqueTag()}`;
    await page.getByLabel('QR code address').fill(address);
    await upload(page, 'design.png', await design(3600, 2400));
    await expect(page.getByTestId('studio-success')).toBeVisible();
    await expect(page.getByTestId('studio-png-preview')).toBeVisible();
    await expect(page.getByTestId('studio-jpg-preview')).toBeVisible();

    const png = await download(page, 'Download PNG');
    const { data, info } = await sharp(png)
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([3600, 2400, 4]);
    const alpha = (x: number, y: number) => data[(y * info.width + x) * 4 + 3];
    for (const slot of LANDSCAPE3_SLOTS) {
      // Inside the opening: transparent, up to the straight edges.
      expect(alpha(slot.x + slot.w / 2, slot.y + slot.h / 2)).toBe(0);
      expect(alpha(slot.x + 1, slot.y + slot.h / 2)).toBe(0);
      expect(alpha(slot.x + slot.w / 2, slot.y + slot.h - 2)).toBe(0);
      // The rounded corners (radius 50) keep the design; just outside the slot too.
      expect(alpha(slot.x + 3, slot.y + 3)).toBe(255);
      expect(alpha(slot.x + slot.w - 4, slot.y + slot.h - 4)).toBe(255);
      expect(alpha(slot.x - 2, slot.y + slot.h / 2)).toBe(255);
    }
    expect(alpha(3000, 1800)).toBe(255);
    const qr = await sharp(png)
      .extract({
        left: LANDSCAPE3_QR.x,
        top: LANDSCAPE3_QR.y,
        width: LANDSCAPE3_QR.w,
        height: LANDSCAPE3_QR.h,
      })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const decoded = jsQR(new Uint8ClampedArray(qr.data), qr.info.width, qr.info.height);
    expect(decoded?.data).toBe(address);

    const jpg = await download(page, 'Download JPG');
    const sample = await sharp(jpg).raw().toBuffer({ resolveWithObject: true });
    expect([sample.info.format, sample.info.width, sample.info.height]).toEqual(['raw', 900, 600]);
    expect((await sharp(jpg).metadata()).format).toBe('jpeg');
    // A sample photo shows through each opening (not the design's colour, not blank).
    for (const slot of LANDSCAPE3_SLOTS) {
      const at =
        (Math.round((slot.y + slot.h / 2) / 4) * 900 + Math.round((slot.x + slot.w / 2) / 4)) * 3;
      const [r, g, b] = [sample.data[at]!, sample.data[at + 1]!, sample.data[at + 2]!];
      const distance =
        Math.abs(r - DESIGN_RGB.r) + Math.abs(g - DESIGN_RGB.g) + Math.abs(b - DESIGN_RGB.b);
      expect(distance, `slot at ${slot.x},${slot.y} shows a photo`).toBeGreaterThan(30);
    }

    // Changing the layout resets the result.
    await page.getByLabel(/landscape1/).check();
    await expect(page.getByTestId('studio-idle')).toBeVisible();
    await page.getByRole('button', { name: 'Download PNG' }).click();
    await expect(page.getByTestId('status-error')).toHaveText(
      'No PNG data to download. Please upload a file first.',
    );
  },
);

test(
  '"Create template from this design" makes the template and opens its page',
  { tag: '@flow' },
  async ({ page }) => {
    const token = await openStudio(page);
    await upload(page, 'design.png', await design(3600, 2400));
    await expect(page.getByTestId('studio-success')).toBeVisible();
    const name = `Studio ${uniqueTag()}`;
    await page.getByLabel('Template name').fill(name);
    await page.getByRole('button', { name: 'Create template from this design' }).click();
    await expect(page).toHaveURL(/\/enterprise\/templates\/\d+$/, { timeout: 30_000 });
    const id = Number(new URL(page.url()).pathname.split('/').pop());

    const response = await page.request.get(`/api/enterprise/templates/${id}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.ok()).toBe(true);
    const template = (await response.json()) as {
      name: string;
      orientation: string;
      images: { x: number; y: number; w: number; h: number; filter: string }[];
      foreground_s3_url: string | null;
      sample_s3_url: string | null;
    };
    expect(template.name).toBe(name);
    expect(template.orientation).toBe('landscape');
    expect(template.images.map(({ x, y, w, h, filter }) => ({ x, y, w, h, filter }))).toEqual(
      LANDSCAPE3_SLOTS.map((slot) => ({ ...slot, filter: 'none' })),
    );
    expect(template.foreground_s3_url).toBeTruthy();
    expect(template.sample_s3_url).toBeTruthy();
    const foreground = await page.request.get(template.foreground_s3_url!);
    const meta = await sharp(await foreground.body()).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual([
      'png',
      3600,
      2400,
      true,
    ]);
    await expect(page.getByRole('heading', { name })).toBeVisible();
  },
);
