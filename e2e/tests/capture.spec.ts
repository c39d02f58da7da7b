import { expect, test, type APIRequestContext } from '@playwright/test';
import { newMobile, signInThroughUi } from './support';

/** The seeded demo administrator: a super user and a member of the demo organization. */
const STAFF_PHONE = '+919000000001';

async function newestCode(request: APIRequestContext): Promise<string | null> {
  const response = await request.get(`/api/dev/sms?phone=${encodeURIComponent(STAFF_PHONE)}`);
  const body = (await response.json()) as { items: { code: string | null }[] };
  return body.items[0]?.code ?? null;
}

/** A staff access token; another worker signing in the same phone may replace the code. */
async function staffToken(request: APIRequestContext): Promise<string> {
  for (let attempt = 0; attempt < 6; attempt += 1) {
    const before = await newestCode(request);
    const signIn = await request.post('/api/enterprise/auth/sign-in', {
      data: { phone: STAFF_PHONE },
    });
    expect(signIn.ok(), await signIn.text()).toBe(true);
    let code: string | null = null;
    await expect
      .poll(async () => {
        const latest = await newestCode(request);
        code = latest !== null && latest !== before ? latest : null;
        return code;
      })
      .not.toBeNull();
    const verify = await request.post('/api/enterprise/auth/verify', {
      data: { phone: STAFF_PHONE, code },
    });
    if (verify.ok()) return ((await verify.json()) as { access_token: string }).access_token;
    await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 900));
  }
  throw new Error('Could not sign in the staff user for test setup.');
}

async function staffCall<T>(
  request: APIRequestContext,
  token: string,
  method: 'get' | 'post',
  path: string,
  data?: unknown,
): Promise<T> {
  const response = await request[method](`/api/enterprise/${path}`, {
    headers: { Authorization: `Bearer ${token}` },
    data,
  });
  expect(response.ok(), `${method.toUpperCase()} ${path}: ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

test('a visitor captures at the demo booth and sees the photos are ready', async ({
  page,
  request,
}, testInfo) => {
  test.skip(testInfo.project.name === 'phone', 'One real capture per run: desktop only.');
  test.setTimeout(90_000);

  const token = await staffToken(request);
  const devices = await staffCall<{ items: { id: number; name: string; org_id: number | null }[] }>(
    request,
    token,
    'get',
    'devices?search=Demo%20Booth&limit=100',
  );
  const booth = devices.items.find((device) => device.name === 'Demo Booth');
  expect(booth?.org_id, 'the seeded Demo Booth is linked to an organization').toBeTruthy();

  const template = await staffCall<{ id: number }>(request, token, 'post', 'templates', {
    name: `Capture E2E ${Date.now().toString(36)}`,
    orientation: 'landscape',
  });
  await staffCall(request, token, 'post', `templates/${template.id}/images`, {
    x: 360,
    y: 120,
    w: 2880,
    h: 1920,
  });
  await staffCall(request, token, 'post', `templates/${template.id}/orgs`, {
    org_id: booth!.org_id,
  });

  await signInThroughUi(page, 'regular', newMobile(), 'Capture Visitor');
  await expect(page).not.toHaveURL(/\/regular\/login$/);
  // Scaled timings (non-production only). The simulated booth really takes 10 s per photo,
  // so the scale keeps the upload polling window (processing wait + 30 polls) longer than that.
  await page.goto(
    `/regular/photobooths/${booth!.id}/capture?template_id=${template.id}&timing_scale=0.5`,
  );
  await expect(page.getByRole('heading', { name: 'Photobooth capture' })).toBeVisible();
  const capture = page.getByRole('button', { name: 'Capture' });
  await expect(capture).toBeEnabled();
  await capture.click();
  await expect(page.getByTestId('capture-countdown')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('All done! Your photos are ready.')).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByRole('switch', { name: /repost/i })).toBeChecked();
  await page.getByRole('link', { name: 'Go to My Media' }).click();
  await expect(page).toHaveURL('/regular/media');
});
