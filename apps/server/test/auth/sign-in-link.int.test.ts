import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { refreshTokens, signInLinks, users } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { latestCode, newPhone, post, startApp, type TestClock } from '../harness.js';

/*
 * Issue 14, item 2: every sign-in SMS carries a one-tap sign-in link (a single-use token of 256
 * random bits, stored as its SHA-256, with the code's lifetime, bound to its pool and phone) that
 * signs in even when the phone's code budget is spent. Time is moved with the app's clock.
 */

const PUBLIC_URL = 'https://booths.example.com';
const INVALID = 'This sign-in link has expired or was already used. Please request a new code.';
/** The link as the SMS spells it: the pool's login page, the token in the fragment. */
const LINK = /(https?:\/\/[^\s/]+)\/(regular|enterprise)\/login#link=([A-Za-z0-9_-]+)(&next=\S+)?/;

interface Sms {
  text: string;
  code: string | null;
}

async function latestSms(app: FastifyInstance, phone: string): Promise<Sms> {
  const response = await app.inject({ method: 'GET', url: '/api/dev/sms', query: { phone } });
  const sms = response.json<{ items: Sms[] }>().items[0];
  if (!sms) throw new Error(`no SMS for ${phone}`);
  return sms;
}

/** The token of the link in the phone's newest SMS. */
async function latestToken(app: FastifyInstance, phone: string): Promise<string> {
  const match = LINK.exec((await latestSms(app, phone)).text);
  if (!match) throw new Error(`no sign-in link in the newest SMS to ${phone}`);
  return match[3]!;
}

const link = (app: FastifyInstance, pool: 'regular' | 'enterprise', token: string, ip?: string) =>
  post(app, `/api/${pool}/auth/link`, { token }, ip ? { 'x-forwarded-for': ip } : {});

/** A wrong code: the `n`th 4-digit guess that is not `right`. */
const wrongGuess = (right: string, n: number) => {
  const guess = String(n % 10_000).padStart(4, '0');
  return guess === right ? String((n + 1) % 10_000).padStart(4, '0') : guess;
};

describe.each(databaseTargets)('one-tap sign-in link on $name', ({ open }) => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let clock: TestClock;
  const logLines: string[] = [];

  beforeAll(async () => {
    database = await open();
    const loggerStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    ({ app, clock } = await startApp(
      database,
      {
        PUBLIC_URL,
        TRUST_PROXY: 'true',
        OTP_SEND_LIMIT_PER_IP: '1000',
        OTP_SEND_LIMIT_PER_PHONE: '50',
        LOG_LEVEL: 'trace',
      },
      { logger: true, loggerStream },
    ));
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const signUp = (phone: string, name = 'Link Person', pool = 'regular') =>
    post(app, `/api/${pool}/auth/sign-up`, { phone, name });
  const signIn = (phone: string, extra: object = {}) =>
    post(app, '/api/regular/auth/sign-in', { phone, ...extra });

  it('puts the link after the code in the SMS and keeps only its hash', async () => {
    const phone = newPhone();
    expect((await signUp(phone)).statusCode).toBe(201);
    const sms = await latestSms(app, phone);
    const token = await latestToken(app, phone);
    expect(sms.text).toBe(
      `${sms.code} is your Flashbooth sign-in code. It expires in 5 minutes. Never share it with anyone. Or tap to sign in: ${PUBLIC_URL}/regular/login#link=${token}`,
    );
    // 32 random bytes in base64url; a second SMS has another token.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect((await signIn(phone)).statusCode).toBe(200);
    expect(await latestToken(app, phone)).not.toBe(token);

    // At rest: the SHA-256 of the token, the pool, the phone and the code's lifetime; never the
    // token itself, in any column.
    const rows = await database.db.select().from(signInLinks).where(eq(signInLinks.phone, phone));
    expect(rows).toHaveLength(2);
    const first = rows.find(
      (row) => row.tokenHash === createHash('sha256').update(token).digest('hex'),
    );
    expect(first).toMatchObject({ pool: 'regular', phone, usedAt: null });
    expect(first!.expiresAt.getTime() - first!.createdAt.getTime()).toBe(300_000);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('signs in exactly like a code: the same body, the same refresh cookie', async () => {
    const phone = newPhone();
    await signUp(phone, 'Tapper');
    const token = await latestToken(app, phone);
    const response = await link(app, 'regular', token);
    expect(response.statusCode).toBe(200);
    const body = response.json<{ access_token: string; expires_in: number; user: object }>();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'user']);
    expect(body).toMatchObject({
      expires_in: 900,
      user: { phone, name: 'Tapper', type: 'regular' },
    });
    const cookie = response.cookies.find((c) => c.name === 'flashbooth_refresh');
    expect(cookie).toMatchObject({ httpOnly: true, path: '/api/regular/auth', sameSite: 'Strict' });
    const me = await app.inject({
      url: '/api/regular/users/self',
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(me.json()).toMatchObject({ phone });
    // The refresh cookie works like any other.
    const refreshed = await post(app, '/api/regular/auth/refresh', undefined, {
      cookie: `flashbooth_refresh=${cookie!.value}`,
    });
    expect(refreshed.statusCode).toBe(200);
  });

  it('works once: a second tap, and the code sent with it, are refused', async () => {
    const phone = newPhone();
    await signUp(phone);
    const code = await latestCode(app, phone);
    const token = await latestToken(app, phone);
    expect((await link(app, 'regular', token)).statusCode).toBe(200);
    const again = await link(app, 'regular', token);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ code: 'invalid_token', message: INVALID });
    // Signing in with the link retires the code of the same SMS.
    const verify = await post(app, '/api/regular/auth/verify', { phone, code });
    expect(verify.json()).toMatchObject({ code: 'code_expired' });
  });

  it('gives one session for two taps at the same moment', async () => {
    const phone = newPhone();
    await signUp(phone);
    const token = await latestToken(app, phone);
    const [userRow] = await database.db.select().from(users).where(eq(users.phone, phone));
    // From three addresses (a link forwarded to other devices): nothing serialises them but the
    // one UPDATE that uses the token up.
    const answers = await Promise.all(
      ['198.51.100.21', '198.51.100.22', '198.51.100.23'].map((ip) =>
        link(app, 'regular', token, ip),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401, 401]);
    const sessions = await database.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.userId, userRow!.id));
    expect(sessions).toHaveLength(1);
  });

  it("expires with the code's lifetime", async () => {
    const phone = newPhone();
    await signUp(phone);
    const early = await latestToken(app, phone);
    await signIn(phone);
    const late = await latestToken(app, phone);
    clock.advance(299);
    expect((await link(app, 'regular', early)).statusCode).toBe(200);
    clock.advance(2);
    const expired = await link(app, 'regular', late);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ code: 'invalid_token', message: INVALID });
  });

  it('works only in its own pool, and a refusal there does not use it up', async () => {
    const phone = newPhone();
    // The same number has an account in both pools (two accounts).
    await signUp(phone, 'Two Pools', 'enterprise');
    await signUp(phone, 'Two Pools', 'regular');
    const regularToken = await latestToken(app, phone);
    const otherPool = await link(app, 'enterprise', regularToken);
    expect(otherPool.statusCode).toBe(401);
    expect(otherPool.json()).toEqual({ code: 'invalid_token', message: INVALID });
    const own = await link(app, 'regular', regularToken);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ user: { phone, type: 'regular' } });

    await post(app, '/api/enterprise/auth/sign-in', { phone });
    const staffSms = await latestSms(app, phone);
    expect(staffSms.text).toContain(`${PUBLIC_URL}/enterprise/login#link=`);
    const staffToken = await latestToken(app, phone);
    expect((await link(app, 'regular', staffToken)).statusCode).toBe(401);
    const staff = await link(app, 'enterprise', staffToken);
    expect(staff.json()).toMatchObject({ user: { phone, type: 'enterprise' } });
  });

  it('signs in the phone it was sent to and nobody else', async () => {
    const [a, b] = [newPhone(), newPhone()];
    await signUp(a, 'Person A');
    const tokenA = await latestToken(app, a);
    await signUp(b, 'Person B');
    const tokenB = await latestToken(app, b);
    const asB = await link(app, 'regular', tokenB);
    const asA = await link(app, 'regular', tokenA);
    expect(asA.json()).toMatchObject({ user: { phone: a, name: 'Person A' } });
    expect(asB.json()).toMatchObject({ user: { phone: b, name: 'Person B' } });
  });

  it('signs in after the code budget is spent, and every code an attacker asks for hands the owner a link', async () => {
    const phone = newPhone();
    const attacker = '203.0.113.50';
    await signUp(phone, 'Owner');
    // The attacker spends the day's 10 wrong codes (one an hour, past every pause).
    for (let n = 0; n < 10; n += 1) {
      if (n > 0)
        await post(app, '/api/regular/auth/sign-in', { phone }, { 'x-forwarded-for': attacker });
      const code = await latestCode(app, phone);
      await post(
        app,
        '/api/regular/auth/verify',
        { phone, code: wrongGuess(code, n) },
        { 'x-forwarded-for': attacker },
      );
      clock.advance(3600);
    }
    const budgetSpent = await post(
      app,
      '/api/regular/auth/verify',
      { phone, code: '0000' },
      { 'x-forwarded-for': attacker },
    );
    expect(budgetSpent.statusCode).toBe(429);
    expect(budgetSpent.json()).toMatchObject({ reason: 'code_budget_spent', link_sent: false });

    // The owner asks to sign in: told why codes do not work and until when, and texted a link.
    const owner = await signIn(phone);
    expect(owner.statusCode).toBe(429);
    const body = owner.json<{ message: string; retry_at: string }>();
    expect(body).toMatchObject({
      code: 'too_many_attempts',
      reason: 'code_budget_spent',
      link_sent: true,
    });
    expect(body.message).toMatch(
      /^Too many wrong codes for this number\. Try again after \d\d:\d\d UTC( tomorrow)?\. The sign-in link we have just texted you works even now\.$/,
    );
    expect(body.retry_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00$/);
    expect(Number(owner.headers['retry-after'])).toBeGreaterThan(0);
    // The SMS carries no code (none could be checked), only the link.
    const sms = await latestSms(app, phone);
    expect(sms.code).toBeNull();
    expect(sms.text).toMatch(
      /^Too many wrong codes were entered for your Flashbooth number, so codes work again after \d\d:\d\d UTC( tomorrow)?\. Tap to sign in now: https:\/\/booths\.example\.com\/regular\/login#link=[A-Za-z0-9_-]{43} It expires in 5 minutes\. Never share it with anyone\.$/,
    );
    const signedIn = await link(app, 'regular', await latestToken(app, phone));
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ user: { phone, name: 'Owner' } });

    // The attacker's own requests hand out links too, to the owner's phone only; codes stay shut.
    await post(app, '/api/regular/auth/sign-in', { phone }, { 'x-forwarded-for': attacker });
    expect((await latestSms(app, phone)).code).toBeNull();
    expect((await link(app, 'regular', await latestToken(app, phone))).statusCode).toBe(200);
  });

  it('keeps the page to return to, and refuses one on another site', async () => {
    const phone = newPhone();
    await signUp(phone);
    expect((await signIn(phone, { next: '/b/12?step=pay#top' })).statusCode).toBe(200);
    const match = LINK.exec((await latestSms(app, phone)).text);
    expect(match?.[4]).toBe(`&next=${encodeURIComponent('/b/12?step=pay#top')}`);
    for (const next of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'b/12']) {
      const refused = await signIn(phone, { next });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        code: 'validation_error',
        message: 'The page to return to must be a path on this site.',
      });
    }
  });

  it('answers a malformed or unknown token with the same clear message', async () => {
    for (const token of ['', 'short', 'x'.repeat(43).replace(/x$/, '!')]) {
      const response = await link(app, 'regular', token);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ code: 'validation_error', message: INVALID });
    }
    const unknown = await link(app, 'regular', 'A'.repeat(43));
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ code: 'invalid_token', message: INVALID });
  });

  it('never writes a token to the logs', async () => {
    const phone = newPhone();
    await signUp(phone);
    const token = await latestToken(app, phone);
    await link(app, 'regular', token);
    const log = logLines.join('');
    expect(log).toContain('/api/regular/auth/link');
    expect(log).not.toContain(token);
  });
});

describe.each(databaseTargets)('sign-in link limits on $name', ({ open }) => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let clock: TestClock;

  beforeAll(async () => {
    database = await open();
    // No PUBLIC_URL: links lead to the request's own origin (development).
    ({ app, clock } = await startApp(database, {
      TRUST_PROXY: 'true',
      OTP_SEND_LIMIT_PER_IP: '3',
    }));
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it("without PUBLIC_URL leads to the request's own origin", async () => {
    const phone = newPhone();
    await post(
      app,
      '/api/regular/auth/sign-up',
      { phone, name: 'Local' },
      {
        host: 'localhost:8080',
        'x-forwarded-for': '198.51.100.1',
      },
    );
    expect((await latestSms(app, phone)).text).toMatch(
      /Or tap to sign in: http:\/\/localhost:8080\/regular\/login#link=[A-Za-z0-9_-]{43}$/,
    );
  });

  it('slows an address that keeps trying links that sign nobody in, not the others', async () => {
    const address = '203.0.113.9';
    const phone = newPhone();
    await post(
      app,
      '/api/regular/auth/sign-up',
      { phone, name: 'Neighbour' },
      {
        'x-forwarded-for': '198.51.100.2',
      },
    );
    const token = await latestToken(app, phone);
    for (let n = 0; n < 3; n += 1) {
      expect((await link(app, 'regular', `${'B'.repeat(42)}${n}`, address)).statusCode).toBe(401);
    }
    const refused = await link(app, 'regular', 'C'.repeat(43), address);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      code: 'too_many_attempts',
      message:
        'Too many sign-in links were tried from your network. Please wait a few minutes and try again.',
    });
    // Another address is not affected, and the window moves on.
    expect((await link(app, 'regular', token, '198.51.100.3')).statusCode).toBe(200);
    clock.advance(901);
    expect((await link(app, 'regular', 'C'.repeat(43), address)).statusCode).toBe(401);
  });
});
