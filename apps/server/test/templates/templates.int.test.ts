import { TEMPLATE_MESSAGES } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { databaseTargets } from '../databases.js';
import { type TemplateBody, expectError, useTemplatesSuite } from './templates-suite.js';

describe.each(databaseTargets)('templates API on $name', ({ open }) => {
  const s = useTemplatesSuite(open);
  const { call, template } = s;

  it('creates templates for super users and product admins only', async () => {
    const created = await call('POST', 'templates', s.superToken, { name: '  Wedding  ' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      id: expect.any(Number),
      name: 'Wedding',
      orientation: 'portrait',
      is_cut: false,
      is_duplicated: false,
      sample_s3_url: null,
      foreground_s3_url: null,
      images: [],
      // A new template takes photos; its motion settings wait at their defaults.
      capture_kind: 'photo',
      motion_frames: 4,
      motion_seconds: 5,
      motion_speed: 1,
      motion_prints: true,
    });
    const landscape = await call('POST', 'templates', s.productAdminToken, {
      name: 'Wide',
      orientation: 'landscape',
    });
    expect(landscape.json()).toMatchObject({ name: 'Wide', orientation: 'landscape' });

    expect((await call('POST', 'templates', s.memberA, { name: 'Mine' })).statusCode).toBe(403);
    expect((await call('POST', 'templates', s.adminB, { name: 'Mine' })).statusCode).toBe(403);
    expect((await call('POST', 'templates', s.visitor, { name: 'Mine' })).statusCode).toBe(401);
    expect(
      (await s.app.inject({ method: 'GET', url: '/api/enterprise/templates' })).statusCode,
    ).toBe(401);
  });

  it.each([
    [{ name: '   ' }, TEMPLATE_MESSAGES.nameRequired],
    [{}, TEMPLATE_MESSAGES.nameRequired],
    [{ name: null }, TEMPLATE_MESSAGES.nameRequired],
  ])('refuses the new template %o with the spec message', async (payload, message) => {
    const response = await call('POST', 'templates', s.superToken, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message, code: 'validation_error' });
  });

  it('refuses an unknown orientation', async () => {
    const response = await call('POST', 'templates', s.superToken, {
      name: 'X',
      orientation: 'square',
    });
    expect(response.statusCode).toBe(400);
  });

  it('lets every staff member read and search templates, with offset paging', async () => {
    const tag = `Gala${Date.now()}`;
    const made = [];
    for (let index = 0; index < 3; index += 1) made.push(await template(`${tag} ${index}`));
    const search = await call('GET', `templates?search=${tag.toLowerCase()}`, s.memberA);
    expect(search.statusCode).toBe(200);
    const body = search.json<{ items: TemplateBody[]; total_count: number }>();
    expect(body.total_count).toBe(3);
    // Newest first.
    expect(body.items.map((item) => item.id)).toEqual(made.map((item) => item.id).reverse());
    const second = (await call('GET', `templates?search=${tag}&limit=1&offset=1`, s.adminB)).json<{
      items: TemplateBody[];
      total_count: number;
    }>();
    expect(second).toMatchObject({ total_count: 3 });
    expect(second.items.map((item) => item.id)).toEqual([made[1]!.id]);
    expect((await call('GET', 'templates?search=%25', s.memberA)).json()).toMatchObject({
      items: [],
      total_count: 0,
    });
    const all = (await call('GET', 'templates', s.memberA)).json<{ items: unknown[] }>();
    expect(all.items.length).toBeLessThanOrEqual(10);

    const read = await call('GET', `templates/${made[0]!.id}`, s.memberA);
    expect(read.json()).toMatchObject({ id: made[0]!.id, name: `${tag} 0` });
    expectError(
      await call('GET', 'templates/999999', s.superToken),
      404,
      TEMPLATE_MESSAGES.notFound,
    );
  });

  it('changes a template’s fields (admins only) with the spec’s messages', async () => {
    const { id } = await template('Before');
    expect((await call('PATCH', `templates/${id}`, s.memberA, { name: 'X' })).statusCode).toBe(403);
    const renamed = await call('PATCH', `templates/${id}`, s.superToken, { name: '  After ' });
    expect(renamed.json()).toMatchObject({ name: 'After', orientation: 'portrait' });
    const flags = await call('PATCH', `templates/${id}`, s.productAdminToken, {
      orientation: 'landscape',
      is_cut: true,
      is_duplicated: true,
    });
    expect(flags.json()).toMatchObject({
      name: 'After',
      orientation: 'landscape',
      is_cut: true,
      is_duplicated: true,
    });
    expectError(
      await call('PATCH', `templates/${id}`, s.superToken, { name: '  ' }),
      400,
      TEMPLATE_MESSAGES.nameEmpty,
    );
    expectError(
      await call('PATCH', `templates/${id}`, s.superToken, {}),
      400,
      TEMPLATE_MESSAGES.noChanges,
    );
    expect(
      (await call('PATCH', `templates/${id}`, s.superToken, { sample_key: 'x' })).statusCode,
    ).toBe(400);
    expect(
      (await call('PATCH', `templates/${id}`, s.superToken, { is_cut: 'yes' })).statusCode,
    ).toBe(400);
    expectError(
      await call('PATCH', 'templates/999999', s.superToken, { name: 'Y' }),
      404,
      TEMPLATE_MESSAGES.notFound,
    );
  });

  it('deletes templates (admins only)', async () => {
    const { id } = await template('Short-lived');
    expect((await call('DELETE', `templates/${id}`, s.memberA)).statusCode).toBe(403);
    expect((await call('DELETE', `templates/${id}`, s.superToken)).statusCode).toBe(204);
    expect((await call('GET', `templates/${id}`, s.superToken)).statusCode).toBe(404);
    expect((await call('DELETE', `templates/${id}`, s.superToken)).statusCode).toBe(404);
  });
});
