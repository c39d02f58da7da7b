import { DEVICE_MESSAGES } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { organizations } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { expectError, useTemplatesSuite } from './templates-suite.js';

describe.each(databaseTargets)('templates of a booth for visitors on $name', ({ open }) => {
  const s = useTemplatesSuite(open);
  const { call, template, device } = s;

  it('lists a booth’s templates to visitors with cursor paging and search', async () => {
    const [orgC] = (
      await s.database.db
        .insert(organizations)
        .values({ name: 'Pier Arcade' })
        .returning({ id: organizations.id })
    ).map((row) => row.id) as [number];
    const booth = await device(orgC);
    const ids: number[] = [];
    for (let index = 1; index <= 11; index += 1) {
      const made = await template(index % 3 === 0 ? `Birthday ${index}` : `Party ${index}`);
      expect(
        (await call('POST', `templates/${made.id}/orgs`, s.superToken, { org_id: orgC }))
          .statusCode,
      ).toBe(201);
      ids.push(made.id);
    }
    await template('Not offered here');
    await call('PATCH', `templates/${ids[0]}`, s.superToken, { is_cut: true });

    const list = (query = '', token = s.visitor) =>
      call('GET', `devices/${booth}/templates${query}`, token, undefined, 'regular');

    const first = await list();
    expect(first.statusCode).toBe(200);
    const page1 = first.json<{
      items: Record<string, unknown>[];
      last_evaluated_key: string | null;
    }>();
    expect(page1.items.map((item) => item.id)).toEqual(ids.slice(0, 9));
    expect(page1.items[0]).toEqual({
      id: ids[0],
      name: 'Party 1',
      orientation: 'portrait',
      sample_s3_url: null,
      is_cut: true,
      is_duplicated: false,
      capture_kind: 'photo',
      motion_prints: true,
    });
    expect(page1.last_evaluated_key).toEqual(expect.any(String));
    const page2 = (await list(`?last_evaluated_key=${page1.last_evaluated_key}`)).json<{
      items: { id: number }[];
      last_evaluated_key: string | null;
    }>();
    expect(page2.items.map((item) => item.id)).toEqual(ids.slice(9));
    expect(page2.last_evaluated_key).toBeNull();

    // Exactly one page full: no further key.
    const byFour = (await list('?limit=4&search=birthday')).json<{
      items: { id: number; name: string }[];
      last_evaluated_key: string | null;
    }>();
    expect(byFour.items.map((item) => item.name)).toEqual([
      'Birthday 3',
      'Birthday 6',
      'Birthday 9',
    ]);
    expect(byFour.last_evaluated_key).toBeNull();
    const byTwo = (await list('?limit=2&search=BIRTH')).json<{
      items: { id: number }[];
      last_evaluated_key: string | null;
    }>();
    expect(byTwo.items.map((item) => item.id)).toEqual([ids[2], ids[5]]);
    const rest = (
      await list(`?limit=2&search=birth&last_evaluated_key=${byTwo.last_evaluated_key}`)
    ).json<{ items: { id: number }[]; last_evaluated_key: string | null }>();
    expect(rest).toEqual({
      items: [expect.objectContaining({ id: ids[8] })],
      last_evaluated_key: null,
    });
    // Empty parameters count as absent.
    expect(
      (await list('?search=&last_evaluated_key=')).json<{ items: unknown[] }>().items,
    ).toHaveLength(9);

    for (const bad of ['abc!', 'MA', Buffer.from('-1').toString('base64url'), 'x'.repeat(101)]) {
      expect((await list(`?last_evaluated_key=${bad}`)).statusCode, bad).toBe(400);
    }
    for (const limit of ['0', '51', 'many']) {
      expect((await list(`?limit=${limit}`)).statusCode, limit).toBe(400);
    }

    const unlinked = await device(null);
    for (const id of [unlinked, 999999]) {
      expectError(
        await call('GET', `devices/${id}/templates`, s.visitor, undefined, 'regular'),
        404,
        DEVICE_MESSAGES.notFound,
      );
    }
    expect(
      (await call('GET', 'devices/abc/templates', s.visitor, undefined, 'regular')).statusCode,
    ).toBe(400);
    // A staff token is refused by the visitor API, and the call needs a session.
    expect((await list('', s.superToken)).statusCode).toBe(401);
    expect(
      (await s.app.inject({ method: 'GET', url: `/api/regular/devices/${booth}/templates` }))
        .statusCode,
    ).toBe(401);
    // The staff API has no such route.
    expect((await call('GET', `devices/${booth}/templates`, s.superToken)).statusCode).toBe(404);
  });
});
