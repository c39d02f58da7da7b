import { expect, type APIRequestContext, type Page } from '@playwright/test';

let counter = 0;
/** A distinct 10-digit Indian mobile number (without +91) per call, per worker. */
export function newMobile(): string {
  counter += 1;
  const worker = Number(process.env.TEST_WORKER_INDEX ?? 0) % 10;
  const stamp = `${Date.now() % 1_000_000}`.padStart(6, '0');
  return `8${worker}${stamp}${counter % 100}`.padEnd(10, '0').slice(0, 10);
}

/** Reads the newest code sent to a phone from the development SMS outbox. */
export async function latestCode(
  request: APIRequestContext,
  phone: string,
  previous?: string,
): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const response = await request.get(`/api/dev/sms?phone=${encodeURIComponent(phone)}`);
      const body = (await response.json()) as {
        items: { code: string | null; created_at: string }[];
      };
      code = body.items[0]?.code ?? undefined;
      return code !== undefined && code !== previous;
    })
    .toBe(true);
  return code!;
}

export type Pool = 'regular' | 'enterprise';

/**
 * Signs up or in through the login screen; leaves the browser wherever the app redirects.
 * On a guarded page of the pool it waits for the guard's redirect (which remembers the page);
 * anywhere else it opens the login page.
 */
export async function signInThroughUi(
  page: Page,
  pool: Pool,
  mobile: string,
  name = 'Test Visitor',
) {
  const phone = `+91${mobile}`;
  const loginPath = `/${pool}/login`;
  const current = page.url().startsWith('http') ? new URL(page.url()).pathname : '';
  const onGuardedPage = current.startsWith(`/${pool}/`) && current !== loginPath;
  if (!onGuardedPage && current !== loginPath) await page.goto(loginPath);
  await expect(page).toHaveURL(new RegExp(`${loginPath}$`));
  await page.getByLabel('Mobile number').fill(mobile);
  await page.getByRole('button', { name: 'Continue' }).click();
  const nameField = page.getByLabel('Full name');
  const codeField = page.getByLabel('One-time code');
  await expect(nameField.or(codeField)).toBeVisible();
  if (await nameField.isVisible()) {
    await nameField.fill(name);
    await page.getByRole('button', { name: 'Create account' }).click();
  }
  await expect(codeField).toBeVisible();
  const code = await latestCode(page.request, phone);
  // Four digits submit the code on their own (spec: auto-submit).
  await codeField.fill(code);
  return code;
}
