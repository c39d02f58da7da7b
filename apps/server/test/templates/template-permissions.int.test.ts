import { TEMPLATE_MESSAGES } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { databaseTargets } from '../databases.js';
import { signedIn } from '../harness.js';
import { type TemplateBody, expectError, useTemplatesSuite } from './templates-suite.js';

/** Staff spec section 6 through the shared rules: everyone views, the privileged change. */
describe.each(databaseTargets)('template permissions on $name', ({ open }) => {
  const s = useTemplatesSuite(open);
  const { call, template } = s;

  it('lets staff of no organization read templates but see none of their organizations', async () => {
    const loner = (await signedIn(s.app, 'enterprise')).token;
    const tag = `Loner${Date.now()}`;
    const { id } = await template(`${tag} strip`);
    await call('POST', `templates/${id}/orgs`, s.superToken, { org_id: s.orgA });

    const list = await call('GET', `templates?search=${tag}`, loner);
    expect(list.statusCode).toBe(200);
    expect(list.json<{ items: TemplateBody[] }>().items.map((item) => item.id)).toEqual([id]);
    expect((await call('GET', `templates/${id}`, loner)).json()).toMatchObject({ id });
    expect((await call('GET', `templates/${id}/images`, loner)).json()).toEqual({ items: [] });
    expect((await call('GET', `templates/${id}/orgs`, loner)).json()).toEqual({ items: [] });
    expectError(
      await call('GET', `orgs/${s.orgA}/templates`, loner),
      404,
      TEMPLATE_MESSAGES.orgNotFound,
    );
  });

  it('refuses every change to non-privileged staff with the same message, changing nothing', async () => {
    const { id } = await template('Guarded');
    await call('POST', `templates/${id}/orgs`, s.superToken, { org_id: s.orgB });
    const slot = (
      await call('POST', `templates/${id}/images`, s.superToken, { x: 1, y: 2, w: 30, h: 20 })
    ).json<{ id: number }>();
    const before = (await call('GET', `templates/${id}`, s.superToken)).json();
    const attempts: [method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object][] = [
      ['POST', 'templates', { name: 'Mine' }],
      ['PATCH', `templates/${id}`, { name: 'Mine' }],
      ['POST', `templates/${id}/images`, { x: 0, y: 0, w: 10, h: 10 }],
      ['PATCH', `templates/${id}/images/${slot.id}`, { x: 9 }],
      ['DELETE', `templates/${id}/images/${slot.id}`],
      ['POST', `templates/${id}/orgs`, { org_id: s.orgB }],
      ['DELETE', `templates/${id}/orgs/${s.orgB}`],
      [
        'POST',
        `templates/${id}/sample/presigned_upload`,
        { filename: 'a.jpg', contentType: 'image/jpeg' },
      ],
      ['POST', `templates/${id}/foreground/confirm`, { foreground_key: 'x.png' }],
      ['DELETE', `templates/${id}`],
    ];
    // The organization's own admin (adminB) is no more allowed than a member of another one.
    for (const token of [s.adminB, s.memberA]) {
      for (const [method, url, payload] of attempts) {
        expectError(await call(method, url, token, payload), 403, TEMPLATE_MESSAGES.onlyPrivileged);
      }
    }
    expect((await call('GET', `templates/${id}`, s.superToken)).json()).toEqual(before);
    expect(
      (await call('GET', `templates/${id}/orgs`, s.adminB)).json<{ items: { id: number }[] }>()
        .items,
    ).toEqual([expect.objectContaining({ id: s.orgB })]);
  });

  it('withdraws a deleted template from its organizations', async () => {
    const { id } = await template('Short-lived');
    await call('POST', `templates/${id}/orgs`, s.productAdminToken, { org_id: s.orgA });
    const ids = async () =>
      (await call('GET', `orgs/${s.orgA}/templates`, s.memberA))
        .json<{ items: { id: number }[] }>()
        .items.map((item) => item.id);
    expect(await ids()).toContain(id);
    expect((await call('DELETE', `templates/${id}`, s.productAdminToken)).statusCode).toBe(204);
    expect(await ids()).not.toContain(id);
    expectError(
      await call('GET', `templates/${id}/orgs`, s.superToken),
      404,
      TEMPLATE_MESSAGES.notFound,
    );
  });
});
