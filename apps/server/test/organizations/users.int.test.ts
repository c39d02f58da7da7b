import {
  ORGANIZATION_MESSAGES,
  type OrganizationUser,
  type OrganizationUserList,
  type User,
} from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { databaseTargets } from '../databases.js';
import { newPhone } from '../harness.js';
import { expectError, useOrganizationsSuite } from './organizations-suite.js';

const M = ORGANIZATION_MESSAGES;

describe.each(databaseTargets)('organization users on $name', ({ open }) => {
  const s = useOrganizationsSuite(open);

  const usersOf = async (orgId: number, token: string, query: Record<string, string> = {}) => {
    const response = await s.app.inject({
      method: 'GET',
      url: `/api/enterprise/organizations/${orgId}/users`,
      query,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<OrganizationUserList>();
  };

  it('lists members in joining order with their role, and the pending invitations', async () => {
    const orgId = await s.organization('Members Club');
    await s.addMember(orgId, s.orgAdmin.userId, 'admin');
    await s.addMember(orgId, s.member.userId, 'member');
    const invited = newPhone();
    await s.call('POST', `organizations/${orgId}/invites`, s.superUser.token, {
      role: 'member',
      invitee_phone: invited,
    });
    const body = await usersOf(orgId, s.member.token);
    expect(body).toEqual({
      items: [
        {
          id: s.orgAdmin.userId,
          name: 'Asha Admin',
          role: 'admin',
          phone: s.orgAdmin.phone,
          joined_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
        },
        expect.objectContaining({ id: s.member.userId, name: 'Meera Member', role: 'member' }),
      ],
      invites: [
        expect.objectContaining({
          invitee_phone: invited,
          invitee_name: null,
          role: 'member',
          name: 'Members Club',
          invited_by_name: 'Administrator',
        }),
      ],
      total_count: 2,
    });
  });

  it('searches members and invitations by name or phone and pages the members', async () => {
    const orgId = await s.organization('Big Team');
    const people = [];
    for (let i = 0; i < 12; i += 1) {
      const person = await s.staff(`Teammate ${String(i).padStart(2, '0')}`, orgId, 'member');
      people.push(person);
    }
    const first = await usersOf(orgId, s.superUser.token);
    expect(first.items).toHaveLength(10);
    expect(first.total_count).toBe(12);
    const second = await usersOf(orgId, s.superUser.token, { offset: '10' });
    expect(second.items.map((user) => user.name)).toEqual(['Teammate 10', 'Teammate 11']);

    const byName = await usersOf(orgId, s.superUser.token, { search: 'mate 07' });
    expect(byName.items.map((user) => user.id)).toEqual([people[7]!.userId]);
    const byPhone = await usersOf(orgId, s.superUser.token, { search: people[3]!.phone.slice(4) });
    expect(byPhone.items.map((user) => user.id)).toEqual([people[3]!.userId]);

    const invited = newPhone();
    await s.call('POST', `organizations/${orgId}/invites`, s.superUser.token, {
      role: 'admin',
      invitee_phone: invited,
    });
    const byInvitePhone = await usersOf(orgId, s.superUser.token, { search: invited.slice(3) });
    expect(byInvitePhone).toMatchObject({ items: [], total_count: 0 });
    expect(byInvitePhone.invites.map((invite) => invite.invitee_phone)).toEqual([invited]);
    expect((await usersOf(orgId, s.superUser.token, { search: 'Teammate' })).invites).toEqual([]);
  });

  it('reads one member; anyone else is "User not found."', async () => {
    const one = await s.call(
      'GET',
      `organizations/${s.orgA}/users/${s.member.userId}`,
      s.orgAdmin.token,
    );
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json<OrganizationUser>()).toMatchObject({ id: s.member.userId, role: 'member' });
    expectError(
      await s.call('GET', `organizations/${s.orgA}/users/${s.outsider.userId}`, s.superUser.token),
      404,
      M.userNotFound,
    );
  });

  it("changes a role (lower-cased), never the caller's own", async () => {
    const orgId = await s.organization('Promotions');
    const person = await s.staff('Pranav Promoted', orgId, 'member');
    const response = await s.call(
      'PATCH',
      `organizations/${orgId}/users/${person.userId}`,
      s.productAdmin.token,
      { role: 'Admin' },
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ id: person.userId, role: 'admin' });
    const self = (await s.call('GET', 'users/self', person.token)).json<User>();
    expect(self.organizations).toEqual([{ org_id: orgId, role: 'admin' }]);

    expectError(
      await s.call('PATCH', `organizations/${orgId}/users/${person.userId}`, s.superUser.token, {}),
      400,
      M.roleRequired,
    );
    expectError(
      await s.call('PATCH', `organizations/${orgId}/users/${person.userId}`, s.superUser.token, {
        role: 'boss',
      }),
      400,
      M.roleInvalid,
    );
    // A super user who is also a member cannot change their own role.
    await s.addMember(orgId, s.superUser.userId, 'admin');
    expectError(
      await s.call(
        'PATCH',
        `organizations/${orgId}/users/${s.superUser.userId}`,
        s.superUser.token,
        { role: 'member' },
      ),
      400,
      M.ownRole,
    );
    expectError(
      await s.call('PATCH', `organizations/${orgId}/users/${s.loner.userId}`, s.superUser.token, {
        role: 'member',
      }),
      404,
      M.userNotFound,
    );
  });

  it('removes a member, never the caller', async () => {
    const orgId = await s.organization('Farewells');
    const person = await s.staff('Rita Removed', orgId, 'admin');
    const removed = await s.call(
      'DELETE',
      `organizations/${orgId}/users/${person.userId}`,
      s.superUser.token,
    );
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await usersOf(orgId, s.superUser.token)).items).toEqual([]);
    expectError(await s.call('GET', `organizations/${orgId}`, person.token), 404, M.notFound);
    expectError(
      await s.call('DELETE', `organizations/${orgId}/users/${person.userId}`, s.superUser.token),
      404,
      M.userNotFound,
    );
    await s.addMember(orgId, s.productAdmin.userId, 'admin');
    expectError(
      await s.call(
        'DELETE',
        `organizations/${orgId}/users/${s.productAdmin.userId}`,
        s.productAdmin.token,
      ),
      400,
      M.removeSelf,
    );
  });
});
