import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { databaseTargets } from '../databases.js';
import {
  bearer,
  latestCode,
  newPhone,
  post,
  signedIn,
  startApp,
  type TestClock,
} from '../harness.js';

describe.each(databaseTargets)('sign-in contract on $name', ({ open }) => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let clock: TestClock;

  beforeAll(async () => {
    database = await open();
    ({ app, clock } = await startApp(database, { OTP_SEND_LIMIT_PER_IP: '1000' }));
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('refuses sign-in for an unknown phone with user_not_found', async () => {
    const response = await post(app, '/api/regular/auth/sign-in', { phone: newPhone() });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'user_not_found' });
  });

  it('signs up, sends a 4-digit code, and refuses a second sign-up with phone_registered', async () => {
    const phone = newPhone();
    const first = await post(app, '/api/regular/auth/sign-up', { phone, name: 'Asha Rao' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ status: 'code_sent' });
    expect(await latestCode(app, phone)).toMatch(/^\d{4}$/);
    const second = await post(app, '/api/regular/auth/sign-up', { phone, name: 'Asha Rao' });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: 'phone_registered' });
  });

  it('requires a name to sign up, with the spec message', async () => {
    const response = await post(app, '/api/regular/auth/sign-up', {
      phone: newPhone(),
      name: '   ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'Please enter your full name.',
      code: 'validation_error',
    });
  });

  it('rejects a phone that is not E.164 and stores the normalised form', async () => {
    const bad = await post(app, '/api/regular/auth/sign-in', { phone: '12345' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: 'Please enter a valid phone number.' });
    // Letters are not a phone's, even beside enough digits (issue 20 item 9).
    for (const phone of ['+9198765abc43210', 'abc']) {
      for (const path of ['sign-in', 'sign-up']) {
        const lettered = await post(app, `/api/enterprise/auth/${path}`, {
          phone,
          name: 'Letters',
        });
        expect(lettered.statusCode).toBe(400);
        expect(lettered.json()).toMatchObject({ message: 'Please enter a valid phone number.' });
      }
    }

    const phone = newPhone();
    const spaced = `${phone.slice(0, 3)} ${phone.slice(3, 8)}-${phone.slice(8)}`;
    expect(
      (await post(app, '/api/regular/auth/sign-up', { phone: spaced, name: 'Spaced' })).statusCode,
    ).toBe(201);
    const session = await signedIn(app, 'regular', phone);
    const me = await app.inject({ url: '/api/regular/users/self', headers: bearer(session.token) });
    expect(me.json()).toMatchObject({ phone });
  });

  it('verifies a code once: tokens, user and an HttpOnly refresh cookie scoped to the pool', async () => {
    const phone = newPhone();
    await post(app, '/api/regular/auth/sign-up', { phone, name: 'Ravi' });
    const code = await latestCode(app, phone);
    const verify = await post(app, '/api/regular/auth/verify', { phone, code });
    expect(verify.statusCode).toBe(200);
    const body = verify.json();
    expect(body).toMatchObject({
      expires_in: 900,
      user: {
        phone,
        name: 'Ravi',
        type: 'regular',
        credits_rupees: 0,
        is_super_user: false,
        is_flashbooth_admin: false,
      },
    });
    expect(body.user).not.toHaveProperty('organizations');
    const cookie = verify.cookies.find((c) => c.name === 'flashbooth_refresh');
    expect(cookie).toMatchObject({ httpOnly: true, path: '/api/regular/auth', sameSite: 'Strict' });

    const reuse = await post(app, '/api/regular/auth/verify', { phone, code });
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json()).toMatchObject({ code: 'code_expired' });
  });

  it('answers a wrong code with code_mismatch and allows 3 tries per code', async () => {
    const phone = newPhone();
    await post(app, '/api/regular/auth/sign-up', { phone, name: 'Meera' });
    const code = await latestCode(app, phone);
    const wrong = code === '0000' ? '1111' : '0000';
    const first = await post(app, '/api/regular/auth/verify', { phone, code: wrong });
    expect(first.statusCode).toBe(401);
    expect(first.json()).toMatchObject({ code: 'code_mismatch' });
    expect((await post(app, '/api/regular/auth/verify', { phone, code: wrong })).statusCode).toBe(
      401,
    );
    const third = await post(app, '/api/regular/auth/verify', { phone, code: wrong });
    expect(third.statusCode).toBe(429);
    expect(third.json()).toMatchObject({ code: 'too_many_attempts' });
    // The code is burnt: even the right one no longer works.
    const right = await post(app, '/api/regular/auth/verify', { phone, code });
    expect(right.statusCode).toBe(401);
    expect(right.json()).toMatchObject({ code: 'code_expired' });
  });

  it('expires a code after 5 minutes', async () => {
    const phone = newPhone();
    await post(app, '/api/regular/auth/sign-up', { phone, name: 'Kiran' });
    const code = await latestCode(app, phone);
    clock.advance(301);
    const response = await post(app, '/api/regular/auth/verify', { phone, code });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'code_expired' });
  });

  it('replaces the old code when a new one is sent', async () => {
    const phone = newPhone();
    await post(app, '/api/regular/auth/sign-up', { phone, name: 'Dev' });
    const oldCode = await latestCode(app, phone);
    let newCode = oldCode;
    // A fresh code may by chance equal the old one; ask again until it differs.
    while (newCode === oldCode) {
      await post(app, '/api/regular/auth/sign-in', { phone });
      newCode = await latestCode(app, phone);
    }
    expect(
      (await post(app, '/api/regular/auth/verify', { phone, code: oldCode })).json(),
    ).toMatchObject({
      code: 'code_mismatch',
    });
    expect((await post(app, '/api/regular/auth/verify', { phone, code: newCode })).statusCode).toBe(
      200,
    );
  });

  it('refuses a token of one pool on the other pool', async () => {
    const visitor = await signedIn(app, 'regular');
    const staff = await signedIn(app, 'enterprise');
    expect(
      (await app.inject({ url: '/api/regular/users/self', headers: bearer(visitor.token) }))
        .statusCode,
    ).toBe(200);
    const crossed = await app.inject({
      url: '/api/enterprise/users/self',
      headers: bearer(visitor.token),
    });
    expect(crossed.statusCode).toBe(401);
    expect(crossed.json()).toMatchObject({ code: 'invalid_token' });
    expect(
      (await app.inject({ url: '/api/regular/users/self', headers: bearer(staff.token) }))
        .statusCode,
    ).toBe(401);
    expect(
      (
        await app.inject({ url: '/api/enterprise/users/self', headers: bearer(staff.token) })
      ).json(),
    ).toMatchObject({
      type: 'enterprise',
      organizations: [],
    });
  });

  it('keeps the two pools separate: one phone, two accounts', async () => {
    const phone = newPhone();
    const visitor = await signedIn(app, 'regular', phone, 'Guest Self');
    const staff = await signedIn(app, 'enterprise', phone, 'Staff Self');
    expect(visitor.userId).not.toBe(staff.userId);
  });

  it('refuses a missing or expired access token', async () => {
    expect((await app.inject({ url: '/api/regular/users/self' })).statusCode).toBe(401);
    const session = await signedIn(app, 'regular');
    clock.advance(901);
    const expired = await app.inject({
      url: '/api/regular/users/self',
      headers: bearer(session.token),
    });
    expect(expired.statusCode).toBe(401);
  });

  it('rotates refresh tokens and revokes the family when a rotated token is replayed', async () => {
    const session = await signedIn(app, 'regular');
    const cookies = { flashbooth_refresh: session.refreshCookie };
    const first = await app.inject({ method: 'POST', url: '/api/regular/auth/refresh', cookies });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ expires_in: 900 });
    const rotated = first.cookies.find((c) => c.name === 'flashbooth_refresh')!.value;
    expect(rotated).not.toBe(session.refreshCookie);

    const replay = await app.inject({ method: 'POST', url: '/api/regular/auth/refresh', cookies });
    expect(replay.statusCode).toBe(401);
    // The replay revoked the whole family, including the token the real client holds now.
    const after = await app.inject({
      method: 'POST',
      url: '/api/regular/auth/refresh',
      cookies: { flashbooth_refresh: rotated },
    });
    expect(after.statusCode).toBe(401);
  });

  it('refuses a refresh cookie of the other pool', async () => {
    const session = await signedIn(app, 'regular');
    const response = await app.inject({
      method: 'POST',
      url: '/api/enterprise/auth/refresh',
      cookies: { flashbooth_refresh: session.refreshCookie },
    });
    expect(response.statusCode).toBe(401);
  });

  it('signs out by revoking the refresh token', async () => {
    const session = await signedIn(app, 'enterprise');
    const cookies = { flashbooth_refresh: session.refreshCookie };
    const out = await app.inject({ method: 'POST', url: '/api/enterprise/auth/sign-out', cookies });
    expect(out.statusCode).toBe(200);
    expect(
      (await app.inject({ method: 'POST', url: '/api/enterprise/auth/refresh', cookies }))
        .statusCode,
    ).toBe(401);
  });
});

describe.each(databaseTargets)('sign-in throttling on $name', ({ open }) => {
  let database: DatabaseHandle;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await open();
    ({ app } = await startApp(database, {
      OTP_SEND_LIMIT_PER_PHONE: '3',
      OTP_SEND_LIMIT_PER_IP: '6',
      OTP_LOCKOUT_FAILURES: '4',
    }));
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('throttles code sending per phone', async () => {
    const phone = newPhone();
    const remoteAddress = '10.0.0.1';
    const send = (url: string, payload: object) =>
      app.inject({ method: 'POST', url, payload, remoteAddress });
    expect((await send('/api/regular/auth/sign-up', { phone, name: 'A' })).statusCode).toBe(201);
    expect((await send('/api/regular/auth/sign-in', { phone })).statusCode).toBe(200);
    expect((await send('/api/regular/auth/sign-in', { phone })).statusCode).toBe(200);
    const fourth = await send('/api/regular/auth/sign-in', { phone });
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toMatchObject({ code: 'too_many_attempts' });
  });

  it('throttles code sending per client address', async () => {
    const remoteAddress = '10.0.0.2';
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/regular/auth/sign-up',
        payload: { phone: newPhone(), name: 'Many' },
        remoteAddress,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 429]);
  });

  it('locks a phone after repeated failures, even with a fresh correct code', async () => {
    const phone = newPhone();
    const remoteAddress = '10.0.0.3';
    const call = (url: string, payload: object) =>
      app.inject({ method: 'POST', url, payload, remoteAddress });
    await call('/api/regular/auth/sign-up', { phone, name: 'Locked' });
    let code = await latestCode(app, phone);
    const wrong = (c: string) => (c === '0000' ? '1111' : '0000');
    await call('/api/regular/auth/verify', { phone, code: wrong(code) });
    await call('/api/regular/auth/verify', { phone, code: wrong(code) });
    await call('/api/regular/auth/sign-in', { phone });
    code = await latestCode(app, phone);
    await call('/api/regular/auth/verify', { phone, code: wrong(code) });
    await call('/api/regular/auth/verify', { phone, code: wrong(code) });
    // Four failures in the window: the phone is locked, the right code is refused too.
    const locked = await call('/api/regular/auth/verify', { phone, code });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ code: 'too_many_attempts' });
  });

  it('serialises concurrent verifications so a code is used at most once', async () => {
    const phone = newPhone();
    await app.inject({
      method: 'POST',
      url: '/api/regular/auth/sign-up',
      payload: { phone, name: 'Racer' },
      remoteAddress: '10.0.0.4',
    });
    const code = await latestCode(app, phone);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => post(app, '/api/regular/auth/verify', { phone, code })),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
  });
});
