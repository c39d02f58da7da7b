import {
  type DataExport,
  type ErasureCodeSent,
  type ErasureResult,
  PRIVACY_MESSAGES as M,
  type PrivacyActionList,
} from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { media, paymentTransactions, privacyActions, users } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import {
  apiCall,
  createOrg,
  latestCode,
  signedIn,
  signedInOrgStaff,
  signedInProductAdmin,
  signedInSuperUser,
} from '../harness.js';
import { payment, privacyApp, refresh, storedItem } from './privacy-fixtures.js';

describe.each(databaseTargets)('account deletion on $name', ({ open }) => {
  let database: DatabaseHandle;
  let t: Awaited<ReturnType<typeof privacyApp>>;

  beforeAll(async () => {
    database = await open();
    t = await privacyApp(database);
  }, 60_000);
  afterAll(async () => {
    await t.app.close();
    await t.storage.close();
    await database.close();
  });

  const visitorCall = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
    apiCall(t.app, method, url, token, payload, 'regular');
  const staffCall = (method: 'GET' | 'POST', url: string, token: string) =>
    apiCall(t.app, method, url, token, undefined, 'enterprise');
  const userRow = async (id: number) =>
    (await database.db.select().from(users).where(eq(users.id, id)))[0];

  it('deletes the account at once with a fresh SMS code, signs it out and keeps its payment anonymised', async () => {
    const person = await signedIn(t.app, 'regular', undefined, 'Dev Delete');
    const item = await storedItem(database, t.storage, person.userId);
    const paid = await payment(database, person.userId);

    // Without a code nothing happens; a malformed code is refused by the contract.
    const noCode = await visitorCall('POST', 'users/self/erase', person.token, { code: '12' });
    expect(noCode.statusCode).toBe(400);
    const expired = await visitorCall('POST', 'users/self/erase', person.token, { code: '1234' });
    expect(expired.statusCode).toBe(422);
    expect(expired.json()).toMatchObject({ message: M.codeExpired });

    const sent = await visitorCall('POST', 'users/self/erasure-code', person.token);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json<ErasureCodeSent>()).toEqual({
      sent_to: person.phone,
      expires_at: expect.any(String),
    });
    const code = await latestCode(t.app, person.phone);
    const wrong = String((Number(code) + 1) % 10_000).padStart(4, '0');
    const refused = await visitorCall('POST', 'users/self/erase', person.token, { code: wrong });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ message: M.codeWrong });
    expect(await userRow(person.userId)).toBeDefined();

    const erased = await visitorCall('POST', 'users/self/erase', person.token, { code });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json()).toEqual({ status: 'erased' });
    // The browser's refresh cookie is cleared, and the session behind it is gone anyway.
    const cleared = erased.cookies.find((cookie) => cookie.name === 'flashbooth_refresh');
    expect(cleared).toMatchObject({ value: '', path: '/api/regular/auth' });
    expect((await refresh(t.app, 'regular', person.refreshCookie)).statusCode).toBe(401);
    expect((await visitorCall('GET', 'users/self', person.token)).statusCode).toBe(401);

    expect(await userRow(person.userId)).toBeUndefined();
    expect(await database.db.select().from(media).where(eq(media.id, item.id))).toEqual([]);
    expect(await t.storage.head(item.s3Key)).toBeNull();
    const [kept] = await database.db
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.id, paid.id));
    expect(kept).toMatchObject({ userId: null, amountPaise: paid.amountPaise, state: 'COMPLETED' });
    // The same phone may sign up again: a new, empty account.
    const again = await signedIn(t.app, 'regular', person.phone, 'Dev Again');
    expect(again.userId).not.toBe(person.userId);
  });

  it('drops the code after too many wrong tries and limits how many codes are sent', async () => {
    const person = await signedIn(t.app, 'regular');
    await visitorCall('POST', 'users/self/erasure-code', person.token);
    const code = await latestCode(t.app, person.phone);
    const wrong = String((Number(code) + 1) % 10_000).padStart(4, '0');
    // OTP_MAX_ATTEMPTS is 3: two wrong tries are told so, the third drops the code.
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      const response = await visitorCall('POST', 'users/self/erase', person.token, { code: wrong });
      expect(response.json()).toMatchObject({ message: M.codeWrong });
    }
    const third = await visitorCall('POST', 'users/self/erase', person.token, { code: wrong });
    expect(third.statusCode).toBe(429);
    expect(third.json()).toMatchObject({ message: M.codeTooManyAttempts });
    const late = await visitorCall('POST', 'users/self/erase', person.token, { code });
    expect(late.json()).toMatchObject({ message: M.codeExpired });

    // Three codes an hour in all (the first above counts).
    expect((await visitorCall('POST', 'users/self/erasure-code', person.token)).statusCode).toBe(
      200,
    );
    expect((await visitorCall('POST', 'users/self/erasure-code', person.token)).statusCode).toBe(
      200,
    );
    const limited = await visitorCall('POST', 'users/self/erasure-code', person.token);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ message: M.codeSendLimit });
    expect(await userRow(person.userId)).toBeDefined();
  });

  it('lets only super users export or erase a visitor on request, and logs each action with ids', async () => {
    const superUser = await signedInSuperUser(t);
    const productAdmin = await signedInProductAdmin(t.app, database);
    const orgId = await createOrg(database);
    const orgAdmin = await signedInOrgStaff(t.app, database, orgId, 'admin');
    const visitor = await signedIn(t.app, 'regular', undefined, 'Gita Guest');
    const item = await storedItem(database, t.storage, visitor.userId, { orgId });

    for (const other of [productAdmin, orgAdmin]) {
      for (const [method, url] of [
        ['POST', `privacy/people/${visitor.userId}/erase`],
        ['POST', `privacy/people/${visitor.userId}/data-export`],
        ['GET', `privacy/people/${visitor.userId}/data-export`],
        ['GET', 'privacy/actions'],
      ] as const) {
        const response = await staffCall(method, url, other.token);
        expect(response.statusCode, `${method} ${url}`).toBe(403);
      }
    }
    // A visitor's token is not a staff token at all.
    expect(
      (
        await apiCall(
          t.app,
          'POST',
          `privacy/people/${visitor.userId}/erase`,
          visitor.token,
          undefined,
          'enterprise',
        )
      ).statusCode,
    ).toBe(401);
    expect(await userRow(visitor.userId)).toBeDefined();
    // Staff accounts are not handled from the console.
    const staffTarget = await staffCall(
      'POST',
      `privacy/people/${orgAdmin.userId}/erase`,
      superUser.token,
    );
    expect(staffTarget.statusCode).toBe(422);
    expect(staffTarget.json()).toMatchObject({ message: M.staffOnlyVisitors });
    expect(
      (await staffCall('POST', 'privacy/people/999999/erase', superUser.token)).statusCode,
    ).toBe(404);

    const exported = await staffCall(
      'POST',
      `privacy/people/${visitor.userId}/data-export`,
      superUser.token,
    );
    expect(exported.statusCode, exported.body).toBe(202);
    expect(exported.json<DataExport>()).toMatchObject({ requested_by_staff: true });

    const erased = await staffCall(
      'POST',
      `privacy/people/${visitor.userId}/erase`,
      superUser.token,
    );
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json<ErasureResult>()).toMatchObject({
      user_id: visitor.userId,
      counts: { media: 1 },
    });
    expect(await userRow(visitor.userId)).toBeUndefined();
    expect(await t.storage.head(item.s3Key)).toBeNull();

    const logged = await database.db
      .select()
      .from(privacyActions)
      .where(eq(privacyActions.subjectId, visitor.userId));
    expect(logged.map((row) => [row.actorId, row.action])).toEqual([
      [superUser.userId, 'export'],
      [superUser.userId, 'erase'],
    ]);
    const list = await staffCall('GET', 'privacy/actions?limit=50', superUser.token);
    expect(list.statusCode).toBe(200);
    const items = list.json<PrivacyActionList>().items;
    expect(items.filter((row) => row.subject_id === visitor.userId)).toEqual([
      expect.objectContaining({ actor_id: superUser.userId, action: 'erase' }),
      expect.objectContaining({ actor_id: superUser.userId, action: 'export' }),
    ]);
    // The log holds ids, an action and a time: nothing else about either person.
    expect(Object.keys(items[0]!).sort()).toEqual(
      ['action', 'actor_id', 'created_at', 'id', 'subject_id'].sort(),
    );
  });
});
