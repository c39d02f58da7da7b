import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { startBooth, type TestBooth } from './booths';
import {
  newMobile,
  screenshotBothSizes,
  signInThroughUi,
  staffApi,
  staffToken,
  uniqueTag,
  type RegisteredBooth,
} from './support';

/*
 * Issue 37: a visit that survives the phone. The visitor's place at a booth is one server-side
 * record, and every visitor screen starts from it: a reload, Back and Forward, the tab closed and
 * the booth's link opened again, or a second phone signed in as the same visitor each land on
 * the right screen, with one payment and one capture in the database.
 */

const PRICE_TEXT = '₹49.50';
/** Each photo's countdown at the test booths: the real 10 s, so a reload lands in the middle of it. */
const COUNTDOWN_MS = 10_000;

const running: TestBooth[] = [];
test.afterAll(async () => {
  await Promise.all(running.splice(0).map((booth) => booth.agent.stop()));
});

async function boothWithTemplate(
  request: APIRequestContext,
  baseURL: string | undefined,
  price?: number,
): Promise<{ booth: TestBooth; templateId: number; templateName: string; tag: string }> {
  if (!baseURL) throw new Error('baseURL is not configured');
  const tag = uniqueTag();
  const staff = await staffApi(request);
  const orgId = await staff.demoOrgId();
  const registered: RegisteredBooth = await staff.createBooth(`Visit Booth ${tag}`, orgId, price);
  const templateName = `${tag} Visit Photo`;
  const templateId = await staff.createTemplate(orgId, templateName, 'landscape', { slots: 1 });
  const booth = await startBooth(registered, baseURL, { countdownMs: COUNTDOWN_MS });
  running.push(booth);
  return { booth, templateId, templateName, tag };
}

/** Signs in at the booth's link and answers the location dialog; the visitor's access token. */
async function arriveAtBooth(page: Page, boothId: number, mobile: string): Promise<string> {
  await page.goto(`/b/${boothId}`);
  await expect(page).toHaveURL('/regular/login');
  const verified = page.waitForResponse(
    (response) => response.url().endsWith('/api/regular/auth/verify') && response.ok(),
  );
  await signInThroughUi(page, 'regular', mobile, 'Visit Visitor');
  const { access_token: token } = (await (await verified).json()) as { access_token: string };
  await expect(page).toHaveURL(`/b/${boothId}`);
  const dialog = page.getByRole('dialog', { name: 'Confirm Your Location' });
  // A new visitor: the booth asks where they are once.
  await dialog.getByRole('button', { name: "Yes, I'm Here" }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Select Your Template' })).toBeVisible();
  return token;
}

async function pickTemplate(page: Page, tag: string, templateName: string) {
  const box = page.getByRole('searchbox', { name: 'Search templates' });
  await box.fill(tag);
  await box.press('Enter');
  await page.getByRole('button', { name: new RegExp(templateName) }).click();
}

/** Picks a priced template, pays on the sandbox page and waits for the success line. */
async function payFor(page: Page, tag: string, templateName: string) {
  await pickTemplate(page, tag, templateName);
  await expect(page).toHaveURL(/\/api\/sandbox\/checkout\//);
  await page.getByRole('button', { name: `Pay ${PRICE_TEXT}` }).click();
  await expect(
    page.getByText('Payment Successful! Redirecting you to the photobooth...'),
  ).toBeVisible({ timeout: 15_000 });
}

const api = (request: APIRequestContext, token: string) => ({
  get: async <T>(path: string): Promise<T> => {
    const response = await request.get(`/api/regular/${path}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.ok(), await response.text()).toBe(true);
    return (await response.json()) as T;
  },
});

/** The visitor's payments and photos, as the database holds them (through the visitor's API). */
async function countsOf(request: APIRequestContext, token: string) {
  const calls = api(request, token);
  const transactions = await calls.get<{ items: { kind?: string; state: string }[] }>(
    'transactions?limit=50&offset=0',
  );
  const media = await calls.get<{ total_count: number }>('media?limit=50&offset=0');
  return {
    payments: transactions.items.filter((item) => (item.kind ?? 'payment') === 'payment'),
    creditLines: transactions.items.filter((item) => item.kind === 'credit'),
    media: media.total_count,
  };
}

async function signInElsewhere(browser: Browser, boothId: number, mobile: string) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`/b/${boothId}`);
  await signInThroughUi(page, 'regular', mobile, 'Visit Visitor');
  await expect(page).toHaveURL(`/b/${boothId}`);
  return { context, page };
}

test.describe('a visit that survives the phone', () => {
  test(
    'paid: a reload during the countdown and a second phone follow the one capture to All done',
    { tag: '@flow' },
    async ({ page, request, baseURL, browser }) => {
      test.setTimeout(120_000);
      const { booth, templateName, tag } = await boothWithTemplate(request, baseURL, 49.5);
      const mobile = newMobile();
      const token = await arriveAtBooth(page, booth.id, mobile);
      // The same visitor is signed in on a second phone too, at the booth's page.
      const other = await signInElsewhere(browser, booth.id, mobile);
      await payFor(page, tag, templateName);
      await expect(page).toHaveURL(/\/capture\?template_id=/, { timeout: 10_000 });
      const capture = page.getByRole('button', { name: 'Capture' });
      await expect(capture).toBeEnabled({ timeout: 15_000 });
      await capture.click();
      const countdown = page.getByTestId('capture-countdown');
      await expect(countdown).toBeVisible({ timeout: 15_000 });

      // The phone reloads the tab in the middle of the countdown.
      await page.reload();
      await expect(countdown).toBeVisible();
      await expect(page.getByText('Look at the photobooth and strike a pose!')).toBeVisible();
      await expect(page.getByText('Payment needed')).toHaveCount(0);
      await expect(page.getByRole('button', { name: /^Pay/ })).toHaveCount(0);
      await screenshotBothSizes(page, 'visit-resumed-capture');

      // The second phone, reloaded, sees the capture under way at the booth and follows it.
      try {
        await other.page.reload();
        const banner = other.page.getByTestId('visit-banner');
        await expect(banner).toContainText('Your photos are being taken');
        await screenshotBothSizes(other.page, 'visit-booth-capturing');
        await expect(other.page.getByRole('dialog', { name: 'Confirm Your Location' })).toHaveCount(
          0,
        );
        await banner.getByRole('link', { name: 'Back to your capture' }).click();
        await expect(other.page.getByText('All done! Your photos are ready.')).toBeVisible({
          timeout: 60_000,
        });
      } finally {
        await other.context.close();
      }

      await expect(page.getByText('All done! Your photos are ready.')).toBeVisible({
        timeout: 60_000,
      });
      await expect(page.getByRole('link', { name: 'Go to My Media' })).toBeVisible();
      // After it ended, a reload shows it ended; nothing asks to pay.
      await page.reload();
      await expect(page.getByText('All done! Your photos are ready.')).toBeVisible();
      await expect(page.getByText('Payment needed')).toHaveCount(0);
      expect(booth.errors).toEqual([]);
      const counts = await countsOf(request, token);
      expect(counts.payments.map((item) => item.state)).toEqual(['COMPLETED']);
      expect(counts.media).toBe(1);
    },
  );

  test(
    'free motion: Back and Forward and a reload during processing end in All done with the boomerang',
    { tag: '@flow' },
    async ({ page, request, baseURL }) => {
      test.setTimeout(150_000);
      if (!baseURL) throw new Error('baseURL is not configured');
      const staff = await staffApi(request);
      const orgId = await staff.demoOrgId();
      const tag = uniqueTag();
      const registered = await staff.createBooth(`Motion Visit ${tag}`, orgId);
      // The real countdown (10 s), so the server's stages match the booth's.
      const booth = await startBooth(registered, baseURL, { countdownMs: 10_000 });
      running.push(booth);
      const token = await arriveAtBooth(page, booth.id, newMobile());
      const box = page.getByRole('searchbox', { name: 'Search templates' });
      await box.fill('Boomerang');
      await box.press('Enter');
      await page.locator('[data-testid="template-card"][data-capture-kind="boomerang"]').click();
      await expect(page).toHaveURL(/\/capture\?template_id=/);
      const capture = page.getByRole('button', { name: 'Capture' });
      await expect(capture).toBeEnabled({ timeout: 15_000 });
      await capture.click();
      await expect(page.getByText('Get ready to move!')).toBeVisible({ timeout: 20_000 });

      // Back to the booth page mid-capture: it shows the capture first; Forward resumes it.
      await page.goBack();
      await expect(page.getByTestId('visit-banner')).toContainText('Your photos are being taken');
      await page.goForward();
      const howTo = page.getByText('Your boomerang appears in My Media once it is uploaded.');
      await expect(howTo).toBeVisible();
      await expect(page.getByRole('button', { name: 'Capture' })).toBeDisabled();

      // A reload while the booth makes the clip (the visit says processing): still the
      // boomerang's words, and it ends.
      await expect
        .poll(
          async () =>
            (
              await api(request, token).get<{ capture: { state: string } | null }>(
                `devices/${booth.id}/visit`,
              )
            ).capture?.state,
          { timeout: 60_000, intervals: [250] },
        )
        .toBe('processing');
      await page.reload();
      await expect(howTo).toBeVisible();
      await expect(page.getByText('All done! Your boomerang is ready.')).toBeVisible({
        timeout: 90_000,
      });
      expect(booth.errors).toEqual([]);
      expect((await countsOf(request, token)).media).toBe(1);
    },
  );

  test(
    'paid and left: the booth shows the payment first, a new pick uses it, and credit reads as credit',
    { tag: '@flow' },
    async ({ page, request, baseURL, context }) => {
      test.setTimeout(120_000);
      const { booth, templateId, templateName, tag } = await boothWithTemplate(
        request,
        baseURL,
        49.5,
      );
      const token = await arriveAtBooth(page, booth.id, newMobile());
      await payFor(page, tag, templateName);
      // The visitor leaves before Capture: the tab is closed, the QR link opened again.
      await page.close();
      const again = await context.newPage();
      await again.goto(`/b/${booth.id}`);
      const banner = again.getByTestId('visit-banner');
      await expect(banner).toContainText(`Paid: ${templateName}`);
      await expect(banner.getByRole('link', { name: 'Capture now' })).toHaveAttribute(
        'href',
        `/regular/photobooths/${booth.id}/capture?template_id=${templateId}`,
      );
      await expect(again.getByRole('dialog', { name: 'Confirm Your Location' })).toHaveCount(0);
      await screenshotBothSizes(again, 'visit-booth-paid');
      // Picking the same template again goes to Capture, not to a second checkout.
      await pickTemplate(again, tag, templateName);
      await expect(again).toHaveURL(/\/capture\?template_id=/);
      await expect(again.getByRole('button', { name: 'Capture' })).toBeEnabled({
        timeout: 15_000,
      });
      expect((await countsOf(request, token)).payments).toHaveLength(1);

      // Left unused, the payment becomes credit (here a staff refund as credit, which the
      // server also does by itself after PAYMENT_UNUSED_CREDIT_MINUTES).
      const transactions = await api(request, token).get<{ items: { id: number }[] }>(
        'transactions?limit=10&offset=0',
      );
      const refunded = await request.post(
        `/api/enterprise/transactions/${transactions.items[0]!.id}/refund`,
        {
          headers: { Authorization: `Bearer ${await staffToken(request)}` },
          data: { to: 'credit' },
        },
      );
      expect(refunded.ok(), await refunded.text()).toBe(true);
      await again.goto(`/b/${booth.id}`);
      await expect(again.getByTestId('price-badge')).toHaveText('FREE/PREPAID');
      await pickTemplate(again, tag, templateName);
      const capture = again.getByRole('button', { name: 'Capture' });
      await expect(capture).toBeEnabled({ timeout: 15_000 });
      await capture.click();
      await expect(again.getByText('All done! Your photos are ready.')).toBeVisible({
        timeout: 60_000,
      });

      // My Transactions: the payment added to the credit, and the capture paid with it.
      await again.goto('/regular/transactions');
      const cards = again.getByTestId('transaction-card');
      await expect(cards).toHaveCount(2);
      const used = cards.and(again.locator('[data-kind="credit"]'));
      await expect(used.getByTestId('transaction-state')).toHaveText('Paid with credit');
      await expect(used).toContainText(PRICE_TEXT);
      await expect(used.getByTestId('transaction-template')).toHaveText(templateName);
      const credited = cards.and(again.locator('[data-kind="payment"]'));
      await expect(credited.getByTestId('transaction-state')).toHaveText('Added to your credit');
      await expect(again.getByText(/^[A-Z_]{4,}$/)).toHaveCount(0);
      await screenshotBothSizes(again, 'visit-transactions-credit');
      const counts = await countsOf(request, token);
      expect(counts.payments).toHaveLength(1);
      expect(counts.creditLines).toHaveLength(1);
      expect(counts.media).toBe(1);
    },
  );
});
