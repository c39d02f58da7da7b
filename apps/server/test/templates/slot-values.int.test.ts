import { describe, expect, it } from 'vitest';
import { databaseTargets } from '../databases.js';
import { type TemplateBody, expectError, useTemplatesSuite } from './templates-suite.js';

/*
 * Issue 38, item 2: the template API stores only what the console can produce — slot
 * coordinates in whole pixels and a filter a booth applies.
 */

const FILTER_MESSAGE =
  'Filter must be one of: none, grayscale, sepia, warm, cool, vintage, high-contrast.';

describe.each(databaseTargets)('template slot values on $name', ({ open }) => {
  const s = useTemplatesSuite(open);
  const { call, template } = s;
  const slot = { x: 61, y: 555, w: 1080, h: 720 };

  it('refuses unknown filters and coordinates that are not whole pixels', async () => {
    const { id } = await template('Strict slots', 'portrait');
    const add = (body: object) => call('POST', `templates/${id}/images`, s.superToken, body);

    // The two cases.
    expectError(await add({ ...slot, filter: 'bogus' }), 400, FILTER_MESSAGE);
    expectError(await add({ ...slot, x: 1.5 }), 400, 'x must be a whole number of pixels.');
    expectError(await add({ ...slot, y: 0.25 }), 400, 'y must be a whole number of pixels.');
    expectError(await add({ ...slot, w: 1080.5 }), 400, 'w must be a whole number of pixels.');
    expectError(await add({ ...slot, h: 719.9 }), 400, 'h must be a whole number of pixels.');
    expect(
      (await call('GET', `templates/${id}`, s.superToken)).json<TemplateBody>().images,
    ).toEqual([]);

    // Every known filter is taken, written as the select writes it or with other case and spaces.
    const added = await add({ ...slot, filter: ' High-Contrast ' });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({ ...slot, filter: 'high-contrast' });
    const imageId = added.json<{ id: number }>().id;

    const patch = (body: object) =>
      call('PATCH', `templates/${id}/images/${imageId}`, s.superToken, body);
    expectError(await patch({ filter: 'bogus' }), 400, FILTER_MESSAGE);
    expectError(await patch({ x: 1.5 }), 400, 'x must be a whole number of pixels.');
    for (const filter of ['none', 'grayscale', 'sepia', 'warm', 'cool', 'vintage']) {
      const changed = await patch({ filter });
      expect(changed.statusCode, filter).toBe(200);
      expect(changed.json()).toMatchObject({ filter });
    }
    const moved = await patch({ x: 100, y: 600 });
    expect(moved.json()).toMatchObject({ x: 100, y: 600, filter: 'vintage' });
  });
});
