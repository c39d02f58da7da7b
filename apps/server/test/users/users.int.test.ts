import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { databaseTargets } from '../databases.js';
import { bearer, signedIn, startApp } from '../harness.js';

/** An ISO date `years` years and `days` days before today (UTC). */
function yearsAgo(years: number, days = 0): string {
  const now = new Date();
  const date = new Date(
    Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate() - days),
  );
  return date.toISOString().slice(0, 10);
}

describe.each(databaseTargets)('users API on $name', ({ open }) => {
  let database: DatabaseHandle;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await open();
    ({ app } = await startApp(database, {
      OTP_SEND_LIMIT_PER_IP: '1000',
      SUPER_USER_PHONES: '+919999900001',
    }));
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const patch = (pool: string, token: string, payload: object, id: string | number = 'self') =>
    app.inject({
      method: 'PATCH',
      url: `/api/${pool}/users/${id}`,
      payload,
      headers: bearer(token),
    });

  it('reads and updates the caller profile', async () => {
    const { token } = await signedIn(app, 'regular', undefined, 'Nisha');
    const dob = yearsAgo(25);
    const response = await patch('regular', token, {
      name: '  Nisha Kapoor ',
      email: 'nisha@example.com',
      dob,
      gender: 'Non-binary',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      name: 'Nisha Kapoor',
      email: 'nisha@example.com',
      dob,
      gender: 'Non-binary',
    });
    const read = await app.inject({ url: '/api/regular/users/self', headers: bearer(token) });
    expect(read.json()).toMatchObject({ name: 'Nisha Kapoor', dob, credits_rupees: 0 });
    const cleared = await patch('regular', token, { email: '', dob: null });
    expect(cleared.json()).toMatchObject({ email: null, dob: null });
  });

  it.each([
    [{ email: 'not-an-email' }, 'Please enter a valid email address'],
    [{ dob: '14/05/2000' }, 'Please enter the date in dd/mm/yyyy format'],
    [{ dob: '2001-02-30' }, 'Please enter a valid date'],
    [{ name: '' }, 'Please enter your full name.'],
    [{}, 'No changes to save.'],
  ])('refuses %o with the spec message', async (payload, message) => {
    const { token } = await signedIn(app, 'regular');
    const response = await patch('regular', token, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message, code: 'validation_error' });
  });

  it('applies the visitor age rule (10 to 100 years)', async () => {
    const { token } = await signedIn(app, 'regular');
    for (const dob of [yearsAgo(9), yearsAgo(101)]) {
      const response = await patch('regular', token, { dob });
      expect(response.json()).toMatchObject({ message: 'Age must be between 10 and 100 years' });
    }
    expect((await patch('regular', token, { dob: yearsAgo(10) })).statusCode).toBe(200);
  });

  it('applies the staff age rules with their own messages', async () => {
    const { token } = await signedIn(app, 'enterprise');
    expect((await patch('enterprise', token, { dob: yearsAgo(9) })).json()).toMatchObject({
      message: 'You must be at least 10 years old',
    });
    expect((await patch('enterprise', token, { dob: yearsAgo(101) })).json()).toMatchObject({
      message: 'Please enter a valid date of birth',
    });
  });

  it('refuses fields a profile may not change', async () => {
    const { token } = await signedIn(app, 'regular');
    const response = await patch('regular', token, { credits_rupees: 1000 });
    expect(response.statusCode).toBe(400);
    const flags = await patch('enterprise', (await signedIn(app, 'enterprise')).token, {
      is_super_user: true,
    });
    expect(flags.statusCode).toBe(400);
  });

  it('lets a visitor reach only their own record', async () => {
    const me = await signedIn(app, 'regular');
    const other = await signedIn(app, 'regular');
    expect(
      (await app.inject({ url: `/api/regular/users/${me.userId}`, headers: bearer(me.token) }))
        .statusCode,
    ).toBe(200);
    expect(
      (await app.inject({ url: `/api/regular/users/${other.userId}`, headers: bearer(me.token) }))
        .statusCode,
    ).toBe(403);
    expect((await patch('regular', me.token, { name: 'X' }, other.userId)).statusCode).toBe(403);
  });

  it('gives SUPER_USER_PHONES staff accounts the super-user flag, and lets them read staff records', async () => {
    const admin = await signedIn(app, 'enterprise', '+919999900001');
    const self = await app.inject({
      url: '/api/enterprise/users/self',
      headers: bearer(admin.token),
    });
    expect(self.json()).toMatchObject({ is_super_user: true, type: 'enterprise' });
    const member = await signedIn(app, 'enterprise');
    expect(
      (
        await app.inject({
          url: `/api/enterprise/users/${member.userId}`,
          headers: bearer(admin.token),
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await app.inject({
          url: `/api/enterprise/users/${admin.userId}`,
          headers: bearer(member.token),
        })
      ).statusCode,
    ).toBe(403);
    // Visitor accounts are not reachable through the staff API.
    const visitor = await signedIn(app, 'regular');
    expect(
      (
        await app.inject({
          url: `/api/enterprise/users/${visitor.userId}`,
          headers: bearer(admin.token),
        })
      ).statusCode,
    ).toBe(404);
  });
});
