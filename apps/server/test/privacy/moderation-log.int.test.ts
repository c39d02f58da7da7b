import type { ModerationLogPage } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { databaseTargets } from '../databases.js';
import { signedIn } from '../harness.js';
import { useOrganizationsSuite } from '../organizations/organizations-suite.js';
import { storedItem } from './privacy-fixtures.js';

describe.each(databaseTargets)('moderation log on $name', ({ open }) => {
  const s = useOrganizationsSuite(open);

  it('shows who hid and showed which item, and when, to those who moderate the organization', async () => {
    const owner = await signedIn(s.app, 'regular', undefined, 'Wall Owner');
    const item = await storedItem(s.database, s.storage, owner.userId, { orgId: s.orgA });
    const elsewhere = await storedItem(s.database, s.storage, owner.userId, { orgId: s.orgB });
    for (const [method, id, token] of [
      ['POST', item.id, s.orgAdmin.token],
      ['DELETE', item.id, s.superUser.token],
      ['POST', elsewhere.id, s.outsider.token],
    ] as const) {
      const response = await s.call(method, `media/${id}/hide`, token);
      expect(response.statusCode, response.body).toBeLessThan(300);
    }

    const log = await s.call('GET', `organizations/${s.orgA}/moderation-log`, s.orgAdmin.token);
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json<ModerationLogPage>()).toEqual({
      items: [
        expect.objectContaining({
          action: 'show_media',
          media_id: item.id,
          actor_id: s.superUser.userId,
          actor_name: 'Administrator',
          created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
        }),
        expect.objectContaining({
          action: 'hide_media',
          media_id: item.id,
          actor_id: s.orgAdmin.userId,
          actor_name: 'Asha Admin',
          comment_id: null,
        }),
      ],
      total_count: 2,
    });
    // Paged.
    const second = await s.call(
      'GET',
      `organizations/${s.orgA}/moderation-log?limit=1&offset=1`,
      s.superUser.token,
    );
    expect(second.json<ModerationLogPage>().items.map((entry) => entry.action)).toEqual([
      'hide_media',
    ]);
    // A member may not moderate: 403; another organization's admin does not see it: 404.
    expect(
      (await s.call('GET', `organizations/${s.orgA}/moderation-log`, s.member.token)).statusCode,
    ).toBe(403);
    expect(
      (await s.call('GET', `organizations/${s.orgA}/moderation-log`, s.outsider.token)).statusCode,
    ).toBe(404);
    // The other organization's log holds only its own item.
    const other = await s.call('GET', `organizations/${s.orgB}/moderation-log`, s.outsider.token);
    expect(other.json<ModerationLogPage>().items.map((entry) => entry.media_id)).toEqual([
      elsewhere.id,
    ]);
  });
});
