/**
 * The web app as it reaches a phone: prerendered pages that paint before any script and hydrate
 * without a mismatch, compressed responses with the right caching, and no staff code in a
 * visitor's first load. Figures (Lighthouse) are measured by `npm run bench:lighthouse`, not here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type ConsoleMessage, type Page, type Response } from '@playwright/test';
import { newMobile, signInThroughUi } from './support';

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
}

const manifest = JSON.parse(
  readFileSync(
    path.resolve(import.meta.dirname, '../../apps/web/dist/.vite/manifest.json'),
    'utf8',
  ),
) as Record<string, ManifestChunk>;

/** Console errors and warnings, uncaught errors and failed requests while `page` runs. */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      problems.push(`${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
  });
  return problems;
}

test.describe('web delivery', () => {
  test(
    'the landing and legal pages arrive as HTML with their words before any script, compressed',
    { tag: '@flow' },
    async ({ request }) => {
      for (const [url, words] of [
        ['/', 'Instant prints.'],
        ['/brochure', 'Instant prints.'],
        ['/terms-and-conditions', 'Terms and Conditions'],
        ['/refund-policy', 'Refund Policy'],
        ['/privacy-policy', 'Privacy Policy'],
      ] as const) {
        const response = await request.get(url, { headers: { 'accept-encoding': 'br' } });
        expect(response.status()).toBe(200);
        const headers = response.headers();
        expect(headers['content-encoding'], url).toBe('br');
        expect(headers.vary, url).toContain('Accept-Encoding');
        expect(headers['cache-control'], url).toBe('no-cache');
        const html = await response.text();
        // The root may carry more attributes (when the app starts: data-app-start).
        const root = html.indexOf('<div id="root" data-prerendered="hydrate"');
        expect(root, url).toBeGreaterThan(0);
        expect(html.indexOf(words, root), url).toBeGreaterThan(root);
        expect(html.slice(root)).not.toContain('<script');
        // The installation's support address, not a build-time placeholder.
        expect(html, url).not.toContain('.invalid');
        expect(html, url).toMatch(/<meta\s+name="description"\s+content="[^"]{50,}"/);
      }
      const robots = await request.get('/robots.txt');
      expect(robots.status()).toBe(200);
      expect(await robots.text()).toMatch(/^User-agent: \*/m);
    },
  );

  test(
    'every script, stylesheet, SVG and HTML response goes compressed; hashed files are immutable',
    { tag: '@flow' },
    async ({ page }) => {
      const responses: Response[] = [];
      page.on('response', (response) => responses.push(response));
      // The landing's stylesheets are inlined (so are the visitor's sign-in screen's); the venue
      // login, not prerendered (the app's shell), links its own.
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.locator('#technology').scrollIntoViewIfNeeded();
      await page.waitForLoadState('networkidle');
      expect(responses.filter((r) => r.request().resourceType() === 'stylesheet')).toEqual([]);
      await page.goto('/enterprise/login');
      await expect(page.getByLabel('Mobile number')).toBeVisible();
      await page.waitForLoadState('networkidle');

      const origin = new URL(page.url()).origin;
      const ours = responses.filter(
        (r) =>
          r.url().startsWith(origin) &&
          r.status() === 200 &&
          /javascript|css|svg|html/.test(r.headers()['content-type'] ?? ''),
      );
      const kinds = new Set(
        ours.map((r) => /javascript|css|svg|html/.exec(r.headers()['content-type']!)![0]),
      );
      expect([...kinds].sort()).toEqual(['css', 'html', 'javascript', 'svg']);
      for (const response of ours) {
        const headers = await response.allHeaders();
        expect(['br', 'gzip'], response.url()).toContain(headers['content-encoding']);
        expect(headers.vary, response.url()).toContain('Accept-Encoding');
        const hashed = new URL(response.url()).pathname.startsWith('/assets/');
        expect(headers['cache-control'], response.url()).toBe(
          hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      }
    },
  );

  test(
    'the landing paints from the HTML and the script hydrates that same markup without a warning',
    { tag: '@flow' },
    async ({ page }) => {
      const problems = watchConsole(page);
      // Hold the scripts back to see what the HTML alone paints.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/assets/*.js', async (route) => {
        await released;
        await route.continue();
      });
      await page.goto('/', { waitUntil: 'commit' });
      const hero = page.getByRole('heading', { level: 1, name: /Instant prints/ });
      await expect(hero).toBeVisible();
      await expect(page.locator('#hero').getByRole('link', { name: 'User Login' })).toBeVisible();
      // Styled already: the hero's white-on-dark text comes from the stylesheets in the head.
      await expect(hero).toHaveCSS('color', 'rgb(255, 255, 255)');
      // Mark the painted node: hydration keeps it, a client render would replace it.
      await hero.evaluate((element) => element.setAttribute('data-before-script', 'yes'));

      release();
      // Interactive once hydrated: the demo button opens its dialog.
      await expect(async () => {
        await page
          .locator('#contact')
          .getByRole('button', { name: /Book a demo/i })
          .click();
        await expect(page.getByRole('dialog')).toBeVisible({ timeout: 1000 });
      }).toPass();
      await expect(hero).toHaveAttribute('data-before-script', 'yes');
      expect(problems).toEqual([]);
    },
  );

  test(
    'the legal pages hydrate without a warning and their links navigate in the app',
    { tag: '@flow' },
    async ({ page }) => {
      const problems = watchConsole(page);
      await page.goto('/privacy-policy');
      // Painted from the HTML first; the router takes the links once the script has hydrated.
      await expect(page.locator('html')).toHaveAttribute('data-interactive', 'true');
      await page.evaluate(() => document.body.setAttribute('data-first-document', 'yes'));
      await page.getByRole('link', { name: 'Refund Policy' }).first().click();
      await expect(page.getByRole('heading', { level: 1, name: 'Refund Policy' })).toBeVisible();
      // Same document: the router moved, the browser did not load a page.
      await expect(page.locator('body')).toHaveAttribute('data-first-document', 'yes');
      expect(problems).toEqual([]);
    },
  );

  test(
    'without any script the booth page shows its frame and the landing its content',
    { tag: '@flow' },
    async ({ browser }) => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto('/b/1');
      await expect(page.getByTestId('booth-skeleton')).toBeVisible();
      await expect(page.locator('.booth-header')).toBeVisible();
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1, name: /Instant prints/ })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Privacy Policy' })).toBeVisible();
      await context.close();
    },
  );

  test(
    'a visitor’s first load of the landing and the booth page holds no staff code',
    { tag: '@flow' },
    async ({ page }) => {
      const staffFiles = new Set(
        Object.entries(manifest)
          .filter(([key]) => key.startsWith('src/app/routes/enterprise/'))
          .map(([, chunk]) => chunk.file),
      );
      expect(staffFiles.size).toBeGreaterThan(0);
      const scripts: string[] = [];
      page.on('request', (r) => {
        if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname.slice(1));
      });
      await page.goto('/');
      await expect(page.locator('#contact')).toBeAttached();
      await page.waitForLoadState('networkidle');
      expect(scripts.length).toBeGreaterThan(0);
      expect(scripts.filter((file) => staffFiles.has(file))).toEqual([]);

      await page.goto('/b/1');
      await expect(page).toHaveURL('/regular/login');
      await signInThroughUi(page, 'regular', newMobile(), 'First Load Visitor');
      await expect(page).toHaveURL('/b/1');
      await expect(page.getByRole('dialog', { name: 'Confirm Your Location' })).toBeVisible();
      // A fresh load of the booth page with the session: frame first, then the screen over it.
      scripts.length = 0;
      await page.reload();
      await expect(page.getByRole('dialog', { name: 'Confirm Your Location' })).toBeVisible();
      expect(scripts.length).toBeGreaterThan(0);
      expect(scripts.filter((file) => staffFiles.has(file))).toEqual([]);
    },
  );
});
