/**
 * The booth page a QR code opens, before and after its script: the server's HTML shows the
 * booth's name and venue (the Confirm Your Location dialog) and carries the booth and its first
 * templates for the app, which takes over without a request for them, without moving anything
 * and without a console warning; a tap on the page's links before the script has run is not
 * lost, here and on the landing's Book a Demo.
 */
import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';
import {
  latestCode,
  layoutShiftSoFar,
  newMobile,
  recordLayoutShifts,
  signInNewVisitor,
  signInThroughUi,
  staffApi,
  uniqueTag,
  type RegisteredBooth,
} from './support';

/** Console errors and warnings and uncaught errors while `page` runs. */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      problems.push(`${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

/** Every script, or every script but the app's loader (the app's own scripts). */
const ALL_SCRIPTS = '**/assets/*.js';
const APP_SCRIPTS = /\/assets\/(?!app-loader-)[^/]+\.js$/;

/** Holds `scripts` back until the returned function is called. */
async function holdScripts(
  page: Page,
  scripts: string | RegExp = ALL_SCRIPTS,
): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(scripts, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

let booth: RegisteredBooth;

test.beforeAll(async ({ request }) => {
  const staff = await staffApi(request);
  const orgId = await staff.demoOrgId();
  booth = await staff.createBooth(`First Paint ${uniqueTag()} <Booth> & "Co"`, orgId);
});

test.describe('booth page first paint', () => {
  test(
    'the HTML alone shows the booth’s name and venue and carries its first templates',
    { tag: '@flow' },
    async ({ browser, request }) => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      const response = await page.goto(`/b/${booth.id}`);
      expect(response?.status()).toBe(200);
      const dialog = page.getByRole('dialog', { name: 'Confirm Your Location' });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByTestId('location-device')).toHaveText(booth.name);
      await expect(dialog.getByTestId('location-org')).toHaveText(booth.orgName);
      // Wrong Location is a plain link: it works without the script.
      await dialog.getByRole('button', { name: 'Wrong Location' }).click();
      await expect(page).toHaveURL('/');
      await context.close();

      const html = await (await request.get(`/b/${booth.id}`)).text();
      const json = /<script type="application\/json" id="booth-data">([^<]*)<\/script>/.exec(html);
      expect(json, 'the booth page carries its data for the app').not.toBeNull();
      const data = JSON.parse(json![1]!) as {
        device: { id: number; name: string };
        templates: { items: { name: string }[] };
      };
      expect(data.device).toMatchObject({ id: booth.id, name: booth.name });
      expect(data.templates.items.length).toBeGreaterThan(0);

      const unknown = await request.get('/b/999999999');
      expect(unknown.status()).toBe(404);
    },
  );

  test(
    'a signed-in visitor’s app takes over the painted booth without a request, a shift or a warning',
    { tag: '@flow' },
    async ({ page }) => {
      await signInNewVisitor(page, 'First Paint Visitor');
      const problems = watchConsole(page);
      const boothRequests: string[] = [];
      page.on('request', (request) => {
        // The booth and its templates (the visitor's own visit is asked for: issue 37).
        const url = request.url();
        if (url.includes(`/api/regular/devices/${booth.id}`) && !url.endsWith('/visit')) {
          boothRequests.push(url);
        }
      });
      await recordLayoutShifts(page);
      const release = await holdScripts(page);
      await page.goto(`/b/${booth.id}`, { waitUntil: 'commit' });

      const dialog = page.getByRole('dialog', { name: 'Confirm Your Location' });
      await expect(dialog.getByTestId('location-device')).toHaveText(booth.name);
      await expect(dialog.getByTestId('location-org')).toHaveText(booth.orgName);
      const before = await dialog.boundingBox();

      release();
      await expect(page.locator('html')).toHaveAttribute('data-interactive', 'true');
      // The app's own dialog (modal now) in the same place, from the page's data.
      await expect(page.locator('dialog.booth-location-dialog:modal')).toBeVisible();
      await expect(dialog.getByTestId('location-device')).toHaveText(booth.name);
      expect(await dialog.boundingBox()).toEqual(before);
      const shift = await layoutShiftSoFar(page);
      expect(shift).toBeLessThan(0.01);

      await dialog.getByRole('button', { name: "Yes, I'm Here" }).click();
      await expect(
        page.getByRole('heading', { level: 1, name: 'Select Your Template' }),
      ).toBeVisible();
      await expect(page.getByTestId('template-card').first()).toBeVisible();
      // The booth and its first templates came with the page.
      expect(boothRequests).toEqual([]);
      expect(problems).toEqual([]);
    },
  );

  test(
    'Yes, I’m Here tapped before the script is kept: the app opens on the templates',
    { tag: '@flow' },
    async ({ page }) => {
      await signInNewVisitor(page, 'Early Tapper');
      const release = await holdScripts(page);
      await page.goto(`/b/${booth.id}`, { waitUntil: 'commit' });
      const dialog = page.getByRole('dialog', { name: 'Confirm Your Location' });
      await dialog.getByRole('button', { name: "Yes, I'm Here" }).click();
      release();
      await expect(page.locator('html')).toHaveAttribute('data-interactive', 'true');
      await expect(
        page.getByRole('heading', { level: 1, name: 'Select Your Template' }),
      ).toBeVisible();
      await expect(dialog).toBeHidden();
      // The tap's fragment is spent: a reload asks again.
      await expect(page).toHaveURL(`/b/${booth.id}`);
    },
  );
  test(
    'back in a reloaded tab after answering, the visitor never sees the location dialog again; the visit decides',
    { tag: '@flow' },
    async ({ page }) => {
      await signInNewVisitor(page, 'Returning Visitor');
      await page.goto(`/b/${booth.id}`);
      const dialog = page.getByRole('dialog', { name: 'Confirm Your Location' });
      await dialog.getByRole('button', { name: "Yes, I'm Here" }).click();
      const heading = page.getByRole('heading', { level: 1, name: 'Select Your Template' });
      await expect(heading).toBeVisible();

      // Every frame from the loader's start on (it runs once the HTML is parsed, so the HTML's
      // first frame may still show the dialog): was the dialog ever on the screen?
      await page.addInitScript(() => {
        const state = globalThis as unknown as { dialogSeen: boolean };
        state.dialogSeen = false;
        const look = () => {
          const loaderRan =
            document.getElementById('root')?.dataset.resuming !== undefined ||
            document.documentElement.dataset.interactive === 'true';
          const shown = document.querySelector('dialog.booth-location-dialog[open]');
          if (loaderRan && shown && shown.getClientRects().length > 0) state.dialogSeen = true;
          requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      });
      // The tab comes back from the payment app reloaded: the app's scripts are slow to come.
      const release = await holdScripts(page, APP_SCRIPTS);
      await page.reload({ waitUntil: 'commit' });
      await expect(page.locator('#root')).toHaveAttribute('data-resuming', 'booth');
      await expect(dialog).toBeHidden();
      release();
      await expect(page.locator('html')).toHaveAttribute('data-interactive', 'true');
      await expect(heading).toBeVisible();
      await expect(page.locator('#root')).not.toHaveAttribute('data-resuming', /.*/);
      expect(
        await page.evaluate(() => (globalThis as unknown as { dialogSeen: boolean }).dialogSeen),
      ).toBe(false);
      await page.unroute(APP_SCRIPTS);

      // The hint only hides the HTML's dialog: a visitor whose visit has no answer is asked
      // (here another visitor in the same tab, the hint left behind).
      await page.evaluate(() => {
        localStorage.removeItem('user');
      });
      await page.context().clearCookies();
      await signInNewVisitor(page, 'Second Visitor');
      expect(await page.evaluate(() => sessionStorage.getItem('boothHere'))).toBe(String(booth.id));
      await page.goto(`/b/${booth.id}`);
      await expect(dialog.getByTestId('location-device')).toHaveText(booth.name);
      expect(await page.evaluate(() => sessionStorage.getItem('boothHere'))).toBeNull();
    },
  );

  test(
    'a signed-out visitor sees the sign-in screen from the booth page’s HTML and returns after signing in',
    { tag: '@flow' },
    async ({ page }) => {
      const problems = watchConsole(page);
      // Every script but the page's loader held back: the app cannot start, so what shows is the
      // sign-in screen the booth page carries. The sign-in screen's script is asked for all the
      // same, beside the app's.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/assets\/(?!app-loader-)[\w-]+\.js$/, async (route) => {
        await released;
        await route.continue();
      });
      const signInScript = page.waitForRequest(/\/assets\/login-screen-[\w-]+\.js$/);
      await page.goto(`/b/${booth.id}`);
      await expect(page).toHaveURL(/\/regular\/login$/);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByLabel('Mobile number')).toBeVisible();
      await signInScript;
      expect(await page.locator('html').getAttribute('data-interactive')).toBeNull();
      const heading = page.getByRole('heading', { level: 1 });
      const before = await heading.boundingBox();
      // The visitor types their number and taps Continue before the app has started.
      const mobile = newMobile();
      await page.getByLabel('Mobile number').fill(mobile);
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page).toHaveURL(/\/regular\/login$/);

      release();
      await expect(page.locator('html')).toHaveAttribute('data-interactive', 'true');
      // The app renders the same screen over it, in the same place, with the number typed and the
      // tap kept: it goes on to the new visitor's name.
      expect(await heading.boundingBox()).toEqual(before);
      // A new number's account check answers 404 (the screen then asks for a name): the one
      // console line allowed.
      expect(problems.filter((line) => !line.includes('status of 404'))).toEqual([]);
      await expect(page.getByLabel('Full name')).toBeVisible();
      await expect(page.getByText(`+91${mobile}`)).toBeVisible();
      await page.getByLabel('Full name').fill('First Paint Visitor');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByLabel('One-time code').fill(await latestCode(page.request, `+91${mobile}`));
      await expect(page).toHaveURL(`/b/${booth.id}`);
      await expect(page.getByRole('dialog', { name: 'Confirm Your Location' })).toBeVisible();
    },
  );

  test('a visitor typing their number while the app takes the page over keeps typing into it', async ({
    page,
  }) => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/(?!app-loader-)[\w-]+\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`/b/${booth.id}`);
    await expect(page).toHaveURL(/\/regular\/login$/);
    const mobile = newMobile();
    // In the field, three digits typed on the page's HTML; the app starts; the rest typed on.
    await page.getByLabel('Mobile number').click();
    await page.keyboard.type(mobile.slice(0, 3));
    release();
    await expect(page.locator('html')).toHaveAttribute('data-interactive', 'true');
    await page.keyboard.type(mobile.slice(3));
    await expect(page.getByLabel('Mobile number')).toHaveValue(mobile);
    await expect(page.getByLabel('Mobile number')).toBeFocused();
    await expect(page.getByLabel('Country code')).toHaveValue('+91');
  });

  test(
    'a signed-in visitor’s browser does not fetch the sign-in screen',
    { tag: '@flow' },
    async ({ page }) => {
      await signInNewVisitor(page, 'First Paint Visitor');
      await page.goto(`/b/${booth.id}`);
      await expect(page.locator('html')).toHaveAttribute('data-interactive', 'true');
      await expect(page.getByRole('dialog', { name: 'Confirm Your Location' })).toBeVisible();
      await expect(
        page.locator('head link[rel="modulepreload"][href^="/assets/login-screen-"]'),
      ).toHaveCount(0);
    },
  );
});

test.describe('landing before its script', () => {
  test(
    'Book a Demo tapped before the script opens the demo form, and the app’s dialog takes over',
    { tag: '@flow' },
    async ({ page }) => {
      const problems = watchConsole(page);
      const release = await holdScripts(page);
      await page.goto('/', { waitUntil: 'commit' });
      await expect(page.getByRole('heading', { level: 1, name: /Instant prints/ })).toBeVisible();
      await page
        .locator('#contact')
        .getByRole('button', { name: /Book a demo/i })
        .click();
      // The link's target: the form in the dialog's place before any script has run.
      const early = page.locator('#book-demo');
      await expect(early).toBeVisible();
      await expect(early.getByRole('heading', { name: 'Book a demo' })).toBeVisible();
      await expect(early.locator('iframe[title="Book a demo form"]')).toBeAttached();

      release();
      await expect(page.locator('html')).toHaveAttribute('data-interactive', 'true');
      const dialog = page.locator('dialog.lp-demo-dialog:modal');
      await expect(dialog).toBeVisible();
      await expect(early).toBeHidden();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(early).toBeHidden();
      expect(problems).toEqual([]);
    },
  );
});

test.describe('taps before the script on the landing and the wall', () => {
  test(
    'the slideshow’s Next tapped before the script moves it once the app has taken over',
    { tag: '@flow' },
    async ({ page }) => {
      // No slideshow running on its own: only the tap moves it.
      await page.emulateMedia({ reducedMotion: 'reduce' });
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/assets\/(?!app-loader-)[\w-]+\.js$/, async (route) => {
        await released;
        await route.continue();
      });
      await page.goto('/');
      const first = page.getByRole('button', { name: /^Show template 1 of 4/ });
      const second = page.getByRole('button', { name: /^Show template 2 of 4/ });
      await expect(first).toHaveAttribute('aria-current', 'true');
      await page.getByRole('button', { name: 'Next template' }).click();
      expect(await page.locator('html').getAttribute('data-interactive')).toBeNull();

      release();
      await expect(page.locator('html')).toHaveAttribute('data-interactive', 'true');
      await expect(second).toHaveAttribute('aria-current', 'true');
      await expect(first).not.toHaveAttribute('aria-current', 'true');
    },
  );

  test(
    'a search typed and sent on the wall before the script is kept for a signed-in visitor',
    { tag: '@flow' },
    async ({ page }) => {
      await signInNewVisitor(page, 'Early Wall Searcher');
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/assets\/(?!app-loader-)[\w-]+\.js$/, async (route) => {
        await released;
        await route.continue();
      });
      await page.goto('/regular/wall');
      const term = `nothing-${uniqueTag()}`;
      const box = page.getByRole('searchbox', { name: 'Search the wall' });
      await box.fill(term);
      await box.press('Enter');
      await expect(page).toHaveURL('/regular/wall');
      release();
      // The app checks the stored session first (a spinner), then shows the wall: the search
      // goes into its box and is sent.
      await expect(page.locator('html')).toHaveAttribute('data-interactive', 'true');
      await expect(page.getByText('No public media found.')).toBeVisible();
      await expect(box).toHaveValue(term);
      await expect(box).toBeFocused();
    },
  );

  test(
    'the wall’s Sign in tapped before the script comes back to the wall',
    { tag: '@flow' },
    async ({ page }) => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/assets\/(?!app-loader-)[\w-]+\.js$/, async (route) => {
        await released;
        await route.continue();
      });
      await page.goto('/regular/wall');
      await page.getByRole('link', { name: /^Sign in/ }).click();
      await expect(page).toHaveURL(/\/regular\/login$/);
      await page.waitForLoadState();
      release();
      await signInThroughUi(page, 'regular', newMobile(), 'Early Wall Visitor');
      await expect(page).toHaveURL(/\/regular\/wall$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Wall' })).toBeVisible();
    },
  );

  test(
    'a number typed on the sign-in screen before even its loader has run is kept',
    { tag: '@flow' },
    async ({ page }) => {
      // Every script held, the loader too: the visitor types into the bare HTML.
      const release = await holdScripts(page);
      await page.goto('/regular/login', { waitUntil: 'commit' });
      const mobile = newMobile();
      const field = page.getByLabel('Mobile number');
      await field.fill(mobile);
      release();
      // The loader finds the visitor in a field with a number typed: the app starts at once and
      // keeps both.
      await expect(page.locator('html')).toHaveAttribute('data-interactive', 'true');
      await expect(field).toHaveValue(mobile);
      await expect(field).toBeFocused();
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByLabel('Full name')).toBeVisible();
      await expect(page.getByText(`+91${mobile}`)).toBeVisible();
    },
  );
});
