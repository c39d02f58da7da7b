import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { databaseTargets } from '../databases.js';
import { newPhone } from '../harness.js';
import {
  type OrganizationsSuite,
  type Person,
  PNG,
  useOrganizationsSuite,
} from './organizations-suite.js';

/**
 * The permission matrix of issue 10: every route of the organizations module, called by every
 * kind of caller, against an organization made fresh for each call (so a delete or a removal
 * never changes what the next row sees). The callers: a super user, a product admin, the
 * organization's admin and member, the admin of another organization, a staff member with no
 * organization but a pending invitation here (the invitee), a visitor's token and no token.
 */
const ACTORS = [
  'super user',
  'product admin',
  'org admin',
  'member',
  'other org staff',
  'invitee',
  'visitor',
  'no token',
] as const;
type Actor = (typeof ACTORS)[number];

/** One fresh organization: its admin and member are the suite's, plus what the routes act on. */
interface Target {
  orgId: number;
  /** A third member, whom the user routes read, change and remove. */
  subject: Person;
  /** The invitee's pending invitation. */
  inviteId: number;
  /** A real PNG already in the store under a logo key of this organization. */
  logoKey: string;
}

interface Route {
  name: string;
  call: (
    s: OrganizationsSuite,
    target: Target,
    token: string | undefined,
  ) => Promise<LightMyRequestResponse>;
  /** Expected status per caller, in the order of ACTORS. */
  expected: [number, number, number, number, number, number, number, number];
}

const ROUTES: Route[] = [
  {
    name: 'POST organizations',
    call: (s, _t, token) => s.call('POST', 'organizations', token, { name: 'New venue' }),
    expected: [201, 201, 403, 403, 403, 403, 401, 401],
  },
  {
    name: 'GET organizations',
    call: (s, _t, token) => s.call('GET', 'organizations', token),
    expected: [200, 200, 200, 200, 200, 200, 401, 401],
  },
  {
    name: 'GET organizations/{id}',
    call: (s, t, token) => s.call('GET', `organizations/${t.orgId}`, token),
    expected: [200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'PATCH organizations/{id}',
    call: (s, t, token) =>
      s.call('PATCH', `organizations/${t.orgId}`, token, { address: '1 New Road' }),
    expected: [200, 200, 200, 403, 404, 404, 401, 401],
  },
  {
    name: 'DELETE organizations/{id}',
    call: (s, t, token) => s.call('DELETE', `organizations/${t.orgId}`, token),
    expected: [204, 204, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'POST organizations/{id}/logo/presigned_upload',
    call: (s, t, token) =>
      s.call('POST', `organizations/${t.orgId}/logo/presigned_upload`, token, {
        filename: 'logo.png',
        contentType: 'image/png',
      }),
    expected: [200, 200, 200, 403, 404, 404, 401, 401],
  },
  {
    name: 'POST organizations/{id}/logo/confirm',
    call: (s, t, token) =>
      s.call('POST', `organizations/${t.orgId}/logo/confirm`, token, { logo_key: t.logoKey }),
    expected: [200, 200, 200, 403, 404, 404, 401, 401],
  },
  {
    name: 'GET organizations/{id}/users',
    call: (s, t, token) => s.call('GET', `organizations/${t.orgId}/users`, token),
    expected: [200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'GET organizations/{id}/users/{userId}',
    call: (s, t, token) =>
      s.call('GET', `organizations/${t.orgId}/users/${t.subject.userId}`, token),
    expected: [200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'PATCH organizations/{id}/users/{userId}',
    call: (s, t, token) =>
      s.call('PATCH', `organizations/${t.orgId}/users/${t.subject.userId}`, token, {
        role: 'admin',
      }),
    expected: [200, 200, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'DELETE organizations/{id}/users/{userId}',
    call: (s, t, token) =>
      s.call('DELETE', `organizations/${t.orgId}/users/${t.subject.userId}`, token),
    expected: [204, 204, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'GET users/self/invites',
    call: (s, _t, token) => s.call('GET', 'users/self/invites', token),
    expected: [200, 200, 200, 200, 200, 200, 401, 401],
  },
  {
    name: "GET users/{id}/invites (the invitee's)",
    call: (s, _t, token) => s.call('GET', `users/${s.loner.userId}/invites`, token),
    expected: [200, 200, 403, 403, 403, 200, 401, 401],
  },
  {
    name: 'POST organizations/{id}/invites',
    call: (s, t, token) =>
      s.call('POST', `organizations/${t.orgId}/invites`, token, {
        role: 'member',
        invitee_phone: newPhone(),
      }),
    expected: [201, 201, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'POST organizations/{id}/invites/accept',
    call: (s, t, token) => s.call('POST', `organizations/${t.orgId}/invites/accept`, token, {}),
    expected: [404, 404, 404, 404, 404, 200, 401, 401],
  },
  {
    name: 'POST organizations/{id}/invites/deny',
    call: (s, t, token) => s.call('POST', `organizations/${t.orgId}/invites/deny`, token, {}),
    expected: [404, 404, 404, 404, 404, 200, 401, 401],
  },
  {
    name: 'DELETE organizations/{id}/invites/{inviteId}',
    call: (s, t, token) =>
      s.call('DELETE', `organizations/${t.orgId}/invites/${t.inviteId}`, token),
    expected: [204, 204, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'GET organizations/{id}/guests',
    call: (s, t, token) => s.call('GET', `organizations/${t.orgId}/guests`, token),
    expected: [200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'GET organizations/{id}/guests/export.csv',
    call: (s, t, token) => s.call('GET', `organizations/${t.orgId}/guests/export.csv`, token),
    expected: [200, 200, 200, 403, 404, 404, 401, 401],
  },
];

const CASES = ROUTES.flatMap((route) =>
  ACTORS.map((actor, index) => ({
    route,
    actor,
    status: route.expected[index]!,
    label: `${route.name} as ${actor} → ${route.expected[index]}`,
  })),
);

describe.each(databaseTargets)('organizations permission matrix on $name', ({ open }) => {
  const s = useOrganizationsSuite(open);
  let subjectCounter = 0;
  const subjects: Person[] = [];

  const tokenOf = (actor: Actor): string | undefined =>
    ({
      'super user': s.superUser.token,
      'product admin': s.productAdmin.token,
      'org admin': s.orgAdmin.token,
      member: s.member.token,
      'other org staff': s.outsider.token,
      invitee: s.loner.token,
      visitor: s.visitor.token,
      'no token': undefined,
    })[actor];

  /** A fresh organization as the matrix needs it (one subject account reused per 8 rows). */
  async function target(index: number): Promise<Target> {
    const orgId = await s.organization(`Matrix venue ${index}`);
    await s.addMember(orgId, s.orgAdmin.userId, 'admin');
    await s.addMember(orgId, s.member.userId, 'member');
    if (subjects.length <= Math.floor(index / ACTORS.length)) {
      subjectCounter += 1;
      subjects.push(await s.staff(`Subject ${subjectCounter}`));
    }
    const subject = subjects[Math.floor(index / ACTORS.length)]!;
    await s.addMember(orgId, subject.userId, 'member');
    const inviteId = await s.pendingInvitation(orgId, s.loner.phone);
    const logoKey = `organizations/logos/${orgId}/${randomUUID()}.png`;
    await s.storage.put(logoKey, PNG, 'image/png');
    return { orgId, subject, inviteId, logoKey };
  }

  it('covers every route of the module (as the API docs list them)', () => {
    const document = s.app.swagger() as {
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => operation.tags?.includes('enterprise organizations'))
        .map(([method]) => `${method.toUpperCase()} ${path.replace('/api/enterprise/', '')}`),
    );
    const tested = ROUTES.map((route) =>
      route.name.replace(/ \(.*\)$/, '').replace('users/self/invites', 'users/{id}/invites'),
    );
    expect([...new Set(tested)].sort()).toEqual(documented.sort());
  });

  it.each(CASES.map((c, index) => ({ ...c, index })))(
    '$label',
    async ({ route, actor, status, index }) => {
      const response = await route.call(s, await target(index), tokenOf(actor));
      expect(response.statusCode, response.body).toBe(status);
      if (status >= 400) {
        expect(response.json()).toMatchObject({
          message: expect.any(String),
          code: expect.any(String),
        });
      }
    },
  );
});
