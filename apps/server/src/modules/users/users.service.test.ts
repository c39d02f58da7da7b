import type { ProfilePatch } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import {
  expectAppError,
  type Outcome,
  outcomeOf,
  people,
  STAFF_ROLES,
  type StaffRole,
} from '../../../test/unit-fakes.js';
import { isPrivileged } from './users.service.js';

/** A profile change of the name only (the other fields left as they are). */
const rename = (name: string): ProfilePatch => ({
  name,
  email: undefined,
  dob: undefined,
  gender: undefined,
});

describe('privileged staff (super users and product admins)', () => {
  it('are exactly the super users and the product admins', () => {
    const flags = (isSuperUser: boolean, isFlashboothAdmin: boolean) =>
      isPrivileged({ isSuperUser, isFlashboothAdmin });
    expect(flags(true, false)).toBe(true);
    expect(flags(false, true)).toBe(true);
    expect(flags(true, true)).toBe(true);
    expect(flags(false, false)).toBe(false);
  });

  it.each(STAFF_ROLES)('privilegedCaller lets a %s through only when privileged', async (role) => {
    const { users, claims, rows } = people();
    const privileged = role === 'super user' || role === 'product admin';
    const call = users.privilegedCaller(claims[role], 'Only admins.');
    if (privileged) await expect(call).resolves.toEqual(rows[role]);
    else await expectAppError(call, 'forbidden', 'Only admins.');
  });
});

describe('the caller', () => {
  it('is refused when the account is gone or belongs to the other pool', async () => {
    const { users, rows } = people();
    await expectAppError(users.caller({ userId: 999, pool: 'enterprise' }), 'unauthorized');
    await expectAppError(
      users.caller({ userId: rows.visitor.id, pool: 'enterprise' }),
      'unauthorized',
    );
    await expectAppError(users.caller({ userId: rows.member.id, pool: 'regular' }), 'unauthorized');
    await expect(users.caller({ userId: rows.member.id, pool: 'enterprise' })).resolves.toBe(
      rows.member,
    );
  });

  it('is looked up once for all the requests that ask together, each answered as alone', async () => {
    const { users, repository, rows, claims } = people();
    const asked: number[][] = [];
    const findByIds = repository.findByIds.bind(repository);
    repository.findByIds = async (ids: number[]) => {
      asked.push(ids);
      return findByIds(ids);
    };
    const together = await Promise.allSettled([
      users.caller(claims.visitor),
      users.caller(claims.member),
      users.caller({ userId: 999, pool: 'regular' }),
      users.caller({ userId: rows.visitor.id, pool: 'enterprise' }),
      users.caller(claims.visitor),
    ]);
    expect(asked).toHaveLength(1);
    expect(together.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
    expect(together[1]).toEqual({ status: 'fulfilled', value: rows.member });
    // A later ask is a batch of its own, and sees a change made in between.
    repository.rows.delete(rows.visitor.id);
    await expectAppError(users.caller(claims.visitor), 'unauthorized');
    expect(asked).toHaveLength(2);
  });
});

describe('users/{id}: who may read and change whose profile', () => {
  /** Reading and changing another staff account. */
  const otherStaff: Record<StaffRole, { read: Outcome; write: Outcome }> = {
    'super user': { read: 'ok', write: 'ok' },
    'product admin': { read: 'ok', write: 'forbidden' },
    'org admin': { read: 'forbidden', write: 'forbidden' },
    member: { read: 'forbidden', write: 'forbidden' },
    outsider: { read: 'forbidden', write: 'forbidden' },
  };

  it.each(STAFF_ROLES)("a %s reading and changing a colleague's record", async (role) => {
    const { users, claims, repository } = people();
    const target = repository.add({ pool: 'enterprise' }).id;
    expect(await outcomeOf(() => users.get(claims[role], target))).toBe(otherStaff[role].read);
    expect(await outcomeOf(() => users.patch(claims[role], target, rename('Renamed')))).toBe(
      otherStaff[role].write,
    );
  });

  it('lets everyone read and change their own record as self', async () => {
    const { users, claims, rows } = people();
    for (const role of [...STAFF_ROLES, 'visitor'] as const) {
      expect((await users.get(claims[role], 'self')).id).toBe(rows[role].id);
      expect((await users.patch(claims[role], 'self', rename(`New ${role}`))).name).toBe(
        `New ${role}`,
      );
    }
  });

  it('keeps visitors to themselves, even for other visitors', async () => {
    const { users, claims, repository } = people();
    const other = repository.add({ pool: 'regular' });
    await expectAppError(users.get(claims.visitor, other.id), 'forbidden');
    await expectAppError(users.patch(claims.visitor, other.id, rename('x')), 'forbidden');
  });

  it('finds no accounts of the other pool, and no unknown ones (404)', async () => {
    const { users, claims, rows } = people();
    await expectAppError(users.get(claims['super user'], rows.visitor.id), 'not_found');
    await expectAppError(
      users.patch(claims['super user'], rows.visitor.id, rename('x')),
      'not_found',
    );
    await expectAppError(users.get(claims['product admin'], 999), 'not_found');
  });
});

describe('the User entity', () => {
  it('carries credits for visitors and organizations for staff, never both', async () => {
    const { users, claims, repository, rows } = people();
    await repository.update(rows.visitor.id, { creditsPaise: 12_345 });
    const visitor = await users.get(claims.visitor, 'self');
    expect(visitor).toMatchObject({ type: 'regular', credits_rupees: 123.45 });
    expect(visitor).not.toHaveProperty('organizations');
    const admin = await users.get(claims['org admin'], 'self');
    expect(admin).toMatchObject({
      type: 'enterprise',
      organizations: [{ org_id: 1, role: 'admin' }],
    });
    expect(admin).not.toHaveProperty('credits_rupees');
  });
});
