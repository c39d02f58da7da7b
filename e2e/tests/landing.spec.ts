import { expect, type Page, test } from '@playwright/test';

/** Opens a prerendered page and waits until its script has taken it over (clicks work then). */
async function openPage(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('html')).toHaveAttribute('data-interactive', 'true');
}

test.describe('landing page', () => {
  test('shows every section in order with the hero links', async ({ page }) => {
    await openPage(page, '/');
    // The landing route loads lazily: wait for it before reading the DOM directly.
    await expect(page.locator('#contact')).toBeAttached();
    const ids = await page
      .locator('main section[id]')
      .evaluateAll((sections) => sections.map((s) => s.id));
    expect(ids).toEqual(['hero', 'benefits', 'branding', 'experience', 'technology', 'contact']);
    const hero = page.locator('#hero');
    await expect(hero.getByRole('link', { name: 'User Login' })).toHaveAttribute(
      'href',
      '/regular/login',
    );
    await expect(hero.getByRole('link', { name: 'Venue Login' })).toHaveAttribute(
      'href',
      '/enterprise/login',
    );
    await expect(hero.getByRole('link', { name: /Book a Demo/ })).toHaveAttribute(
      'href',
      '#contact',
    );
    const nav = page.getByRole('navigation', { name: 'Page sections' });
    for (const label of ['Benefits', 'Branding', 'Experience', 'Technology']) {
      await expect(nav.getByRole('link', { name: label })).toBeVisible();
    }
    // No bottom navigation for a signed-out visitor on home.
    await expect(page.getByRole('navigation', { name: /main/i })).toHaveCount(0);
    // Every image loads.
    const broken = await page
      .locator('img')
      .evaluateAll(
        (images) =>
          (images as HTMLImageElement[]).filter(
            (img) => img.loading !== 'lazy' && img.complete && img.naturalWidth === 0,
          ).length,
      );
    expect(broken).toBe(0);
  });

  test('a section link lands its section just under the header', async ({ page }) => {
    await openPage(page, '/');
    /** The section's top once the smooth scroll has come to rest. */
    const restingTop = async (id: string) => {
      let last = Number.NaN;
      await expect
        .poll(async () => {
          const top = await page
            .locator(`#${id}`)
            .evaluate((section) => Math.round(section.getBoundingClientRect().top));
          const resting = top === last;
          last = top;
          return resting;
        })
        .toBe(true);
      return last;
    };
    const header = await page
      .locator('.lp-header')
      .evaluate((element) => element.getBoundingClientRect().height);
    await page
      .locator('#hero')
      .getByRole('link', { name: /Book a Demo/ })
      .click();
    const contactTop = await restingTop('contact');
    // Under the sticky header (the sections' scroll margin), not past or short of it.
    expect(contactTop).toBeGreaterThanOrEqual(header - 2);
    expect(contactTop).toBeLessThanOrEqual(header + 120);
    await page
      .getByRole('navigation', { name: 'Page sections' })
      .getByRole('link', { name: 'Benefits' })
      .click();
    const benefitsTop = await restingTop('benefits');
    expect(benefitsTop).toBeGreaterThanOrEqual(header - 2);
    expect(benefitsTop).toBeLessThanOrEqual(header + 120);
  });

  test('advances the template carousel every 3.5 seconds', { tag: '@flow' }, async ({ page }) => {
    await openPage(page, '/');
    const current = page.locator('[aria-current="true"][aria-label^="Show template"]');
    await expect(current).toHaveAttribute('aria-label', /Show template 1 of 4/);
    await expect(current).toHaveAttribute('aria-label', /Show template 2 of 4/, { timeout: 6000 });
  });

  test('highlights the section in view and offers scroll-to-top after 400px', async ({ page }) => {
    await openPage(page, '/');
    await expect(page.getByRole('button', { name: 'Scroll to top' })).toHaveCount(0);
    await page.locator('#technology').scrollIntoViewIfNeeded();
    await expect(
      page
        .getByRole('navigation', { name: 'Page sections' })
        .getByRole('link', { name: 'Technology' }),
    ).toHaveAttribute('aria-current', 'true');
    const toTop = page.getByRole('button', { name: 'Scroll to top' });
    await expect(toTop).toBeVisible();
    await toTop.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeLessThan(400);
  });

  test('opens Book a Demo in a modal that closes on Escape, the close button and the overlay', async ({
    page,
  }) => {
    await openPage(page, '/');
    const open = () =>
      page
        .locator('#contact')
        .getByRole('button', { name: /Book a demo/i })
        .click();
    const dialog = page.getByRole('dialog');

    // The prerendered page paints before its script; the button works once it has hydrated.
    await expect(page.locator('html')).toHaveAttribute('data-interactive', 'true');
    await open();
    await expect(dialog).toBeVisible();
    await expect(dialog.locator('iframe[title="Book a demo form"]')).toBeAttached();
    await expect(dialog.locator('[aria-busy="false"]')).toBeAttached();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    await open();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();

    await open();
    await expect(dialog).toBeVisible();
    await page.mouse.click(5, 5);
    await expect(dialog).toBeHidden();
  });

  test(
    'links the legal pages from the footer and renders them from Markdown',
    { tag: '@flow' },
    async ({ page }) => {
      await openPage(page, '/brochure');
      const footer = page.getByRole('contentinfo');
      for (const [name, title] of [
        ['Terms', 'Terms and Conditions'],
        ['Refund', 'Refund Policy'],
        ['Privacy', 'Privacy Policy'],
      ] as const) {
        await openPage(page, '/brochure');
        await footer
          .getByRole('link', { name: new RegExp(name) })
          .first()
          .click();
        await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
        await expect(page.getByText('Effective 14 May 2025')).toBeVisible();
      }
      const privacy = page.locator('.legal-content');
      for (const item of ['mobile number', 'full name', 'email', 'age range', 'gender']) {
        await expect(privacy).toContainText(new RegExp(item, 'i'));
      }
      await expect(privacy).not.toContainText('{email}');
    },
  );
});
