import { readFile } from 'node:fs/promises';
import { expect, test, type Download, type Page } from '@playwright/test';
import jsQR from 'jsqr';
import sharp from 'sharp';
import { signInSeededStaff, staffApi, STAFF_PHONE, uniqueTag } from './support';

/*
 * The booth's QR poster (issue 11): the demo administrator (a super user) opens the poster of a
 * booth of the demo organization, switches A5/A4, downloads the PNG (whose QR code must decode to
 * the booth's short link) and the SVG, and prints only the sheet. A booth without an organization
 * has no poster, only an explanation and the way back.
 */

async function downloaded(
  page: Page,
  button: string,
): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button }).click(),
  ]);
  expect(await download.failure()).toBeNull();
  const bytes = await readFile((await download.path())!);
  return { download, bytes };
}

test(
  'a super user prints and downloads the QR poster of a demo organization booth',
  { tag: '@flow' },
  async ({ page, baseURL }) => {
    const api = await staffApi(page.request);
    const booth = await api.createBooth(`Poster Booth ${uniqueTag()}`, await api.demoOrgId());
    const shortLink = `${new URL(baseURL!).origin}/b/${booth.id}`;

    await signInSeededStaff(page, STAFF_PHONE, `/enterprise/devices/${booth.id}/poster`);

    await expect(page.getByRole('heading', { level: 1, name: 'QR Poster' })).toBeVisible();
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(crumbs.getByRole('link', { name: 'Devices' })).toHaveAttribute(
      'href',
      '/enterprise/devices',
    );
    await expect(crumbs.getByRole('link', { name: booth.name })).toHaveAttribute(
      'href',
      `/enterprise/devices/${booth.id}`,
    );
    await expect(crumbs.getByText('Poster', { exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );

    // The sheet: venue, booth, the code and the address it holds.
    const sheet = page.getByRole('img', { name: /Scan to take your photos/ });
    await expect(sheet).toBeVisible();
    await expect(page.getByTestId('poster-venue')).toHaveText(booth.orgName);
    await expect(page.getByTestId('poster-booth')).toHaveText(booth.name);
    await expect(page.getByTestId('poster-qr').locator('path')).toHaveAttribute('d', /^M\d/);
    await expect(page.getByTestId('poster-url')).toHaveText(shortLink.replace(/^https?:\/\//, ''));
    await expect(page.getByTestId('poster-link')).toHaveAttribute('href', shortLink);

    // A4 first; A5 on request.
    await expect(page.getByRole('radio', { name: /A4/ })).toBeChecked();
    await expect(sheet).toHaveAttribute('width', '210mm');
    // The choice lives in the address (a router navigation, rendered as a transition): click, then
    // wait for the radio to follow, rather than check(), which looks at once.
    const a5 = page.getByRole('radio', { name: /A5/ });
    await a5.click();
    await expect(a5).toBeChecked();
    await expect(sheet).toHaveAttribute('width', '148mm');
    await expect(page).toHaveURL(/size=a5/);

    // PNG: the A5 sheet at 300 dpi, and its code decodes to the booth's short link.
    const png = await downloaded(page, 'Download PNG');
    expect(png.download.suggestedFilename()).toMatch(/^flashbooth-poster-poster-booth-.*-a5\.png$/);
    expect(png.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    const meta = await sharp(png.bytes).metadata();
    expect([meta.width, meta.height, meta.density]).toEqual([1748, 2480, 300]);
    const { data, info } = await sharp(png.bytes)
      .resize({ width: 700 })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const code = jsQR(new Uint8ClampedArray(data), info.width, info.height);
    expect(code?.data).toBe(shortLink);
    await expect(page.getByTestId('status-success')).toHaveText('PNG downloaded.');

    // SVG: the whole poster as a vector file.
    const svg = await downloaded(page, 'Download SVG');
    expect(svg.download.suggestedFilename()).toMatch(/-a5\.svg$/);
    const text = svg.bytes.toString('utf8');
    expect(text.startsWith('<?xml')).toBe(true);
    expect(text).toContain('width="148mm"');
    expect(text).toContain(booth.name);
    expect(text).toContain(shortLink.replace(/^https?:\/\//, ''));

    // Print: only the sheet, on one A5 page.
    await page.emulateMedia({ media: 'print' });
    await expect(sheet).toBeVisible();
    for (const chrome of [
      crumbs,
      page.getByRole('heading', { level: 1, name: 'QR Poster' }),
      page.getByRole('button', { name: 'Print' }),
      page.getByRole('radio', { name: /A4/ }),
      page.locator('.bottom-nav'),
    ]) {
      await expect(chrome).toBeHidden();
    }
    const pdf = (await page.pdf({ preferCSSPageSize: true })).toString('latin1');
    expect(pdf.match(/\/Type\s*\/Page\b/g)).toHaveLength(1);
    // A5 in points: 148 mm × 210 mm = 419.5 × 595.3.
    const box = /\/MediaBox\s*\[([^\]]+)\]/.exec(pdf)![1]!.trim().split(/\s+/).map(Number);
    expect(Math.abs(box[2]! - 419.5)).toBeLessThan(1);
    expect(Math.abs(box[3]! - 595.3)).toBeLessThan(1);
  },
);

test(
  'a booth without an organization has no poster, only the way back',
  { tag: '@flow' },
  async ({ page }) => {
    const api = await staffApi(page.request);
    const device = await api.call<{ id: number }>('post', 'devices', {
      name: `Unlinked Booth ${uniqueTag()}`,
    });

    await signInSeededStaff(page, STAFF_PHONE, `/enterprise/devices/${device.id}/poster`);
    await expect(page.getByText(/not linked to an organization/)).toBeVisible();
    await expect(page.getByRole('link', { name: '← Back to Device' })).toHaveAttribute(
      'href',
      `/enterprise/devices/${device.id}`,
    );
    await expect(page.getByRole('img', { name: /Scan to take your photos/ })).toHaveCount(0);
  },
);
