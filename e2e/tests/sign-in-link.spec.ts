import { expect, test, type APIRequestContext } from '@playwright/test';
import { newMobile } from './support';

/*
 * Issue 14, item 2: a phone that has spent its daily code budget is told so in plain words, and
 * the one-tap link in its latest SMS signs it in all the same. (The e2e server runs without the
 * pause between wrong codes, OTP_BACKOFF_BASE_SECONDS=0, so the budget is spent at once.)
 */

interface Sms {
  text: string;
  code: string | null;
}

async function latestSms(request: APIRequestContext, phone: string): Promise<Sms> {
  const response = await request.get(`/api/dev/sms?phone=${encodeURIComponent(phone)}`);
  expect(response.ok()).toBe(true);
  const item = ((await response.json()) as { items: Sms[] }).items[0];
  expect(item, `an SMS to ${phone}`).toBeDefined();
  return item!;
}

/** The one-tap sign-in link in a text. */
function linkIn(text: string): string {
  const match = /https?:\/\/\S+\/(regular|enterprise)\/login#link=\S+/.exec(text);
  expect(match, `a sign-in link in "${text}"`).not.toBeNull();
  return match![0];
}

/** Spends the phone's 10 wrong codes of the day through the API (3 tries per code). */
async function spendCodeBudget(request: APIRequestContext, phone: string) {
  for (let n = 0; n < 10; n += 1) {
    if (n > 0 && n % 3 === 0) {
      expect((await request.post('/api/regular/auth/sign-in', { data: { phone } })).ok()).toBe(
        true,
      );
    }
    const right = (await latestSms(request, phone)).code!;
    const wrong = right === '0000' ? '1111' : '0000';
    const verify = await request.post('/api/regular/auth/verify', { data: { phone, code: wrong } });
    expect([401, 429]).toContain(verify.status());
  }
  const spent = await request.post('/api/regular/auth/verify', { data: { phone, code: '0000' } });
  expect(await spent.json()).toMatchObject({ reason: 'code_budget_spent' });
}

test(
  'a phone over its code budget is told why and signs in with the link from its SMS',
  { tag: '@flow' },
  async ({ page, context }) => {
    const mobile = newMobile();
    const phone = `+91${mobile}`;
    const signUp = await page.request.post('/api/regular/auth/sign-up', {
      data: { phone, name: 'Locked Out Owner' },
    });
    expect(signUp.status()).toBe(201);
    await spendCodeBudget(page.request, phone);

    // The owner opens a page that needs sign-in and asks for a code.
    await page.goto('/regular/transactions');
    await expect(page).toHaveURL(/\/regular\/login$/);
    await page.getByLabel('Mobile number').fill(mobile);
    await page.getByRole('button', { name: 'Continue' }).click();

    const notice = page.getByRole('alert').filter({ hasText: 'Too many wrong codes' });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText(
      /This phone number has had too many wrong codes, so we cannot check codes for it until \d\d\/\d\d\/\d{4} \d\d:\d\d UTC\./,
    );
    await expect(notice).toContainText(
      `We have just texted a sign-in link to ${phone}. Tap the link in that SMS: it signs you in even now.`,
    );
    // Still at phone entry: no code box for a code that could not be checked.
    await expect(page.getByLabel('One-time code')).toHaveCount(0);

    // The latest SMS carries no code, only the link; it opens in a new tab (as from the SMS app).
    const sms = await latestSms(page.request, phone);
    expect(sms.code).toBeNull();
    const link = linkIn(sms.text);
    expect(link).toContain(`&next=${encodeURIComponent('/regular/transactions')}`);
    const tab = await context.newPage();
    await tab.goto(link);
    // Signed in, on the page first asked for, with the token gone from the address bar.
    await expect(tab).toHaveURL(/\/regular\/transactions$/);
    await expect(tab.getByRole('heading', { level: 1, name: 'My Transactions' })).toBeVisible();
    const stored = await tab.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
    expect(stored).toMatchObject({ name: 'Locked Out Owner', phone });

    // A link works once: opened again (signed out), it says so and offers the phone form.
    await tab.evaluate(() => localStorage.clear());
    await tab.goto(link);
    const failed = tab.getByRole('alert').filter({ hasText: 'This sign-in link did not work' });
    await expect(failed).toContainText(
      'This sign-in link has expired or was already used. Please request a new code.',
    );
    await expect(tab).toHaveURL(/\/regular\/login$/);
    await expect(tab.getByLabel('Mobile number')).toBeVisible();
  },
);
