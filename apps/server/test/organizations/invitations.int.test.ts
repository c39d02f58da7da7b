import {
  ORGANIZATION_MESSAGES,
  type OrganizationInvitationList,
  type OrganizationUserList,
  type SentInvitation,
  type User,
} from '@flashbooth/contracts';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { organizationInvitations, organizationMembers } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { newPhone, signedIn } from '../harness.js';
import { expectError, type Person, useOrganizationsSuite } from './organizations-suite.js';

const M = ORGANIZATION_MESSAGES;

/** "+917123456789" as the Invite User dialog might send it: "+91-71234 56789". */
const typed = (phone: string) => `${phone.slice(0, 3)}-${phone.slice(3, 8)} ${phone.slice(8)}`;

describe.each(databaseTargets)('organization invitations on $name', ({ open }) => {
  // Three invitation SMS per phone in five minutes (sign-in codes are counted apart).
  const s = useOrganizationsSuite(open, {
    OTP_SEND_LIMIT_PER_PHONE: '3',
    OTP_SEND_WINDOW_SECONDS: '300',
  });

  const invite = (orgId: number, body: object, token = s.superUser.token) =>
    s.call('POST', `organizations/${orgId}/invites`, token, body);
  const invitesOf = async (person: Person, id: string | number = 'self') => {
    const response = await s.call('GET', `users/${id}/invites`, person.token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<OrganizationInvitationList>().items;
  };
  const usersOf = async (orgId: number, token = s.superUser.token, search?: string) => {
    const response = await s.app.inject({
      method: 'GET',
      url: `/api/enterprise/organizations/${orgId}/users`,
      query: search ? { search } : {},
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<OrganizationUserList>();
  };
  const memberships = (orgId: number, userId: number) =>
    s.database.db
      .select()
      .from(organizationMembers)
      .where(and(eq(organizationMembers.orgId, orgId), eq(organizationMembers.userId, userId)));

  it('invites a phone with no account yet, which sees it after signing up and joins by accepting', async () => {
    const orgId = await s.organization('Riverside Cinema');
    const phone = newPhone();
    const response = await invite(orgId, { role: ' ADMIN ', invitee_phone: typed(phone) });
    expect(response.statusCode, response.body).toBe(201);
    const sent = response.json<SentInvitation>();
    expect(sent).toEqual({
      PK: `invite-${sent.id}`,
      id: expect.any(Number),
      name: 'Riverside Cinema',
      invitee_name: null,
      invitee_phone: phone,
      role: 'admin',
      invited_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
      invited_by_name: 'Administrator',
      // INVITE_TTL_DAYS (14) after it was sent (test/privacy/nothing-outlives covers the expiry).
      expires_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
    });
    expect(await s.smsTo(phone)).toEqual([
      {
        text: 'Administrator invited you to join Riverside Cinema on Flashbooth as admin. Sign in at /enterprise/login',
        code: null,
        phone,
        created_at: expect.any(String),
      },
    ]);
    expect((await usersOf(orgId)).invites).toEqual([sent]);

    // The invitee signs up in the staff pool (the invitation SMS did not use up their codes).
    const invitee = await signedIn(s.app, 'enterprise', phone, 'Nina New');
    const [pending] = await invitesOf(invitee);
    expect(pending).toEqual({
      id: sent.id,
      org_id: orgId,
      org_name: 'Riverside Cinema',
      invited_by_name: 'Administrator',
      role: 'admin',
      invited_at: sent.invited_at,
      expires_at: sent.expires_at,
    });
    expect((await usersOf(orgId)).invites[0]).toMatchObject({ invitee_name: 'Nina New' });
    // Not a member yet: the organization itself is out of sight.
    expectError(await s.call('GET', `organizations/${orgId}`, invitee.token), 404, M.notFound);

    const accepted = await s.call('POST', `organizations/${orgId}/invites/accept`, invitee.token);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({
      id: sent.id,
      org_id: orgId,
      role: 'admin',
      status: 'accepted',
    });

    const self = (await s.call('GET', 'users/self', invitee.token)).json<User>();
    expect(self.organizations).toEqual([{ org_id: orgId, role: 'admin' }]);
    expect(await invitesOf(invitee)).toEqual([]);
    const users = await usersOf(orgId);
    expect(users.invites).toEqual([]);
    expect(users.items).toEqual([
      {
        id: invitee.userId,
        name: 'Nina New',
        role: 'admin',
        phone,
        joined_at: expect.any(String),
      },
    ]);
    // As the organization's admin now, they may edit it.
    expect(
      (await s.call('PATCH', `organizations/${orgId}`, invitee.token, { address: 'Ghat Road' }))
        .statusCode,
    ).toBe(200);

    // Answered: no pending invitation any more; by id it is "no longer pending".
    expectError(
      await s.call('POST', `organizations/${orgId}/invites/accept`, invitee.token),
      404,
      M.inviteNotFound,
    );
    expectError(
      await s.call('POST', `organizations/${orgId}/invites/deny`, invitee.token, {
        invite_id: sent.id,
      }),
      409,
      M.inviteNotPending,
    );
    // A member cannot be invited again.
    expectError(
      await invite(orgId, { role: 'member', invitee_phone: phone }),
      409,
      M.alreadyMember,
    );
  });

  it('refuses a second pending invitation for a phone, and invites again after a denial', async () => {
    const orgId = await s.organization('Fun Zone');
    const person = await s.staff('Dev Denier');
    expect((await invite(orgId, { role: 'member', invitee_phone: person.phone })).statusCode).toBe(
      201,
    );
    expectError(
      await invite(orgId, { role: 'admin', invitee_phone: typed(person.phone) }),
      409,
      M.alreadyInvited,
    );
    // Another organization may invite the same phone.
    expect((await invite(s.orgB, { role: 'member', invitee_phone: person.phone })).statusCode).toBe(
      201,
    );

    const [mine] = (await invitesOf(person)).filter((item) => item.org_id === orgId);
    const denied = await s.call('POST', `organizations/${orgId}/invites/deny`, person.token, {
      invite_id: mine!.id,
    });
    expect(denied.statusCode, denied.body).toBe(200);
    expect(denied.json()).toMatchObject({ id: mine!.id, status: 'denied', role: 'member' });
    expect(await memberships(orgId, person.userId)).toEqual([]);
    expect((await invitesOf(person)).map((item) => item.org_id)).toEqual([s.orgB]);
    const [row] = await s.database.db
      .select()
      .from(organizationInvitations)
      .where(eq(organizationInvitations.id, mine!.id));
    expect(row).toMatchObject({ status: 'denied', respondedAt: expect.any(Date) });

    expect((await invite(orgId, { role: 'admin', invitee_phone: person.phone })).statusCode).toBe(
      201,
    );
  });

  it('lets staff cancel a pending invitation, which the invitee then cannot answer', async () => {
    const orgId = await s.organization('Snow Park');
    const person = await s.staff('Chandra Cancelled');
    const sent = (
      await invite(orgId, { role: 'member', invitee_phone: person.phone })
    ).json<SentInvitation>();
    const cancel = await s.call(
      'DELETE',
      `organizations/${orgId}/invites/${sent.id}`,
      s.productAdmin.token,
    );
    expect(cancel.statusCode, cancel.body).toBe(204);
    expect(await invitesOf(person)).toEqual([]);
    expect((await usersOf(orgId)).invites).toEqual([]);
    expectError(
      await s.call('POST', `organizations/${orgId}/invites/accept`, person.token, {
        invite_id: sent.id,
      }),
      409,
      M.inviteNotPending,
    );
    expectError(
      await s.call('DELETE', `organizations/${orgId}/invites/${sent.id}`, s.superUser.token),
      409,
      M.inviteNotPending,
    );
    // An invitation is only reachable through its own organization.
    const other = (
      await invite(s.orgB, { role: 'member', invitee_phone: person.phone })
    ).json<SentInvitation>();
    expectError(
      await s.call('DELETE', `organizations/${orgId}/invites/${other.id}`, s.superUser.token),
      404,
      M.inviteNotFound,
    );
    expectError(
      await s.call('DELETE', `organizations/${orgId}/invites/999999`, s.superUser.token),
      404,
      M.inviteNotFound,
    );
  });

  it("never lets anyone answer another person's invitation", async () => {
    const orgId = await s.organization('Private Lounge');
    const invited = await s.staff('Ira Invited');
    const sent = (
      await invite(orgId, { role: 'admin', invitee_phone: invited.phone })
    ).json<SentInvitation>();
    for (const person of [s.superUser, s.loner]) {
      expectError(
        await s.call('POST', `organizations/${orgId}/invites/accept`, person.token, {
          invite_id: sent.id,
        }),
        404,
        M.inviteNotFound,
      );
    }
    // The invitee's id for the wrong organization, and an unknown organization.
    expectError(
      await s.call('POST', `organizations/${s.orgB}/invites/accept`, invited.token, {
        invite_id: sent.id,
      }),
      404,
      M.inviteNotFound,
    );
    expectError(
      await s.call('POST', 'organizations/999999/invites/accept', invited.token),
      404,
      M.notFound,
    );
    expect(
      (await s.call('POST', `organizations/${orgId}/invites/accept`, s.visitor.token)).statusCode,
    ).toBe(401);
    expect(await memberships(orgId, s.superUser.userId)).toEqual([]);
    expect((await invitesOf(invited)).map((item) => item.id)).toEqual([sent.id]);
    // Privileged staff may look at another person's invitations; others may not.
    expect((await invitesOf(s.superUser, invited.userId)).map((item) => item.id)).toEqual([
      sent.id,
    ]);
    expectError(
      await s.call('GET', `users/${invited.userId}/invites`, s.orgAdmin.token),
      403,
      M.onlyOwnInvites,
    );
    expectError(
      await s.call('GET', `users/${s.visitor.userId}/invites`, s.superUser.token),
      404,
      M.userNotFound,
    );
  });

  it('makes exactly one membership when the same invitation is accepted concurrently', async () => {
    const orgId = await s.organization('Race Track');
    const person = await s.staff('Rahul Racer');
    const sent = (
      await invite(orgId, { role: 'member', invitee_phone: person.phone })
    ).json<SentInvitation>();
    const responses = await Promise.all(
      Array.from({ length: 6 }, () =>
        s.call('POST', `organizations/${orgId}/invites/accept`, person.token, {
          invite_id: sent.id,
        }),
      ),
    );
    expect(responses.map((response) => response.statusCode).sort()).toEqual([
      200, 409, 409, 409, 409, 409,
    ]);
    expect(await memberships(orgId, person.userId)).toEqual([
      expect.objectContaining({ role: 'member' }),
    ]);

    // Accept and deny racing: one of them wins, and the state matches it.
    const orgId2 = await s.organization('Race Track 2');
    await invite(orgId2, { role: 'admin', invitee_phone: person.phone });
    const [accept, deny] = await Promise.all([
      s.call('POST', `organizations/${orgId2}/invites/accept`, person.token),
      s.call('POST', `organizations/${orgId2}/invites/deny`, person.token),
    ]);
    const won = [accept, deny].filter((response) => response.statusCode === 200);
    expect(won).toHaveLength(1);
    expect((await memberships(orgId2, person.userId)).length).toBe(
      accept.statusCode === 200 ? 1 : 0,
    );
  });

  it('checks the phone and role with the spec messages', async () => {
    const orgId = s.orgA;
    expectError(await invite(orgId, { role: 'member' }), 400, M.invitePhoneRequired);
    expectError(
      await invite(orgId, { role: 'member', invitee_phone: '+91-' }),
      400,
      M.invitePhoneInvalid,
    );
    expectError(
      await invite(orgId, { role: 'member', invitee_phone: ' - ' }),
      400,
      M.invitePhoneRequired,
    );
    expectError(await invite(orgId, { invitee_phone: newPhone() }), 400, M.roleRequired);
    expectError(
      await invite(orgId, { role: 'owner', invitee_phone: newPhone() }),
      400,
      M.roleInvalid,
    );
  });

  it('throttles invitation SMS per phone without ever refusing the invitation', async () => {
    const phone = newPhone();
    for (let i = 0; i < 4; i += 1) {
      const orgId = await s.organization(`Chain store ${i}`);
      expect((await invite(orgId, { role: 'member', invitee_phone: phone })).statusCode).toBe(201);
    }
    expect(await s.smsTo(phone)).toHaveLength(3);
    // Outside the window the next one goes out again.
    s.clock.advance(301);
    await invite(await s.organization('Chain store 4'), { role: 'member', invitee_phone: phone });
    expect(await s.smsTo(phone)).toHaveLength(4);
    // The person can still sign up: invitation SMS do not count against sign-in codes.
    const person = await signedIn(s.app, 'enterprise', phone, 'Popular Person');
    expect(await invitesOf(person)).toHaveLength(5);
  });

  it('keeps the invitation when the SMS fails, and sends none outside the SMS countries', async () => {
    const phone = newPhone();
    s.sms.failing = true;
    try {
      const response = await invite(s.orgA, { role: 'member', invitee_phone: phone });
      expect(response.statusCode, response.body).toBe(201);
    } finally {
      s.sms.failing = false;
    }
    expect(await s.smsTo(phone)).toEqual([]);
    expect((await usersOf(s.orgA, s.superUser.token, phone)).invites).toEqual([
      expect.objectContaining({ invitee_phone: phone }),
    ]);

    const abroad = '+14155550123';
    expect((await invite(s.orgA, { role: 'member', invitee_phone: abroad })).statusCode).toBe(201);
    expect(await s.smsTo(abroad)).toEqual([]);
  });
});
