import { TEMPLATE_MESSAGES } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { databaseTargets } from '../databases.js';
import { type TemplateBody, expectError, useTemplatesSuite } from './templates-suite.js';

describe.each(databaseTargets)('template organizations on $name', ({ open }) => {
  const s = useTemplatesSuite(open);
  const { call, template } = s;

  it('associates organizations (admins only) and shows members only their own', async () => {
    const { id } = await template('Festival');
    for (const payload of [{}, { org_id: '' }, { org_id: '  ' }, { org_id: null }]) {
      expectError(
        await call('POST', `templates/${id}/orgs`, s.superToken, payload),
        400,
        TEMPLATE_MESSAGES.orgIdRequired,
      );
    }
    expectError(
      await call('POST', `templates/${id}/orgs`, s.superToken, { org_id: 999999 }),
      404,
      TEMPLATE_MESSAGES.orgNotFound,
    );
    expect(
      (await call('POST', `templates/${id}/orgs`, s.memberA, { org_id: s.orgA })).statusCode,
    ).toBe(403);
    const added = await call('POST', `templates/${id}/orgs`, s.superToken, {
      org_id: ` ${s.orgA} `,
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ id: s.orgA, name: 'Sunrise Mall' });
    expect(
      (await call('POST', `templates/${id}/orgs`, s.superToken, { org_id: s.orgA })).statusCode,
    ).toBe(200);
    expect(
      (await call('POST', `templates/${id}/orgs`, s.productAdminToken, { org_id: s.orgB }))
        .statusCode,
    ).toBe(201);

    const all = (await call('GET', `templates/${id}/orgs`, s.superToken)).json<{
      items: { id: number; name: string; logo_s3_url: string | null }[];
    }>();
    expect(all.items.map((org) => org.id)).toEqual([s.orgA, s.orgB]);
    expect(all.items[0]!.logo_s3_url).toMatch(/^\/api\/storage\/objects\/logos\/sunrise\.png\?/);
    expect(all.items[1]).toEqual({ id: s.orgB, name: 'Harbour Café', logo_s3_url: null });
    const mine = (await call('GET', `templates/${id}/orgs`, s.memberA)).json<{
      items: { id: number }[];
    }>();
    expect(mine.items.map((org) => org.id)).toEqual([s.orgA]);
    expect((await call('GET', 'templates/999999/orgs', s.memberA)).statusCode).toBe(404);

    const ofA = await call('GET', `orgs/${s.orgA}/templates`, s.memberA);
    expect(ofA.statusCode).toBe(200);
    expect(ofA.json<{ items: TemplateBody[] }>().items.map((item) => item.id)).toContain(id);
    // Another organization's list is hidden from its non-members.
    expectError(
      await call('GET', `orgs/${s.orgB}/templates`, s.memberA),
      404,
      TEMPLATE_MESSAGES.orgNotFound,
    );
    expect((await call('GET', `orgs/${s.orgB}/templates`, s.adminB)).statusCode).toBe(200);
    expect((await call('GET', `orgs/${s.orgB}/templates`, s.superToken)).statusCode).toBe(200);
    expect((await call('GET', 'orgs/999999/templates', s.superToken)).statusCode).toBe(404);

    expect((await call('DELETE', `templates/${id}/orgs/${s.orgB}`, s.adminB)).statusCode).toBe(403);
    expect((await call('DELETE', `templates/${id}/orgs/${s.orgB}`, s.superToken)).statusCode).toBe(
      204,
    );
    expectError(
      await call('DELETE', `templates/${id}/orgs/${s.orgB}`, s.superToken),
      404,
      TEMPLATE_MESSAGES.notAssociated,
    );
    expect(
      (await call('GET', `orgs/${s.orgB}/templates`, s.adminB))
        .json<{ items: { id: number }[] }>()
        .items.map((item) => item.id),
    ).not.toContain(id);
  });
});
