import { CREDIT_MESSAGES } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import {
  expectAppError,
  memoryLog,
  type Outcome,
  outcomeOf,
  people,
  type Role,
} from '../../../test/unit-fakes.js';
import type { CreditsRepository, NewGrant } from './credits.repository.js';
import { CreditsService } from './credits.service.js';

function setUp() {
  const everyone = people();
  const grants: NewGrant[] = [];
  const visitor = everyone.rows.visitor;
  const repository = {
    grant: async (grant: NewGrant) => {
      grants.push(grant);
      return grant.userId === visitor.id
        ? { ...visitor, creditsPaise: visitor.creditsPaise + grant.amountPaise }
        : undefined;
    },
    findVisitor: async (id: number) => (id === visitor.id ? visitor : undefined),
    ledger: async () => ({ rows: [], total: 0 }),
  } as unknown as CreditsRepository;
  const service = new CreditsService({
    repository,
    users: everyone.users,
    now: () => new Date('2025-09-30T10:00:00Z'),
    log: memoryLog(),
  });
  return { ...everyone, grants, service };
}

const rules: [Role, Outcome][] = [
  ['super user', 'ok'],
  ['product admin', 'ok'],
  ['org admin', 'forbidden'],
  ['member', 'forbidden'],
  ['outsider', 'forbidden'],
];

describe("visitors' credit: grants and the ledger (super users and product admins only)", () => {
  it.each(rules)('a %s may grant credit and read the ledger: %s', async (role, expected) => {
    const { service, claims, rows, grants } = setUp();
    const grant = () =>
      service.grant(claims[role], rows.visitor.id, { amount_rupees: 10, note: null });
    const ledger = () => service.ledger(claims[role], rows.visitor.id, { limit: 9, offset: 0 });
    expect(await outcomeOf(grant)).toBe(expected);
    expect(await outcomeOf(ledger)).toBe(expected);
    expect(grants).toHaveLength(expected === 'ok' ? 1 : 0);
    if (expected !== 'ok') {
      await expectAppError(grant(), 'forbidden', CREDIT_MESSAGES.grantStaffOnly);
      await expectAppError(ledger(), 'forbidden', CREDIT_MESSAGES.ledgerStaffOnly);
    }
  });

  it('grants whole paise, by the staff member, to visitors only', async () => {
    const { service, claims, rows, grants } = setUp();
    const user = await service.grant(claims['product admin'], rows.visitor.id, {
      amount_rupees: 12.34,
      note: 'Sorry for the jam',
    });
    expect(user).toMatchObject({ id: rows.visitor.id, credits_rupees: 12.34 });
    expect(grants).toEqual([
      expect.objectContaining({
        userId: rows.visitor.id,
        amountPaise: 1234,
        note: 'Sorry for the jam',
        grantedBy: rows['product admin'].id,
      }),
    ]);
    for (const id of [rows.member.id, 999]) {
      await expectAppError(
        service.grant(claims['super user'], id, { amount_rupees: 1, note: null }),
        'not_found',
        CREDIT_MESSAGES.visitorNotFound,
      );
      await expectAppError(
        service.ledger(claims['super user'], id, { limit: 9, offset: 0 }),
        'not_found',
        CREDIT_MESSAGES.visitorNotFound,
      );
    }
  });
});
