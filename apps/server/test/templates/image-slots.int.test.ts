import { TEMPLATE_MESSAGES } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { databaseTargets } from '../databases.js';
import { type TemplateBody, expectError, useTemplatesSuite } from './templates-suite.js';

describe.each(databaseTargets)('template image slots on $name', ({ open }) => {
  const s = useTemplatesSuite(open);
  const { call, template } = s;

  it('manages image slots: defaults, validation, order, ownership and permissions', async () => {
    const { id } = await template('Three up');
    const other = await template('Other');
    const first = await call('POST', `templates/${id}/images`, s.superToken, {
      x: 61,
      y: 555,
      w: 1080,
      h: 720,
    });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({
      id: expect.any(Number),
      x: 61,
      y: 555,
      w: 1080,
      h: 720,
      filter: 'none',
    });
    const second = (
      await call('POST', `templates/${id}/images`, s.productAdminToken, {
        x: 61.5,
        y: 1440,
        w: 1080,
        h: 720,
        filter: 'sepia',
      })
    ).json<{ id: number }>();

    for (const payload of [
      { x: -1, y: 0, w: 1, h: 1 },
      { x: 0, y: 0, w: 0, h: 1 },
      { x: 0, y: 0, w: 1, h: -2 },
      { x: 'a', y: 0, w: 1, h: 1 },
      { y: 0, w: 1, h: 1 },
      { x: 0, y: 0, w: 1, h: 1, filter: '  ' },
    ]) {
      const response = await call('POST', `templates/${id}/images`, s.superToken, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'validation_error' });
    }
    expect(
      (await call('POST', `templates/${id}/images`, s.memberA, { x: 0, y: 0, w: 1, h: 1 }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call('POST', 'templates/999999/images', s.superToken, { x: 0, y: 0, w: 1, h: 1 }))
        .statusCode,
    ).toBe(404);

    const listed = await call('GET', `templates/${id}/images`, s.memberA);
    expect(listed.json<{ items: { id: number }[] }>().items.map((item) => item.id)).toEqual([
      first.json<{ id: number }>().id,
      second.id,
    ]);
    const withImages = (await call('GET', `templates/${id}`, s.memberA)).json<TemplateBody>();
    expect(withImages.images).toEqual(listed.json<{ items: unknown[] }>().items);

    const moved = await call('PATCH', `templates/${id}/images/${second.id}`, s.superToken, {
      y: 2325,
      filter: 'bw',
    });
    expect(moved.json()).toMatchObject({ id: second.id, x: 61.5, y: 2325, filter: 'bw' });
    expectError(
      await call('PATCH', `templates/${id}/images/${second.id}`, s.superToken, {}),
      400,
      TEMPLATE_MESSAGES.noChanges,
    );
    expect(
      (await call('PATCH', `templates/${id}/images/${second.id}`, s.memberA, { y: 1 })).statusCode,
    ).toBe(403);
    // A slot is reached only through its own template.
    expectError(
      await call('PATCH', `templates/${other.id}/images/${second.id}`, s.superToken, { y: 1 }),
      404,
      TEMPLATE_MESSAGES.imageNotFound,
    );
    expect(
      (await call('DELETE', `templates/${other.id}/images/${second.id}`, s.superToken)).statusCode,
    ).toBe(404);
    expect(
      (await call('DELETE', `templates/${id}/images/${second.id}`, s.memberA)).statusCode,
    ).toBe(403);
    expect(
      (await call('DELETE', `templates/${id}/images/${second.id}`, s.superToken)).statusCode,
    ).toBe(204);
    expect(
      (await call('GET', `templates/${id}/images`, s.superToken)).json<{ items: unknown[] }>()
        .items,
    ).toHaveLength(1);
  });
});
