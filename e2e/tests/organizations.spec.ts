import { expect, test, type Browser, type Page, type TestInfo } from '@playwright/test';
import sharp from 'sharp';
import { captureAt, demoRig } from './booths';
import { newMobile, signInSeededStaff, signInThroughUi, STAFF_PHONE, uniqueTag } from './support';

/*
 * The staff console's organizations (staff.md section 2): a super user (the seeded demo
 * administrator) creates an organization and invites phones; the invitees sign up at
 * /enterprise/login, accept, and see what their role allows; the guests screen lists a visitor who
 * has just captured at a booth of the demo organization.
 */

/** A booth of the demo organization where the guest captures. */
const theRig = demoRig('Guest');

/** A second browser of the same kind (phone or desktop) for another person. */
async function newPerson(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const use = testInfo.project.use;
  const context = await browser.newContext({
    baseURL: use.baseURL,
    viewport: use.viewport,
    userAgent: use.userAgent,
    deviceScaleFactor: use.deviceScaleFactor,
    isMobile: use.isMobile,
    hasTouch: use.hasTouch,
  });
  return context.newPage();
}

/** Signs a new staff member up at /enterprise/login and opens the organizations list. */
async function signUpStaff(page: Page, mobile: string, name: string) {
  await signInThroughUi(page, 'enterprise', mobile, name);
  await expect(page).not.toHaveURL(/\/login$/);
  await page.goto('/enterprise/organizations');
  await expect(page.getByRole('heading', { level: 1, name: 'Organizations' })).toBeVisible();
}

/** Searches a list screen (Enter submits). */
async function search(page: Page, label: string, text: string) {
  const box = page.getByRole('searchbox', { name: label });
  await box.fill(text);
  await box.press('Enter');
}

async function inviteFromUsersScreen(page: Page, mobile: string, role: 'Member' | 'Admin') {
  await page.getByRole('button', { name: '+Invite' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite User' });
  const phone = dialog.getByLabel('Phone Number');
  await expect(phone).toHaveValue('+91-');
  await phone.fill(`+91-${mobile.slice(0, 5)} ${mobile.slice(5)}`);
  await dialog.getByLabel('Role').selectOption({ label: role });
  await dialog.getByRole('button', { name: 'Send Invite' }).click();
  await expect(dialog).toBeHidden();
  const sent = page.getByTestId('sent-invitation-card').filter({ hasText: `+91${mobile}` });
  await expect(sent).toBeVisible();
  await expect(sent).toContainText('Unknown');
  await expect(sent).toContainText(role);
}

async function acceptInvitation(page: Page, orgName: string) {
  const invitation = page.getByTestId('invitation-card').filter({ hasText: orgName });
  await expect(invitation).toBeVisible();
  await expect(invitation).toContainText(/Invited at\s*\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
  await invitation.getByRole('button', { name: 'Accept' }).click();
  await expect(invitation).toBeHidden();
  await expect(page.getByTestId('organization-card').filter({ hasText: orgName })).toBeVisible();
}

test(
  'a super user creates an organization and invites people; each role sees what it may do',
  { tag: '@flow' },
  async ({ page, browser }, testInfo) => {
    test.setTimeout(120_000);
    const tag = uniqueTag();
    const orgName = `Venue ${tag}`;
    const adminMobile = newMobile();
    const memberMobile = newMobile();

    // The super user creates the organization.
    await signInSeededStaff(page, STAFF_PHONE, '/enterprise/organizations');
    await expect(page.getByRole('heading', { level: 1, name: 'Organizations' })).toBeVisible();
    await page.getByRole('button', { name: '+Create' }).click();
    const create = page.getByRole('dialog', { name: 'Create Organization' });
    await create.getByRole('button', { name: 'Create' }).click();
    await expect(create.getByRole('alert')).toHaveText('Organization name is required.');
    await create.getByLabel('Name').fill(orgName);
    await create.getByLabel('Email').fill('venue@example.com');
    await create.getByLabel('Phone').fill('+91 80 4000 1234');
    await create.getByLabel('Address').fill('1 MG Road, Bangalore');
    await create.getByRole('button', { name: 'Create' }).click();
    await expect(create).toBeHidden();
    await search(page, 'Search organizations', tag);
    const card = page.getByTestId('organization-card').filter({ hasText: orgName });
    await expect(card).toContainText('No logo');
    await card.click();

    await expect(page.getByRole('heading', { level: 1, name: orgName })).toBeVisible();
    const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(breadcrumb.getByRole('link', { name: 'Organizations' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Delete Organization' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'View Statistics' })).toHaveAttribute(
      'href',
      /\/enterprise\/organizations\/\d+\/stats$/,
    );
    await expect(page.getByRole('link', { name: 'View Media' })).toHaveAttribute(
      'href',
      /\/enterprise\/organizations\/\d+\/media$/,
    );
    await page.getByRole('link', { name: 'View Users' }).click();
    await expect(page.getByRole('heading', { level: 1, name: `${orgName} Users` })).toBeVisible();
    await expect(
      page.getByText(
        'No users found for this organization. Invite new users using the "+Invite" button above.',
      ),
    ).toBeVisible();
    await inviteFromUsersScreen(page, adminMobile, 'Admin');
    await inviteFromUsersScreen(page, memberMobile, 'Member');

    // The invited admin signs up, accepts, edits the details and uploads a logo; no Delete.
    const admin = await newPerson(browser, testInfo);
    await signUpStaff(admin, adminMobile, `Admin ${tag}`);
    await acceptInvitation(admin, orgName);
    await admin.getByTestId('organization-card').filter({ hasText: orgName }).click();
    await expect(admin.getByRole('heading', { level: 1, name: orgName })).toBeVisible();
    await expect(admin.getByRole('button', { name: 'Delete Organization' })).toHaveCount(0);
    await admin.getByRole('button', { name: 'Edit Organization' }).click();
    const edit = admin.getByRole('dialog', { name: 'Edit Organization' });
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(edit.getByText('No changes to save.')).toBeVisible();
    await edit.getByLabel('Address').fill('2 Brigade Road, Bangalore');
    const sent = admin.waitForRequest(
      (request) =>
        request.method() === 'PATCH' && request.url().includes('/api/enterprise/organizations/'),
    );
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    expect((await sent).postDataJSON()).toEqual({ address: '2 Brigade Road, Bangalore' });
    await expect(edit).toBeHidden();
    await expect(admin.getByText('2 Brigade Road, Bangalore')).toBeVisible();

    const logoInput = admin.getByTestId('logo-input');
    await expect(admin.getByRole('button', { name: /Click to upload logo/ })).toBeVisible();
    await logoInput.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not an image'),
    });
    await expect(admin.getByTestId('status-error')).toHaveText('Please select an image file.');
    const png = await sharp({
      create: { width: 64, height: 64, channels: 3, background: { r: 255, g: 90, b: 122 } },
    })
      .png()
      .toBuffer();
    await logoInput.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    const logo = admin.getByRole('img', { name: `${orgName} logo` });
    await expect(logo).toBeVisible();
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
    await expect(admin.getByTestId('status-success')).toHaveText('Logo uploaded successfully!');

    // The member sees the organization but no Edit, no logo upload and no Delete.
    const member = await newPerson(browser, testInfo);
    await signUpStaff(member, memberMobile, `Member ${tag}`);
    await acceptInvitation(member, orgName);
    await member.getByTestId('organization-card').filter({ hasText: orgName }).click();
    await expect(member.getByRole('heading', { level: 1, name: orgName })).toBeVisible();
    await expect(member.getByText('2 Brigade Road, Bangalore')).toBeVisible();
    await expect(member.getByRole('img', { name: `${orgName} logo` })).toBeVisible();
    await expect(member.getByRole('button', { name: 'Edit Organization' })).toHaveCount(0);
    await expect(member.getByRole('button', { name: 'Delete Organization' })).toHaveCount(0);
    await expect(member.getByText('Click to upload logo')).toHaveCount(0);
    await member.getByRole('link', { name: 'View Users' }).click();
    await expect(member.getByTestId('user-card')).toHaveCount(2);
    await expect(member.getByRole('button', { name: '+Invite' })).toHaveCount(0);
    await expect(member.getByRole('button', { name: 'Remove' })).toHaveCount(0);

    // Back with the super user: both joined; then the organization is deleted.
    await page.reload();
    await expect(page.getByTestId('user-card')).toHaveCount(2);
    await expect(page.getByTestId('sent-invitation-card')).toHaveCount(0);
    const adminCard = page.getByTestId('user-card').filter({ hasText: `Admin ${tag}` });
    await expect(adminCard).toContainText('Admin');
    await page
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: orgName })
      .click();
    await page.getByRole('button', { name: 'Delete Organization' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Deletion' });
    await expect(confirm).toContainText('Are you sure you want to delete this organization?');
    await confirm.getByRole('button', { name: 'Yes, Delete' }).click();
    await expect(page.getByTestId('status-success')).toBeVisible();
    await expect(page).toHaveURL(/\/enterprise\/organizations$/, { timeout: 5000 });
    await search(page, 'Search organizations', tag);
    await expect(page.getByText(`No organizations match “${tag}”.`)).toBeVisible();

    await admin.context().close();
    await member.context().close();
  },
);

test(
  'the guests screen lists a visitor who has just captured at the organization’s booth',
  { tag: '@flow' },
  async ({ page, browser, request, baseURL }, testInfo) => {
    test.setTimeout(120_000);
    const { orgId, booth, templateId } = await theRig(request, baseURL);
    const tag = uniqueTag();
    const visitorName = `Guest ${tag}`;
    const visitorMobile = newMobile();
    const visitor = await newPerson(browser, testInfo);
    const verified = visitor.waitForResponse(
      (response) => response.url().endsWith('/api/regular/auth/verify') && response.ok(),
    );
    await signInThroughUi(visitor, 'regular', visitorMobile, visitorName);
    const { access_token } = (await (await verified).json()) as { access_token: string };
    await captureAt(request, access_token, booth, templateId);
    await visitor.context().close();

    await signInSeededStaff(page, STAFF_PHONE, `/enterprise/organizations/${orgId}/guests`);
    await expect(page.getByRole('heading', { level: 1, name: /Guests$/ })).toBeVisible();
    const box = page.getByRole('searchbox', { name: 'Search guests' });
    await expect(box).toHaveAttribute('placeholder', 'Search guests...');
    await search(page, 'Search guests', tag);
    const guest = page.getByTestId('guest-card');
    await expect(guest).toHaveCount(1);
    await expect(guest).toContainText(visitorName);
    await expect(guest).toContainText(`+91${visitorMobile}`);
    await expect(guest).toContainText(/Email\s*N\/A/);
    await expect(guest).toContainText(/Last Visit\s*\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const file = await download;
    const csv = await (await file.createReadStream()).toArray();
    const text = Buffer.concat(csv as Buffer[]).toString('utf8');
    expect(text).toContain(visitorName);
    expect(text).toContain(`+91${visitorMobile}`);
    expect(text.split(/\r?\n/).filter(Boolean)).toHaveLength(2);

    await search(page, 'Search guests', `${tag}-nobody`);
    await expect(
      page.getByText('No guests found for this organization matching your search.'),
    ).toBeVisible();
  },
);
