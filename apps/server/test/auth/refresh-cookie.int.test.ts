import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { refreshTokens } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import {
  bearer,
  productionTestConfig,
  signedIn,
  startApp,
  testConfig,
  type TestClock,
} from '../harness.js';

/*
 * Issue 14's threat "a stolen refresh cookie" (docs/security.md): what the cookie carries, what
 * is stored of it, how long it lives, and that signing out ends a copy an attacker rotated.
 * Rotation and reuse detection themselves are in auth.int.test.ts.
 */

const DAY = 86_400;
const COOKIE = 'flashbooth_refresh';

describe.each(databaseTargets)('the refresh cookie on $name', ({ open }) => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let clock: TestClock;

  beforeAll(async () => {
    database = await open();
    ({ app, clock } = await startApp(database, {
      OTP_SEND_LIMIT_PER_IP: '1000',
      COOKIE_SECURE: 'true',
    }));
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const refresh = (pool: 'regular' | 'enterprise', cookie: string) =>
    app.inject({
      method: 'POST',
      url: `/api/${pool}/auth/refresh`,
      cookies: { [COOKIE]: cookie },
    });
  const newCookieOf = (response: { cookies: { name: string; value: string }[] }) =>
    response.cookies.find((c) => c.name === COOKIE)!.value;

  it('is Secure where configured (by default in production), HttpOnly, SameSite=Strict, on the auth path only, for 30 days', async () => {
    expect(productionTestConfig().auth.cookieSecure).toBe(true);
    expect(testConfig().auth.cookieSecure).toBe(false);

    const session = await signedIn(app, 'enterprise');
    const signedInAt = clock.now().getTime();
    const rotated = await refresh('enterprise', session.refreshCookie);
    expect(rotated.statusCode).toBe(200);
    const cookie = rotated.cookies.find((c) => c.name === COOKIE)!;
    expect(cookie).toMatchObject({
      httpOnly: true,
      secure: true,
      sameSite: 'Strict',
      path: '/api/enterprise/auth',
    });
    // Expires 30 days (REFRESH_TOKEN_TTL_DAYS) after it was issued, to the second.
    const lifetime = (cookie as { expires?: Date }).expires!.getTime() - signedInAt;
    expect(Math.abs(lifetime - 30 * DAY * 1000)).toBeLessThan(60_000);
  });

  it('is stored only as its SHA-256', async () => {
    const session = await signedIn(app, 'regular');
    const rows = await database.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.userId, session.userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(
      createHash('sha256').update(session.refreshCookie).digest('hex'),
    );
    expect(JSON.stringify(rows)).not.toContain(session.refreshCookie);
  });

  it('is refused once its 30 days are over, even if never used', async () => {
    const early = await signedIn(app, 'regular');
    clock.advance(30 * DAY - 60);
    const late = await signedIn(app, 'regular');
    clock.advance(61);
    const expired = await refresh('regular', early.refreshCookie);
    expect(expired.statusCode).toBe(401);
    // The refused cookie is cleared.
    expect(expired.cookies.find((c) => c.name === COOKIE)).toMatchObject({ value: '' });
    expect((await refresh('regular', late.refreshCookie)).statusCode).toBe(200);
  });

  it('signing out with the copy the thief made stale also ends the copy the thief rotated', async () => {
    // The owner's browser holds C1. A thief copies it and refreshes first: the thief holds C2,
    // and C1 is now a rotated token.
    const owner = await signedIn(app, 'regular');
    const stolen = await refresh('regular', owner.refreshCookie);
    expect(stolen.statusCode).toBe(200);
    const thiefCookie = newCookieOf(stolen);

    // The owner signs out (with C1): the whole family is revoked, so C2 is refused too.
    const out = await app.inject({
      method: 'POST',
      url: '/api/regular/auth/sign-out',
      cookies: { [COOKIE]: owner.refreshCookie },
    });
    expect(out.statusCode).toBe(200);
    expect((await refresh('regular', thiefCookie)).statusCode).toBe(401);
  });

  it('gives one new session to concurrent refreshes of one cookie, and that one is revoked with its family', async () => {
    // Owner and thief present the same cookie at once: one rotation wins, the other is a reuse,
    // which revokes the family. Whatever cookie the winner got must be dead afterwards.
    const owner = await signedIn(app, 'regular');
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => refresh('regular', owner.refreshCookie)),
    );
    const winners = answers.filter((a) => a.statusCode === 200);
    expect(winners.length).toBeLessThanOrEqual(1);
    expect(answers.filter((a) => a.statusCode === 401)).toHaveLength(4 - winners.length);
    for (const winner of winners) {
      expect((await refresh('regular', newCookieOf(winner))).statusCode).toBe(401);
    }
  });

  it('leaves an access token working until its 15 minutes are over (stateless), not longer', async () => {
    const session = await signedIn(app, 'regular');
    await app.inject({
      method: 'POST',
      url: '/api/regular/auth/sign-out',
      cookies: { [COOKIE]: session.refreshCookie },
    });
    const me = () => app.inject({ url: '/api/regular/users/self', headers: bearer(session.token) });
    expect((await me()).statusCode).toBe(200);
    clock.advance(15 * 60 + 1);
    expect((await me()).statusCode).toBe(401);
  });
});
