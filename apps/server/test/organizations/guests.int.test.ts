import { randomUUID } from 'node:crypto';
import { ORGANIZATION_MESSAGES, type GuestList } from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { media, users } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { bearer, newPhone, signedIn } from '../harness.js';
import { capture, createBooth, createTemplate } from '../media-fixtures.js';
import { expectError, type Person, useOrganizationsSuite } from './organizations-suite.js';

const M = ORGANIZATION_MESSAGES;

describe.each(databaseTargets)('organization guests on $name', ({ open }) => {
  const s = useOrganizationsSuite(open);
  let venue: number;
  let other: number;
  let asha: Person;
  let ravi: Person;
  let zoe: Person;
  const captured: Record<string, string> = {};

  /** A visitor with a profile, and a capture at `booth` (a real capture through the API). */
  async function visitor(name: string, email: string | null) {
    const person = await signedIn(s.app, 'regular', newPhone(), name);
    if (email) {
      const patch = await s.app.inject({
        method: 'PATCH',
        url: '/api/regular/users/self',
        headers: bearer(person.token),
        payload: { email },
      });
      expect(patch.statusCode, patch.body).toBe(200);
    }
    return person;
  }

  async function captureAt(person: Person, booth: { id: number }, templateId: number) {
    const response = await capture(s.app, person.token, booth.id, templateId);
    expect(response.statusCode, response.body).toBe(200);
    const [id] = response.json<{ media_ids: number[] }>().media_ids;
    const [row] = await s.database.db.select().from(media).where(eq(media.id, id!));
    return row!.createdAt.toISOString().slice(0, 19);
  }

  beforeAll(async () => {
    const db = s.database.db;
    venue = await s.organization('Guest House');
    other = await s.organization('Other House');
    await s.addMember(venue, s.orgAdmin.userId, 'admin');
    await s.addMember(venue, s.member.userId, 'member');
    const booth = await createBooth(db, s.link, { orgId: venue });
    const otherBooth = await createBooth(db, s.link, { orgId: other });
    const templateId = await createTemplate(db, { orgIds: [venue, other] });

    asha = await visitor('Asha Rao', 'asha@example.in');
    ravi = await visitor('=cmd|calc', null);
    zoe = await visitor('Zoe, "Z" Café', 'zoe@example.in');
    await captureAt(asha, booth, templateId);
    s.clock.advance(60);
    captured.ravi = await captureAt(ravi, booth, templateId);
    s.clock.advance(60);
    // Asha comes back: one guest, the latest visit.
    captured.asha = await captureAt(asha, booth, templateId);
    await captureAt(zoe, otherBooth, templateId);
  }, 60_000);

  const guests = async (orgId: number, token: string, query: Record<string, string> = {}) => {
    const response = await s.app.inject({
      method: 'GET',
      url: `/api/enterprise/organizations/${orgId}/guests`,
      query,
      headers: bearer(token),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<GuestList>();
  };

  it('lists the visitors who captured at its booths, latest visit first', async () => {
    expect(await guests(venue, s.member.token)).toEqual({
      items: [
        {
          id: asha.userId,
          name: 'Asha Rao',
          email: 'asha@example.in',
          phone: asha.phone,
          last_visit: captured.asha,
        },
        {
          id: ravi.userId,
          name: '=cmd|calc',
          email: null,
          phone: ravi.phone,
          last_visit: captured.ravi,
        },
      ],
      total_count: 2,
      next_cursor: null,
    });
    expect((await guests(other, s.superUser.token)).items.map((guest) => guest.id)).toEqual([
      zoe.userId,
    ]);
  });

  it('searches name, phone and email, and pages', async () => {
    expect(
      (await guests(venue, s.orgAdmin.token, { search: 'rao' })).items.map((g) => g.id),
    ).toEqual([asha.userId]);
    expect(
      (await guests(venue, s.orgAdmin.token, { search: ravi.phone.slice(5) })).items.map(
        (g) => g.id,
      ),
    ).toEqual([ravi.userId]);
    expect(
      (await guests(venue, s.orgAdmin.token, { search: 'ASHA@EXAMPLE' })).items.map((g) => g.id),
    ).toEqual([asha.userId]);
    expect(await guests(venue, s.orgAdmin.token, { search: 'zoe' })).toEqual({
      items: [],
      total_count: 0,
      next_cursor: null,
    });
    const page = await guests(venue, s.orgAdmin.token, { limit: '1', offset: '1' });
    expect(page).toEqual({
      items: [expect.objectContaining({ id: ravi.userId })],
      total_count: 2,
      next_cursor: null,
    });
  });

  it('exports the guests as CSV for admins, with the same search', async () => {
    const response = await s.call(
      'GET',
      `organizations/${venue}/guests/export.csv`,
      s.orgAdmin.token,
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toContain('filename="guest-house-guests.csv"');
    const [first, second] = [asha, ravi].sort((a, b) => a.userId - b.userId);
    const line = (person: Person) =>
      person === asha
        ? `${asha.userId},Asha Rao,asha@example.in,${asha.phone},${captured.asha}`
        : `${ravi.userId},'=cmd|calc,,${ravi.phone},${captured.ravi}`;
    expect(response.rawPayload.toString('utf8')).toBe(
      `\uFEFFid,name,email,phone,last_visit\n${line(first!)}\n${line(second!)}\n`,
    );

    const searched = await s.app.inject({
      method: 'GET',
      url: `/api/enterprise/organizations/${other}/guests/export.csv`,
      query: { search: 'zoe@' },
      headers: bearer(s.superUser.token),
    });
    expect(searched.rawPayload.toString('utf8')).toBe(
      `\uFEFFid,name,email,phone,last_visit\n${zoe.userId},"Zoe, ""Z"" Café",zoe@example.in,${zoe.phone},${
        (await guests(other, s.superUser.token)).items[0]!.last_visit
      }\n`,
    );
    const empty = await s.app.inject({
      method: 'GET',
      url: `/api/enterprise/organizations/${venue}/guests/export.csv`,
      query: { search: 'nobody' },
      headers: bearer(s.superUser.token),
    });
    expect(empty.rawPayload.toString('utf8')).toBe('\uFEFFid,name,email,phone,last_visit\n');
  });

  it('exports more guests than one read batch, each once, in id order', async () => {
    const db = s.database.db;
    const stadium = await s.organization('Stadium');
    // 520 guests straight in the database (one media row each): more than the 500 read at once.
    const fans = await db
      .insert(users)
      .values(
        Array.from({ length: 520 }, (_, i) => ({
          pool: 'regular' as const,
          phone: `+9160${String(i).padStart(8, '0')}`,
          name: `Fan ${i}`,
        })),
      )
      .returning({ id: users.id });
    await db.insert(media).values(
      fans.map((fan) => ({
        userId: fan.id,
        orgId: stadium,
        captureId: randomUUID(),
        s3Key: `media/${fan.id}/${randomUUID()}.jpg`,
      })),
    );
    const response = await s.call(
      'GET',
      `organizations/${stadium}/guests/export.csv`,
      s.superUser.token,
    );
    expect(response.statusCode).toBe(200);
    const ids = response.rawPayload
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((line) => Number(line.split(',')[0]));
    expect(ids).toEqual(fans.map((fan) => fan.id).sort((a, b) => a - b));
    expect((await guests(stadium, s.superUser.token)).total_count).toBe(520);
  });

  it('keeps guests to members, and the export to admins', async () => {
    expectError(
      await s.call('GET', `organizations/${venue}/guests/export.csv`, s.member.token),
      403,
      M.onlyOrgAdmins,
    );
    expectError(
      await s.call('GET', `organizations/${venue}/guests`, s.outsider.token),
      404,
      M.notFound,
    );
    expectError(
      await s.call('GET', `organizations/${venue}/guests/export.csv`, s.outsider.token),
      404,
      M.notFound,
    );
  });
});
