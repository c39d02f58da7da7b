import { expect, type APIRequestContext, type Page } from '@playwright/test';

/**
 * With E2E_SCREENSHOTS set to a folder, saves what the page shows there at phone size
 * (390×844) and desktop size (1280×800), as `<name>-phone.png` and `<name>-desktop.png`, for a
 * person to look at; without it, does nothing.
 */
export async function screenshotBothSizes(page: Page, name: string): Promise<void> {
  const folder = process.env.E2E_SCREENSHOTS;
  if (!folder) return;
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${folder}/${name}-phone.png`, animations: 'allow' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${folder}/${name}-desktop.png`, animations: 'allow' });
  if (size) await page.setViewportSize(size);
}

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

/**
 * Signs a new visitor up through the login screen and waits until it has left the login page.
 * Answers the access token of the sign-in the page made, for API checks.
 */
export async function signInNewVisitor(page: Page, name = 'Test Visitor'): Promise<string> {
  const verified = page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/regular/auth/verify') &&
      response.request().method() === 'POST' &&
      response.ok(),
  );
  await signInThroughUi(page, 'regular', newMobile(), name);
  const { access_token } = (await (await verified).json()) as { access_token: string };
  await expect(page).not.toHaveURL(/\/login$/);
  return access_token;
}

/** Signs a new phone up in `pool` through the API with `request`; answers the access token. */
export async function signUpThroughApi(
  request: APIRequestContext,
  pool: Pool,
  name: string,
  phone = `+91${newMobile()}`,
): Promise<string> {
  const signUp = await request.post(`/api/${pool}/auth/sign-up`, { data: { phone, name } });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  const code = await latestCode(request, phone);
  const verify = await request.post(`/api/${pool}/auth/verify`, { data: { phone, code } });
  expect(verify.ok(), await verify.text()).toBe(true);
  return ((await verify.json()) as { access_token: string }).access_token;
}

/** The seeded demo administrator: a super user and a member of the demo organization. */
export const STAFF_PHONE = '+919000000001';

interface OutboxItem {
  code: string | null;
  created_at: string;
}

async function newestOutboxItem(
  request: APIRequestContext,
  phone: string,
): Promise<OutboxItem | undefined> {
  const response = await request.get(`/api/dev/sms?phone=${encodeURIComponent(phone)}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { items: OutboxItem[] }).items[0];
}

interface StaffSession {
  token: string;
  /** When the access token stops working (ms since the epoch). */
  expiresAt: number;
  /** The users record the verify call answers (what the app keeps in localStorage). */
  user: unknown;
}

/** One sign-in of a staff phone through the API; null when another worker's code won. */
async function signInStaffOnce(
  request: APIRequestContext,
  phone: string,
): Promise<StaffSession | null> {
  const before = await newestOutboxItem(request, phone);
  const signIn = await request.post('/api/enterprise/auth/sign-in', { data: { phone } });
  expect(signIn.ok(), await signIn.text()).toBe(true);
  let code: string | null = null;
  await expect
    .poll(async () => {
      const item = await newestOutboxItem(request, phone);
      const fresh =
        item !== undefined && (item.created_at !== before?.created_at || item.code !== before.code);
      code = fresh ? item.code : null;
      return code;
    })
    .not.toBeNull();
  const verify = await request.post('/api/enterprise/auth/verify', { data: { phone, code } });
  if (!verify.ok()) return null;
  const body = (await verify.json()) as { access_token: string; expires_in: number; user: unknown };
  return {
    token: body.access_token,
    expiresAt: Date.now() + body.expires_in * 1000,
    user: body.user,
  };
}

/**
 * Workers sign in the same staff phones in parallel, so a code may be replaced by another
 * worker's before it is used: then sign in again.
 */
async function signInStaff(
  request: APIRequestContext,
  phone: string = STAFF_PHONE,
): Promise<StaffSession> {
  for (let attempt = 0; attempt < 6; attempt += 1) {
    const session = await signInStaffOnce(request, phone);
    if (session) return session;
    await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 900));
  }
  throw new Error(`Could not sign in the staff phone ${phone}.`);
}

/**
 * Signs a staff phone with an account (seeded, or signed up earlier) in to this browser (the
 * refresh cookie lands in the page's context, the user record in localStorage, as after a reload)
 * and opens `path` when given. Answers the access token.
 */
export async function signInSeededStaff(page: Page, phone: string, path?: string): Promise<string> {
  const session = await signInStaff(page.request, phone);
  // The origin's storage is written from a page that runs no app: a console page here would
  // start the app, whose refresh rotates the cookie; a navigation that cut that answer off
  // would leave the browser with a spent cookie, and the next page on the login screen.
  await page.goto('/api/health');
  await page.evaluate(
    (record) => localStorage.setItem('user', JSON.stringify(record)),
    session.user,
  );
  if (path) await page.goto(path);
  return session.token;
}

let staffSession: Promise<StaffSession> | undefined;

/**
 * A staff access token for setting up data (the seeded demo administrator). One sign-in serves
 * every test of a worker; a token with less than a minute left, or a failed sign-in, is replaced.
 */
export async function staffToken(request: APIRequestContext): Promise<string> {
  const pending = staffSession;
  const session = pending && (await pending.catch(() => undefined));
  if (session && session.expiresAt - Date.now() > 60_000) return session.token;
  // Only the first caller to find it stale signs in again; the others wait for that sign-in.
  if (staffSession === pending) staffSession = signInStaff(request);
  return (await staffSession!).token;
}

/** A device as POST devices registers it: its broker login (the secret is shown this once). */
export interface RegisteredBooth {
  id: number;
  name: string;
  orgName: string;
  thingName: string;
  secret: string;
}

/** The staff API calls the tests set data up with. */
export class StaffApi {
  constructor(
    private readonly request: APIRequestContext,
    private readonly token: string,
  ) {}

  async call<T>(method: 'get' | 'post' | 'patch', path: string, data?: unknown): Promise<T> {
    const response = await this.request[method](`/api/enterprise/${path}`, {
      headers: { Authorization: `Bearer ${this.token}` },
      data,
    });
    expect(response.ok(), `${method.toUpperCase()} ${path}: ${await response.text()}`).toBe(true);
    return (await response.json()) as T;
  }

  async demoOrgId(): Promise<number> {
    const self = await this.call<{ organizations?: { org_id: number }[] }>('get', 'users/self');
    const orgId = self.organizations?.[0]?.org_id;
    expect(orgId, 'the demo administrator belongs to the demo organization').toBeTruthy();
    return orgId!;
  }

  /** A device linked to the organization, optionally with a price. */
  async createBooth(name: string, orgId: number, priceRupees?: number): Promise<RegisteredBooth> {
    const device = await this.call<{ id: number; thing_name: string; secret: string }>(
      'post',
      'devices',
      { name },
    );
    const linked = await this.call<{ id: number; name: string; org_name: string | null }>(
      'patch',
      `devices/${device.id}/link`,
      { org_id: orgId },
    );
    if (priceRupees !== undefined) {
      await this.call('patch', `devices/${device.id}`, { price_rupees: priceRupees });
    }
    return {
      id: linked.id,
      name: linked.name,
      orgName: linked.org_name ?? '',
      thingName: device.thing_name,
      secret: device.secret,
    };
  }

  /**
   * A template offered by the organization; `slots` image slots (none by default: such a
   * template can be listed but not captured).
   */
  async createTemplate(
    orgId: number,
    name: string,
    orientation: 'portrait' | 'landscape',
    options: { cut?: { is_duplicated: boolean }; slots?: number } = {},
  ): Promise<number> {
    const template = await this.call<{ id: number }>('post', 'templates', { name, orientation });
    if (options.cut) {
      await this.call('patch', `templates/${template.id}`, {
        is_cut: true,
        is_duplicated: options.cut.is_duplicated,
      });
    }
    for (let slot = 0; slot < (options.slots ?? 0); slot += 1) {
      // One 3:2 photo centred on the print (3600 × 2400 landscape, 2400 × 3600 portrait).
      const area =
        orientation === 'landscape'
          ? { x: 360, y: 120, w: 2880, h: 1920 }
          : { x: 120, y: 1000, w: 2160, h: 1440 };
      await this.call('post', `templates/${template.id}/images`, area);
    }
    await this.call('post', `templates/${template.id}/orgs`, { org_id: orgId });
    return template.id;
  }
}

export async function staffApi(request: APIRequestContext): Promise<StaffApi> {
  return new StaffApi(request, await staffToken(request));
}

/** A tag unique to this test run and project, so parallel runs never see each other's data. */
export function uniqueTag(): string {
  return `T${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** Sums the page's layout shifts (as Cumulative Layout Shift counts them) from its start. */
export async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const state = globalThis as unknown as { layoutShift: number };
    state.layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as {
        value: number;
        hadRecentInput: boolean;
      }[]) {
        if (!entry.hadRecentInput) state.layoutShift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The layout shift summed since the page started (recordLayoutShifts). */
export async function layoutShiftSoFar(page: Page): Promise<number> {
  return page.evaluate(() => (globalThis as unknown as { layoutShift: number }).layoutShift);
}
