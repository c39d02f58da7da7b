import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import {
  screenshotBothSizes,
  signInSeededStaff,
  STAFF_PHONE,
  staffApi,
  staffToken,
  uniqueTag,
} from './support';

/*
 * Issue 38, item 1, on the phone (390×844) and the desktop (1280×800): Upload Foreground is held
 * to the one foreground rule (a PNG of the canvas size, transparent where the slots are) by the
 * server, whose words the page shows, and nothing is stored; the template page draws the
 * foreground exactly as the print is drawn (stretched over the canvas, over the slots' photos).
 */

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
interface TemplateBody {
  id: number;
  foreground_s3_url: string | null;
}

const SLOTS: Box[] = [
  { x: 61, y: 555, w: 1080, h: 720 },
  { x: 61, y: 1440, w: 1080, h: 720 },
];

/** A portrait template (2400×3600) with two slots. */
async function portraitTemplate(page: Page, name: string) {
  const api = await staffApi(page.request);
  const template = await api.call<TemplateBody>('post', 'templates', {
    name,
    orientation: 'portrait',
  });
  for (const slot of SLOTS) await api.call('post', `templates/${template.id}/images`, slot);
  return {
    id: template.id,
    read: () => api.call<TemplateBody>('get', `templates/${template.id}`),
    remove: async () => {
      const headers = { Authorization: `Bearer ${await staffToken(page.request)}` };
      await page.request.delete(`/api/enterprise/templates/${template.id}`, { headers });
    },
  };
}

/** An opaque PNG `width`×`height`, fully transparent inside each of `clear`. */
async function png(width: number, height: number, clear: Box[] = []): Promise<Buffer> {
  const holes = clear.map(
    (box) => `<rect x="${box.x}" y="${box.y}" width="${box.w}" height="${box.h}"/>`,
  );
  const composite = holes.length
    ? [
        {
          input: Buffer.from(
            `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${holes.join('')}</svg>`,
          ),
          blend: 'dest-out' as const,
        },
      ]
    : [];
  return sharp({ create: { width, height, channels: 4, background: '#3a2a5cff' } })
    .composite(composite)
    .png()
    .toBuffer();
}

test('a refused foreground shows the server’s words and stores nothing', async ({ page }) => {
  const template = await portraitTemplate(page, `Frame ${uniqueTag()}`);
  try {
    await signInSeededStaff(page, STAFF_PHONE, `/enterprise/templates/${template.id}`);
    const picker = page.getByTestId('upload-foreground');

    // The case: a fully opaque 640×480 PNG on a 2400×3600 template.
    await picker.setInputFiles({
      name: 'small.png',
      mimeType: 'image/png',
      buffer: await png(640, 480),
    });
    const refused = page.getByText('Image must be 2400×3600px. Yours is 640×480px.');
    await expect(refused).toBeVisible();
    await screenshotBothSizes(page, 'template-foreground-refused');
    await expect(page.getByText('Foreground image uploaded successfully!')).toHaveCount(0);
    await expect(page.getByTestId('template-foreground')).toHaveText('No foreground');
    expect((await template.read()).foreground_s3_url).toBeNull();

    // The canvas size, but opaque over the slots: the print would hide every photo.
    await picker.setInputFiles({
      name: 'cover.png',
      mimeType: 'image/png',
      buffer: await png(2400, 3600),
    });
    await expect(
      page.getByText(
        'The foreground covers slot 1: 0% of it is transparent and at least 90% must be, or its photo will not show. Make the foreground transparent where the photos go.',
      ),
    ).toBeVisible();
    expect((await template.read()).foreground_s3_url).toBeNull();

    // The picker offers PNGs, and a JPEG is refused on the page before anything is uploaded.
    await expect(picker).toHaveAttribute('accept', 'image/png');
    await picker.setInputFiles({
      name: 'frame.jpg',
      mimeType: 'image/jpeg',
      buffer: await sharp({
        create: { width: 2400, height: 3600, channels: 3, background: '#ffffff' },
      })
        .jpeg()
        .toBuffer(),
    });
    await expect(
      page.getByText('The foreground must be a PNG, transparent where the photos go.'),
    ).toBeVisible();
    expect((await template.read()).foreground_s3_url).toBeNull();
  } finally {
    await template.remove();
  }
});

test('the template page draws the foreground as the print draws it', async ({ page }) => {
  const template = await portraitTemplate(page, `As printed ${uniqueTag()}`);
  try {
    await signInSeededStaff(page, STAFF_PHONE, `/enterprise/templates/${template.id}`);
    await page.getByTestId('upload-foreground').setInputFiles({
      name: 'frame.png',
      mimeType: 'image/png',
      buffer: await png(2400, 3600, SLOTS),
    });
    await expect(page.getByText('Foreground image uploaded successfully!')).toBeVisible();
    expect((await template.read()).foreground_s3_url).not.toBeNull();
    await expect(page.getByTestId('template-foreground').locator('img')).toHaveJSProperty(
      'complete',
      true,
    );
    await screenshotBothSizes(page, 'template-foreground-as-printed');

    const print = page.getByTestId('template-foreground').getByTestId('template-print');
    const image = print.locator('img');
    await expect(image).toHaveJSProperty('complete', true);
    const canvas = (await print.boundingBox())!;
    // The canvas's shape, and the foreground over all of it (stretched, never letterboxed).
    expect(canvas.width / canvas.height).toBeCloseTo(2400 / 3600, 2);
    const drawn = (await image.boundingBox())!;
    for (const side of ['x', 'y', 'width', 'height'] as const) {
      expect(Math.abs(drawn[side] - canvas[side]), side).toBeLessThanOrEqual(1);
    }
    await expect(image).toHaveCSS('object-fit', 'fill');
    // Each slot's stand-in photo where the print puts the photo, under the foreground.
    for (const [index, slot] of SLOTS.entries()) {
      const box = (await print.getByTestId(`template-print-slot-${index + 1}`).boundingBox())!;
      const scale = canvas.width / 2400;
      expect(Math.abs(box.x - (canvas.x + slot.x * scale))).toBeLessThanOrEqual(1.5);
      expect(Math.abs(box.y - (canvas.y + slot.y * scale))).toBeLessThanOrEqual(1.5);
      expect(Math.abs(box.width - slot.w * scale)).toBeLessThanOrEqual(1.5);
      expect(Math.abs(box.height - slot.h * scale)).toBeLessThanOrEqual(1.5);
    }
    // The photos show through the openings: the stand-in's colour, not the frame's, in slot 1.
    const shot = await print.screenshot();
    const meta = await sharp(shot).metadata();
    const at = (fx: number, fy: number) =>
      sharp(shot)
        .extract({
          left: Math.round(meta.width! * fx),
          top: Math.round(meta.height! * fy),
          width: 1,
          height: 1,
        })
        .raw()
        .toBuffer();
    // Off the centre, where the slot number is written.
    const inSlot = await at((61 + 200) / 2400, (555 + 150) / 3600);
    const onFrame = await at(1800 / 2400, 300 / 3600);
    expect(inSlot[2]! - inSlot[0]!, 'a bluish stand-in photo shows in the opening').toBeGreaterThan(
      20,
    );
    [0x3a, 0x2a, 0x5c].forEach((value, channel) =>
      expect(Math.abs(onFrame[channel]! - value), 'the frame colour elsewhere').toBeLessThan(8),
    );

    // Enlarged, it is drawn the same way.
    await page.getByRole('button', { name: /Enlarge the foreground image/ }).click();
    const lightbox = page.getByRole('dialog', { name: /Foreground image/ });
    await expect(lightbox.getByRole('img')).toBeVisible();
    await expect(lightbox.getByTestId('template-print-slot-2')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(lightbox).toBeHidden();
  } finally {
    await template.remove();
  }
});
