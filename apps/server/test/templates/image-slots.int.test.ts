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
        x: 62,
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
      { x: 0, y: 0, w: 1, h: 1, filter: 'bw' },
      { x: 0.5, y: 0, w: 1, h: 1 },
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
      filter: 'grayscale',
    });
    expect(moved.json()).toMatchObject({ id: second.id, x: 62, y: 2325, filter: 'grayscale' });
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

  it("keeps every slot inside the template's canvas (issue 20, item 4)", async () => {
    const { id } = await template('Wide', 'landscape');
    const slots = () =>
      call('GET', `templates/${id}/images`, s.superToken).then(
        (response) => response.json<{ items: { id: number; w: number }[] }>().items,
      );
    // The case: w 99999 on the 3600 px wide canvas was saved and ran off it.
    expectError(
      await call('POST', `templates/${id}/images`, s.superToken, {
        x: 120,
        y: 80,
        w: 99999,
        h: 720,
      }),
      400,
      'Slot 1 runs off the 3600×2400 landscape canvas: x + w is 100119 and may be at most 3600. Move it left or make it narrower.',
    );
    expect(await slots()).toEqual([]);
    // Exactly on the edges is inside.
    const edge = await call('POST', `templates/${id}/images`, s.superToken, {
      x: 1980,
      y: 1320,
      w: 1620,
      h: 1080,
    });
    expect(edge.statusCode, edge.body).toBe(201);
    const second = await call('POST', `templates/${id}/images`, s.superToken, {
      x: 0,
      y: 0,
      w: 1620,
      h: 1080,
    });
    expect(second.statusCode).toBe(201);
    expectError(
      await call('POST', `templates/${id}/images`, s.superToken, {
        x: 0,
        y: 1700,
        w: 1080,
        h: 720,
      }),
      400,
      'Slot 3 runs off the 3600×2400 landscape canvas: y + h is 2420 and may be at most 2400. Move it up or make it shorter.',
    );
    // A change is checked with the slot's other stored numbers, and names the slot by its place.
    const secondId = second.json<{ id: number }>().id;
    expectError(
      await call('PATCH', `templates/${id}/images/${secondId}`, s.superToken, { x: 2000 }),
      400,
      'Slot 2 runs off the 3600×2400 landscape canvas: x + w is 3620 and may be at most 3600. Move it left or make it narrower.',
    );
    expect(
      (await call('PATCH', `templates/${id}/images/${secondId}`, s.superToken, { x: 1980 }))
        .statusCode,
    ).toBe(200);
    // Turning the template portrait (2400 wide) would leave its slots off the new canvas.
    expectError(
      await call('PATCH', `templates/${id}`, s.superToken, { orientation: 'portrait' }),
      400,
      'Slot 1 runs off the 2400×3600 portrait canvas: x + w is 3600 and may be at most 2400. Move it left or make it narrower.',
    );
    expect((await call('GET', `templates/${id}`, s.superToken)).json()).toMatchObject({
      orientation: 'landscape',
    });
    for (const slot of await slots()) {
      await call('PATCH', `templates/${id}/images/${slot.id}`, s.superToken, { x: 0, y: 0 });
    }
    expect(
      (await call('PATCH', `templates/${id}`, s.superToken, { orientation: 'portrait' }))
        .statusCode,
    ).toBe(200);
  });
});
