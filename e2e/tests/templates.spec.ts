import { expect, test, type APIRequestContext } from '@playwright/test';
import {
  newMobile,
  signInSeededStaff,
  signInThroughUi,
  staffApi,
  STAFF_PHONE,
  staffToken,
  uniqueTag,
} from './support';

/*
 * The template list and a template's organizations (staff.md section 2: Template list, Template
 * organizations). A super user creates a template, finds it, offers it to the demo organization
 * and withdraws it; the demo organization's admin sees neither Create nor Add nor Remove, and the
 * server refuses those calls from them too.
 */

const ORG_ADMIN_PHONE = '+919000000002';

async function deleteTemplate(request: APIRequestContext, id: number) {
  const response = await request.delete(`/api/enterprise/templates/${id}`, {
    headers: { Authorization: `Bearer ${await staffToken(request)}` },
  });
  expect([204, 404]).toContain(response.status());
}

test(
  'a super user creates a template, finds it and offers it to the demo organization',
  { tag: '@flow' },
  async ({ page, browser }) => {
    const name = `Strip ${uniqueTag()}`;
    const api = await staffApi(page.request);
    const orgId = await api.demoOrgId();
    const { name: orgName } = await api.call<{ name: string }>('get', `organizations/${orgId}`);
    await signInSeededStaff(page, STAFF_PHONE, '/enterprise/templates');
    await expect(page.getByRole('heading', { level: 1, name: 'Templates' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toHaveText(
      /Home.*Templates/,
    );

    // Create: portrait by default, disabled while the name is empty (or only spaces).
    await page.getByRole('button', { name: '+Create' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Template' });
    const create = dialog.getByRole('button', { name: 'Create' });
    await expect(dialog.getByLabel('Orientation')).toHaveValue('portrait');
    await expect(create).toBeDisabled();
    await dialog.getByLabel('Name').fill('   ');
    await expect(create).toBeDisabled();
    await dialog.getByLabel('Name').fill(`  ${name} `);
    await dialog.getByLabel('Orientation').selectOption('landscape');
    await create.click();
    await expect(dialog).toBeHidden();

    // Search runs on Enter; the new card has no sample yet and spans two columns (landscape).
    const box = page.getByRole('searchbox', { name: 'Search templates' });
    await box.fill(name);
    await box.press('Enter');
    const card = page.getByTestId('template-card');
    await expect(card).toHaveCount(1);
    await expect(card).toContainText(name);
    await expect(card).toContainText('No sample');
    await expect(card).toHaveAttribute('data-span', '2');
    const href = (await card.getAttribute('href'))!;
    const templateId = Number(href.split('/').pop());
    expect(href).toBe(`/enterprise/templates/${templateId}`);

    try {
      await page.goto(`${href}/orgs`);
      await expect(
        page.getByRole('heading', { level: 1, name: `${name} Organizations` }),
      ).toBeVisible();
      await expect(
        page.getByText('This template is not currently associated with any organizations.', {
          exact: false,
        }),
      ).toBeVisible();

      // +Add Organization: Associate needs an ID; the dialog trims it.
      await page.getByRole('button', { name: '+Add Organization' }).click();
      const add = page.getByRole('dialog', { name: 'Associate Template with an Organization' });
      await expect(add.getByRole('button', { name: 'Associate' })).toBeDisabled();
      await add.getByLabel('Organization ID').fill(` ${orgId} `);
      await add.getByRole('button', { name: 'Associate' }).click();
      await expect(add).toBeHidden();
      await expect(page.getByTestId('status-success')).toHaveText(
        `Template associated with organization "${orgId}".`,
      );
      const orgCard = page.getByTestId('template-org-card');
      await expect(orgCard).toHaveCount(1);
      await expect(orgCard).toContainText(orgName);
      await expect(orgCard).toContainText(`ID ${orgId}`);
      const offered = await api.call<{ items: { id: number }[] }>('get', `orgs/${orgId}/templates`);
      expect(offered.items.map((item) => item.id)).toContain(templateId);

      // A visitor at the demo organization's booth is offered it.
      const booths = await api.call<{
        items: { id: number; name: string; org_id: number | null }[];
      }>('get', 'devices?search=Demo%20Booth&limit=100');
      const booth = booths.items.find(
        (item) => item.name === 'Demo Booth' && item.org_id === orgId,
      );
      expect(booth, 'the seeded Demo Booth belongs to the demo organization').toBeTruthy();
      const visitorContext = await browser.newContext();
      try {
        const visitor = await visitorContext.newPage();
        await visitor.goto(`/regular/photobooths/${booth!.id}`);
        await signInThroughUi(visitor, 'regular', newMobile());
        await expect(visitor).toHaveURL(new RegExp(`/regular/photobooths/${booth!.id}$`));
        await visitor.getByRole('button', { name: "Yes, I'm Here" }).click();
        const search = visitor.getByRole('searchbox', { name: 'Search templates' });
        await search.fill(name);
        await search.press('Enter');
        await expect(visitor.getByText(name, { exact: true })).toBeVisible();
      } finally {
        await visitorContext.close();
      }

      // Remove asks first, then withdraws it.
      await orgCard.getByRole('button', { name: `Remove ${orgName}` }).click();
      const confirm = page.getByRole('dialog', { name: 'Confirm Removal' });
      await confirm.getByRole('button', { name: 'Remove' }).click();
      await expect(page.getByTestId('status-success')).toHaveText(
        `Template removed from organization "${orgName}".`,
      );
      await expect(orgCard).toHaveCount(0);
      const after = await api.call<{ items: { id: number }[] }>(
        'get',
        `templates/${templateId}/orgs`,
      );
      expect(after.items).toEqual([]);
    } finally {
      await deleteTemplate(page.request, templateId);
    }
  },
);

test(
  'an organization admin views templates without changing them, and the server agrees',
  { tag: '@flow' },
  async ({ page }) => {
    const name = `Viewed ${uniqueTag()}`;
    const api = await staffApi(page.request);
    const orgId = await api.demoOrgId();
    const templateId = await api.createTemplate(orgId, name, 'portrait');
    try {
      const token = await signInSeededStaff(page, ORG_ADMIN_PHONE, '/enterprise/templates');
      const box = page.getByRole('searchbox', { name: 'Search templates' });
      await box.fill(name);
      await box.press('Enter');
      await expect(page.getByTestId('template-card')).toContainText(name);
      await expect(page.getByTestId('template-card')).toHaveAttribute('data-span', '1');
      await expect(page.getByRole('button', { name: '+Create' })).toHaveCount(0);

      await page.goto(`/enterprise/templates/${templateId}/orgs`);
      await expect(page.getByTestId('template-org-card')).toHaveCount(1);
      await expect(page.getByRole('button', { name: '+Add Organization' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: /^Remove/ })).toHaveCount(0);

      const call = (method: 'post' | 'delete', path: string, data?: object) =>
        page.request[method](`/api/enterprise/${path}`, {
          headers: { Authorization: `Bearer ${token}` },
          data,
        });
      expect((await call('post', 'templates', { name: 'Not mine' })).status()).toBe(403);
      expect((await call('post', `templates/${templateId}/orgs`, { org_id: orgId })).status()).toBe(
        403,
      );
      expect((await call('delete', `templates/${templateId}/orgs/${orgId}`)).status()).toBe(403);
    } finally {
      await deleteTemplate(page.request, templateId);
    }
  },
);
