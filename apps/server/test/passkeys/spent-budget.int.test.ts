import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { otpEvents } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import {
  apiCall,
  latestCode,
  post,
  signedIn,
  startApp,
  type TestApp,
  type TestClock,
} from '../harness.js';
import { SoftAuthenticator } from './soft-authenticator.js';

/*
 * Issue 14, "What it must show": a phone that has spent its daily code budget still signs in with
 * a passkey it registered earlier, while its codes (even the right one) stay refused. The day is
 * simulated by moving the app's clock, never by waiting.
 */

const HOUR = 3600;
const ATTACKER = '203.0.113.77';

/** A wrong code: the `n`th 4-digit guess that is not `right`. */
const wrongGuess = (right: string, n: number) => {
  const guess = String(n % 10_000).padStart(4, '0');
  return guess === right ? String((n + 1) % 10_000).padStart(4, '0') : guess;
};

describe.each(databaseTargets)('a passkey after the code budget is spent, on $name', ({ open }) => {
  let database: DatabaseHandle;
  let testApp: TestApp;
  let app: FastifyInstance;
  let clock: TestClock;

  beforeAll(async () => {
    database = await open();
    // The budget's defaults (10 wrong codes a day, pauses from the 5th); addresses from the proxy.
    testApp = await startApp(database, {
      TRUST_PROXY: 'true',
      OTP_SEND_LIMIT_PER_IP: '1000',
      OTP_SEND_LIMIT_PER_PHONE: '50',
    });
    ({ app, clock } = testApp);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const fromAttacker = (step: string, payload: object) =>
    post(app, `/api/regular/auth/${step}`, payload, { 'x-forwarded-for': ATTACKER });

  const passkeySignIn = async (authenticator: SoftAuthenticator) => {
    const options = await post(app, '/api/regular/passkeys/sign-in/options');
    expect(options.statusCode, options.body).toBe(200);
    const credential = authenticator.authenticate(options.json().options);
    return post(app, '/api/regular/passkeys/sign-in/verify', { credential });
  };

  it('signs in with a passkey registered earlier, while every code stays refused', async () => {
    // The owner signs in with a code once and adds a passkey from the profile.
    const owner = await signedIn(app, 'regular', undefined, 'Passkey Owner');
    const authenticator = new SoftAuthenticator({
      origin: testApp.config.webauthn.origins[0]!,
      rpId: 'localhost',
    });
    const creation = await apiCall(
      app,
      'POST',
      'passkeys/registration/options',
      owner.token,
      undefined,
      'regular',
    );
    const added = await apiCall(
      app,
      'POST',
      'passkeys/registration/verify',
      owner.token,
      { name: 'Owner phone', credential: authenticator.register(creation.json().options) },
      'regular',
    );
    expect(added.statusCode, added.body).toBe(201);

    // An attacker spends the day's 10 wrong codes (one an hour, past every pause).
    let lastCode = '';
    for (let n = 0; n < 10; n += 1) {
      clock.advance(HOUR);
      expect((await fromAttacker('sign-in', { phone: owner.phone })).statusCode).toBe(200);
      lastCode = await latestCode(app, owner.phone);
      const wrong = await fromAttacker('verify', {
        phone: owner.phone,
        code: wrongGuess(lastCode, n),
      });
      // Checked and wrong; the 10th spends the budget, and its answer says so.
      expect(wrong.json(), `wrong code ${n + 1}`).toMatchObject({
        code: n < 9 ? 'code_mismatch' : 'too_many_attempts',
      });
    }
    // Spent: the right code of the live SMS is not even checked.
    const rightCode = await post(app, '/api/regular/auth/verify', {
      phone: owner.phone,
      code: lastCode,
    });
    expect(rightCode.statusCode).toBe(429);
    expect(rightCode.json()).toMatchObject({ reason: 'code_budget_spent' });

    // The passkey signs the owner in, into the session a code gives (token and refresh cookie).
    clock.advance(60);
    const viaPasskey = await passkeySignIn(authenticator);
    expect(viaPasskey.statusCode, viaPasskey.body).toBe(200);
    expect(viaPasskey.json()).toMatchObject({
      user: { id: owner.userId, phone: owner.phone, name: 'Passkey Owner' },
    });
    expect(viaPasskey.cookies.some((c) => c.name === 'flashbooth_refresh')).toBe(true);
    const self = await apiCall(
      app,
      'GET',
      'users/self',
      viaPasskey.json<{ access_token: string }>().access_token,
      undefined,
      'regular',
    );
    expect(self.statusCode).toBe(200);
    expect(self.json()).toMatchObject({ phone: owner.phone });

    // The passkey sign-in does not reopen the codes: a guesser gets nothing more today.
    const again = await fromAttacker('verify', { phone: owner.phone, code: lastCode });
    expect(again.statusCode).toBe(429);
    expect(again.json()).toMatchObject({ reason: 'code_budget_spent' });
    const sent = await fromAttacker('sign-in', { phone: owner.phone });
    expect(sent.statusCode).toBe(429);
    expect(sent.json()).toMatchObject({ reason: 'code_budget_spent' });
    const failures = await database.db
      .select()
      .from(otpEvents)
      .where(and(eq(otpEvents.phone, owner.phone), eq(otpEvents.kind, 'fail')));
    expect(failures).toHaveLength(10);

    // And it keeps working for the rest of the day (a second sign-in hours later).
    clock.advance(6 * HOUR);
    expect((await passkeySignIn(authenticator)).statusCode).toBe(200);
  });
});
