import {
  ORGANIZATION_MESSAGES,
  type Organization,
  type OrganizationList,
} from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  devices,
  media,
  organizationInvitations,
  organizationMembers,
  organizations,
  templateOrganizations,
  templates,
} from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { capture, createBooth, createTemplate } from '../media-fixtures.js';
import { expectError, PNG, useOrganizationsSuite } from './organizations-suite.js';

const M = ORGANIZATION_MESSAGES;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

describe.each(databaseTargets)('organizations CRUD on $name', ({ open }) => {
  const s = useOrganizationsSuite(open);
  const list = async (token: string, query: Record<string, string> = {}) => {
    const response = await s.app.inject({
      method: 'GET',
      url: '/api/enterprise/organizations',
      query,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<OrganizationList>();
  };

  it('creates an organization with trimmed fields, empty ones as null', async () => {
    const response = await s.call('POST', 'organizations', s.superUser.token, {
      name: '  Lakeside Arcade ',
      email: 'hi@lakeside.example',
      phone: '+91 80 4000 1234',
      address: '',
    });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json<Organization>();
    expect(created).toEqual({
      id: expect.any(Number),
      name: 'Lakeside Arcade',
      email: 'hi@lakeside.example',
      phone: '+91 80 4000 1234',
      address: null,
      created_at: expect.stringMatching(TIMESTAMP),
      logo_s3_url: null,
    });
    const read = await s.call('GET', `organizations/${created.id}`, s.productAdmin.token);
    expect(read.json()).toEqual(created);
  });

  it('refuses a missing name and a bad email with the spec messages', async () => {
    expectError(await s.call('POST', 'organizations', s.superUser.token, {}), 400, M.nameRequired);
    expectError(
      await s.call('POST', 'organizations', s.superUser.token, { name: '   ' }),
      400,
      M.nameRequired,
    );
    expectError(
      await s.call('POST', 'organizations', s.superUser.token, { name: 'X', email: 'nope' }),
      400,
      M.emailInvalid,
    );
    // A phone is checked as a phone, with its country code (issue 20 item 9).
    for (const phone of ['abc', '080 1234', '+91 80 4000 12ab']) {
      expectError(
        await s.call('POST', 'organizations', s.superUser.token, { name: 'X', phone }),
        400,
        'Please enter a valid phone number.',
      );
    }
    expectError(
      await s.call('POST', 'organizations', s.orgAdmin.token, { name: 'Mine' }),
      403,
      M.onlyPrivileged,
    );
  });

  it('lists all organizations by name for privileged staff, only their own for others', async () => {
    const all = await list(s.superUser.token, { limit: '200' });
    expect(all.items.map((org) => org.name)).toEqual(
      [...all.items.map((org) => org.name)].sort((a, b) =>
        a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0,
      ),
    );
    expect(all.items.map((org) => org.id)).toEqual(expect.arrayContaining([s.orgA, s.orgB]));
    expect(all.total_count).toBe(all.items.length);

    const mine = await list(s.member.token);
    expect(mine).toEqual({ items: [expect.objectContaining({ id: s.orgA })], total_count: 1 });
    expect((await list(s.outsider.token)).items.map((org) => org.id)).toEqual([s.orgB]);
    expect(await list(s.loner.token)).toEqual({ items: [], total_count: 0 });
  });

  it('searches name, email, phone and address and pages 10 at a time', async () => {
    const tag = `Pager${Date.now()}`;
    for (let i = 0; i < 12; i += 1) {
      await s.call('POST', 'organizations', s.superUser.token, {
        name: `${tag} ${String(i).padStart(2, '0')}`,
      });
    }
    const first = await list(s.superUser.token, { search: tag });
    expect(first.total_count).toBe(12);
    expect(first.items).toHaveLength(10);
    expect(first.items[0]!.name).toBe(`${tag} 00`);
    const second = await list(s.superUser.token, { search: tag.toLowerCase(), offset: '10' });
    expect(second.items.map((org) => org.name)).toEqual([`${tag} 10`, `${tag} 11`]);

    await s.call('POST', 'organizations', s.superUser.token, {
      name: 'Quiet Place',
      email: `${tag}@mail.example`,
    });
    expect((await list(s.superUser.token, { search: `${tag}@` })).items).toHaveLength(1);
    // Pattern characters are literal.
    expect((await list(s.superUser.token, { search: '%' })).total_count).toBe(0);
    // A member's search stays within their organizations.
    expect((await list(s.member.token, { search: tag })).total_count).toBe(0);
  });

  it('edits only the fields sent, and needs at least one', async () => {
    const orgId = await s.organization('Before');
    await s.addMember(orgId, s.orgAdmin.userId, 'admin');
    const response = await s.call('PATCH', `organizations/${orgId}`, s.orgAdmin.token, {
      name: ' After ',
      phone: '+91 80 1234 5678',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      name: 'After',
      phone: '+91 80 1234 5678',
      email: null,
    });
    expectError(
      await s.call('PATCH', `organizations/${orgId}`, s.orgAdmin.token, { phone: 'abc' }),
      400,
      'Please enter a valid phone number.',
    );
    const cleared = await s.call('PATCH', `organizations/${orgId}`, s.superUser.token, {
      phone: '',
    });
    expect(cleared.json()).toMatchObject({ name: 'After', phone: null });
    expectError(
      await s.call('PATCH', `organizations/${orgId}`, s.superUser.token, {}),
      400,
      M.noChanges,
    );
    expectError(
      await s.call('PATCH', `organizations/${orgId}`, s.superUser.token, { name: '' }),
      400,
      M.nameRequired,
    );
    expectError(
      await s.call('PATCH', `organizations/${orgId}`, s.superUser.token, { logo_key: 'x' }),
      400,
      'body: Unrecognized key: "logo_key"',
    );
    expectError(
      await s.call('PATCH', `organizations/${s.orgA}`, s.member.token, { name: 'Mine' }),
      403,
      M.onlyOrgAdmins,
    );
  });

  it("answers 404 for another organization's and unknown ids", async () => {
    expectError(await s.call('GET', `organizations/${s.orgB}`, s.member.token), 404, M.notFound);
    expectError(await s.call('GET', 'organizations/999999', s.superUser.token), 404, M.notFound);
    expectError(await s.call('DELETE', 'organizations/999999', s.superUser.token), 404, M.notFound);
    expect((await s.call('GET', 'organizations/abc', s.superUser.token)).statusCode).toBe(400);
  });

  it('deletes an organization: devices unlinked, people and invitations gone, templates kept, visitors keep their media', async () => {
    const db = s.database.db;
    const orgId = await s.organization('Closing Down');
    await s.addMember(orgId, s.member.userId, 'admin');
    await s.pendingInvitation(orgId, '+919811100000');
    const logoKey = `organizations/logos/${orgId}/00000000-0000-4000-8000-000000000000.png`;
    await s.storage.put(logoKey, PNG, 'image/png');
    expect(
      (
        await s.call('POST', `organizations/${orgId}/logo/confirm`, s.superUser.token, {
          logo_key: logoKey,
        })
      ).statusCode,
    ).toBe(200);
    const booth = await createBooth(db, s.link, { orgId });
    const templateId = await createTemplate(db, { orgIds: [orgId, s.orgA] });
    const captured = await capture(s.app, s.visitor.token, booth.id, templateId);
    expect(captured.statusCode, captured.body).toBe(200);
    const { media_ids: mediaIds } = captured.json<{ media_ids: number[] }>();

    // The API docs say what happens.
    const docs = s.app.swagger() as {
      paths: Record<string, Record<string, { description?: string }>>;
    };
    expect(docs.paths['/api/enterprise/organizations/{id}']!.delete!.description).toMatch(
      /unlinked.*Visitors keep their media/s,
    );

    const response = await s.call('DELETE', `organizations/${orgId}`, s.productAdmin.token);
    expect(response.statusCode, response.body).toBe(204);

    expect(await db.select().from(organizations).where(eq(organizations.id, orgId))).toEqual([]);
    const [device] = await db.select().from(devices).where(eq(devices.id, booth.id));
    expect(device).toMatchObject({ id: booth.id, orgId: null });
    expect(
      await db.select().from(organizationMembers).where(eq(organizationMembers.orgId, orgId)),
    ).toEqual([]);
    expect(
      await db
        .select()
        .from(organizationInvitations)
        .where(eq(organizationInvitations.orgId, orgId)),
    ).toEqual([]);
    const associations = await db
      .select({ orgId: templateOrganizations.orgId })
      .from(templateOrganizations)
      .where(eq(templateOrganizations.templateId, templateId));
    expect(associations).toEqual([{ orgId: s.orgA }]);
    expect(await db.select().from(templates).where(eq(templates.id, templateId))).toHaveLength(1);
    const kept = await db.select().from(media).where(eq(media.userId, s.visitor.userId));
    expect(kept.filter((row) => mediaIds.includes(row.id))).toEqual(
      mediaIds.map((id) => expect.objectContaining({ id, orgId: null, deviceId: booth.id })),
    );
    // The visitor still sees the photos; the stored logo is gone.
    const mine = await s.app.inject({
      method: 'GET',
      url: '/api/regular/media',
      headers: { authorization: `Bearer ${s.visitor.token}` },
    });
    expect(mine.json<{ items: { id: number }[] }>().items.map((item) => item.id)).toEqual(
      expect.arrayContaining(mediaIds),
    );
    expect(await s.storage.head(logoKey)).toBeNull();
    expectError(await s.call('GET', `organizations/${orgId}`, s.superUser.token), 404, M.notFound);
  });
});
