import type { Pool } from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { passkeys, users } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import {
  apiCall,
  latestCode,
  newPhone,
  post,
  signedIn,
  startApp,
  type TestApp,
  type TestClock,
} from '../harness.js';
import { type CeremonyOptions, SoftAuthenticator } from './soft-authenticator.js';

const NOT_VERIFIED = 'This passkey could not be verified. Please try again.';
const CHALLENGE = 'This passkey request has expired or was already used. Please try again.';
const UNKNOWN =
  'This passkey is not registered for this sign-in. Sign in with your phone number, then add it from your profile.';
const PASSKEY_REQUIRED =
  'Your account signs in with a passkey. Choose "Sign in with a passkey" on the sign-in page.';

interface Options {
  challenge: string;
  rp: { id: string; name: string };
  user: { id: string; name: string; displayName: string };
  rpId?: string;
  authenticatorSelection?: Record<string, unknown>;
  excludeCredentials?: { id: string }[];
  allowCredentials?: unknown[];
}

/** Passkey calls of one app, as the web app makes them. */
function passkeyApi(app: FastifyInstance, origin: string) {
  const options = async (pool: Pool, token?: string) => {
    const url = token ? 'passkeys/registration/options' : 'passkeys/sign-in/options';
    const response = await apiCall(app, 'POST', url, token, undefined, pool);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ options: Options }>().options;
  };
  return {
    origin,
    options,
    newAuthenticator: (counting = true) =>
      new SoftAuthenticator({ origin, rpId: 'localhost', counting }),
    /** Registers `authenticator` for the signed-in caller; the raw response. */
    async register(
      pool: Pool,
      token: string,
      authenticator: SoftAuthenticator,
      name = 'My phone',
      tamper: CeremonyOptions = {},
    ) {
      const creation = await options(pool, token);
      const credential = authenticator.register(creation, tamper);
      return apiCall(
        app,
        'POST',
        'passkeys/registration/verify',
        token,
        { name, credential },
        pool,
      );
    },
    /** Signs in with `authenticator`; the raw response. */
    async signIn(pool: Pool, authenticator: SoftAuthenticator, tamper: CeremonyOptions = {}) {
      const request = await options(pool);
      const credential = authenticator.authenticate(request, tamper);
      return post(app, `/api/${pool}/passkeys/sign-in/verify`, { credential });
    },
    list: async (pool: Pool, token: string) =>
      (await apiCall(app, 'GET', 'passkeys', token, undefined, pool)).json<{
        items: { id: number; name: string; created_at: string; last_used_at: string | null }[];
        total_count: number;
      }>(),
  };
}

function expectRefused(response: { statusCode: number; json: () => unknown }, message: string) {
  expect(response.statusCode).toBe(400);
  expect(response.json()).toEqual({ message, code: 'bad_request' });
}

describe.each(databaseTargets)('passkeys on $name', ({ open }) => {
  let database: DatabaseHandle;
  let testApp: TestApp;
  let app: FastifyInstance;
  let clock: TestClock;
  let api: ReturnType<typeof passkeyApi>;

  beforeAll(async () => {
    database = await open();
    testApp = await startApp(database, { OTP_SEND_LIMIT_PER_IP: '10000' });
    ({ app, clock } = testApp);
    api = passkeyApi(app, testApp.config.webauthn.origins[0]!);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('takes the relying party from configuration, defaulting to this server on localhost', () => {
    expect(testApp.config.webauthn).toEqual({
      rpId: 'localhost',
      rpName: 'Flashbooth',
      origins: ['http://localhost:8080', 'http://localhost:5173'],
    });
  });

  it('registers a discoverable passkey after a code sign-in and lists it', async () => {
    const person = await signedIn(app, 'regular');
    const creation = await api.options('regular', person.token);
    expect(creation.rp).toEqual({ id: 'localhost', name: 'Flashbooth' });
    expect(creation.user.name).toBe(person.phone);
    // The user handle is opaque: neither the phone nor the row id.
    expect(Buffer.from(creation.user.id, 'base64url')).toHaveLength(32);
    expect(creation.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'required',
    });

    const authenticator = api.newAuthenticator();
    const added = await apiCall(
      app,
      'POST',
      'passkeys/registration/verify',
      person.token,
      { name: '  Pixel 8  ', credential: authenticator.register(creation) },
      'regular',
    );
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toEqual({
      id: expect.any(Number),
      name: 'Pixel 8',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
      last_used_at: null,
    });
    expect(await api.list('regular', person.token)).toEqual({
      items: [added.json()],
      total_count: 1,
    });

    // The next options exclude it, so the browser will not make a second one on that device.
    const again = await api.options('regular', person.token);
    expect(again.excludeCredentials?.map((c) => c.id)).toEqual([authenticator.id]);
    // The same credential twice is refused.
    const twice = await api.register('regular', person.token, authenticator);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ message: 'This passkey is already registered.' });
  });

  it('signs in with a passkey: the session of a code sign-in, and the use is recorded', async () => {
    const person = await signedIn(app, 'regular', newPhone(), 'Passkey Person');
    const authenticator = api.newAuthenticator();
    expect((await api.register('regular', person.token, authenticator)).statusCode).toBe(201);

    const request = await api.options('regular');
    expect(request.rpId).toBe('localhost');
    // Usernameless: no allow-list, the browser offers its passkeys for the site.
    expect(request.allowCredentials ?? []).toEqual([]);
    clock.advance(60);
    const response = await post(app, '/api/regular/passkeys/sign-in/verify', {
      credential: authenticator.authenticate(request),
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{
      access_token: string;
      expires_in: number;
      user: { id: number; name: string };
    }>();
    expect(body).toMatchObject({
      expires_in: 900,
      user: { id: person.userId, name: 'Passkey Person' },
    });
    const cookie = response.cookies.find((c) => c.name === 'flashbooth_refresh');
    expect(cookie).toMatchObject({ path: '/api/regular/auth', httpOnly: true, sameSite: 'Strict' });

    const me = await apiCall(app, 'GET', 'users/self', body.access_token, undefined, 'regular');
    expect(me.json()).toMatchObject({ id: person.userId, phone: person.phone });
    const refreshed = await app.inject({
      method: 'POST',
      url: '/api/regular/auth/refresh',
      cookies: { flashbooth_refresh: cookie!.value },
    });
    expect(refreshed.statusCode).toBe(200);

    const [listed] = (await api.list('regular', person.token)).items;
    expect(listed!.last_used_at).not.toBeNull();
    expect(listed!.last_used_at! > listed!.created_at).toBe(true);
    const [row] = await database.db.select().from(passkeys).where(eq(passkeys.id, listed!.id));
    expect(row!.counter).toBe(authenticator.counter);
  });

  it('accepts a challenge once: a replayed assertion or registration is refused', async () => {
    const person = await signedIn(app, 'regular');
    // An authenticator that keeps no counter (many synced passkeys): only the spent challenge stops a replay.
    const authenticator = api.newAuthenticator(false);
    const creation = await api.options('regular', person.token);
    const registration = authenticator.register(creation);
    const payload = { name: 'Laptop', credential: registration };
    expect(
      (await apiCall(app, 'POST', 'passkeys/registration/verify', person.token, payload, 'regular'))
        .statusCode,
    ).toBe(201);
    await database.db.delete(passkeys).where(eq(passkeys.userId, person.userId));
    expectRefused(
      await apiCall(app, 'POST', 'passkeys/registration/verify', person.token, payload, 'regular'),
      CHALLENGE,
    );
    expect((await api.register('regular', person.token, authenticator)).statusCode).toBe(201);

    const request = await api.options('regular');
    const assertion = { credential: authenticator.authenticate(request) };
    expect((await post(app, '/api/regular/passkeys/sign-in/verify', assertion)).statusCode).toBe(
      200,
    );
    expectRefused(await post(app, '/api/regular/passkeys/sign-in/verify', assertion), CHALLENGE);
    // The same passkey with a fresh challenge still works.
    expect((await api.signIn('regular', authenticator)).statusCode).toBe(200);
  });

  it('refuses challenges it did not make, of another purpose or pool, or expired', async () => {
    const person = await signedIn(app, 'regular');
    const other = await signedIn(app, 'regular');
    const authenticator = api.newAuthenticator();
    expect((await api.register('regular', person.token, authenticator)).statusCode).toBe(201);

    const madeUp = Buffer.alloc(47, 1).toString('base64url');
    expectRefused(await api.signIn('regular', authenticator, { challenge: madeUp }), CHALLENGE);
    // A registration challenge is no sign-in challenge.
    const creation = await api.options('regular', person.token);
    expectRefused(
      await api.signIn('regular', authenticator, { challenge: creation.challenge }),
      CHALLENGE,
    );
    // A registration challenge is only for the account that asked for it.
    const forOther = await api.options('regular', other.token);
    const stolen = api.newAuthenticator();
    expectRefused(
      await apiCall(
        app,
        'POST',
        'passkeys/registration/verify',
        person.token,
        {
          name: 'x',
          credential: stolen.register({ ...forOther, user: { ...forOther.user } }),
        },
        'regular',
      ),
      CHALLENGE,
    );
    // A challenge of the staff pool does not sign in to the visitors' pool.
    const staffRequest = await api.options('enterprise');
    const crossPool = authenticator.authenticate(staffRequest);
    expectRefused(
      await post(app, '/api/regular/passkeys/sign-in/verify', { credential: crossPool }),
      CHALLENGE,
    );
    // Five minutes and the challenge is gone.
    const request = await api.options('regular');
    clock.advance(301);
    expectRefused(
      await post(app, '/api/regular/passkeys/sign-in/verify', {
        credential: authenticator.authenticate(request),
      }),
      CHALLENGE,
    );
  });

  it('refuses another origin, another relying party and a missing user verification', async () => {
    const person = await signedIn(app, 'regular');
    const authenticator = api.newAuthenticator();
    for (const tamper of [
      { origin: 'https://evil.example' },
      { rpId: 'evil.example' },
      { noUserVerification: true },
    ]) {
      expectRefused(
        await api.register('regular', person.token, authenticator, 'x', tamper),
        NOT_VERIFIED,
      );
    }
    expect(await api.list('regular', person.token)).toEqual({ items: [], total_count: 0 });
    expect((await api.register('regular', person.token, authenticator)).statusCode).toBe(201);
    for (const tamper of [
      { origin: 'https://evil.example' },
      { origin: 'http://localhost:9999' },
      { rpId: 'evil.example' },
      { noUserVerification: true },
    ]) {
      expectRefused(await api.signIn('regular', authenticator, tamper), NOT_VERIFIED);
    }
    expect((await api.signIn('regular', authenticator)).statusCode).toBe(200);
  });

  it('refuses a counter that does not grow (a copied passkey)', async () => {
    const person = await signedIn(app, 'regular');
    const authenticator = api.newAuthenticator();
    expect((await api.register('regular', person.token, authenticator)).statusCode).toBe(201);
    expect((await api.signIn('regular', authenticator, { counter: 5 })).statusCode).toBe(200);
    expectRefused(await api.signIn('regular', authenticator, { counter: 3 }), NOT_VERIFIED);
    expectRefused(await api.signIn('regular', authenticator, { counter: 5 }), NOT_VERIFIED);
    expect((await api.signIn('regular', authenticator, { counter: 6 })).statusCode).toBe(200);
  });

  it('lets people rename and remove only their own passkeys', async () => {
    const owner = await signedIn(app, 'regular');
    const stranger = await signedIn(app, 'regular');
    const staff = await signedIn(app, 'enterprise');
    const authenticator = api.newAuthenticator();
    const added = (await api.register('regular', owner.token, authenticator)).json<{
      id: number;
    }>();

    for (const [token, pool] of [
      [stranger.token, 'regular'],
      [staff.token, 'enterprise'],
    ] as const) {
      const rename = await apiCall(
        app,
        'PATCH',
        `passkeys/${added.id}`,
        token,
        { name: 'Mine now' },
        pool,
      );
      expect(rename.statusCode).toBe(404);
      const remove = await apiCall(app, 'DELETE', `passkeys/${added.id}`, token, undefined, pool);
      expect(remove.statusCode).toBe(404);
      expect(remove.json()).toEqual({ message: 'Passkey not found.', code: 'not_found' });
    }
    expect((await api.list('regular', owner.token)).items).toHaveLength(1);

    const renamed = await apiCall(
      app,
      'PATCH',
      `passkeys/${added.id}`,
      owner.token,
      { name: 'Work phone' },
      'regular',
    );
    expect(renamed.json()).toMatchObject({ id: added.id, name: 'Work phone' });
    const removed = await apiCall(
      app,
      'DELETE',
      `passkeys/${added.id}`,
      owner.token,
      undefined,
      'regular',
    );
    expect(removed.statusCode).toBe(204);
    expect((await api.list('regular', owner.token)).items).toEqual([]);
    // A removed passkey no longer signs in.
    expectRefused(await api.signIn('regular', authenticator), UNKNOWN);
  });

  it("refuses the other pool's passkeys and those of a deleted account", async () => {
    const staff = await signedIn(app, 'enterprise');
    const authenticator = api.newAuthenticator();
    expect((await api.register('enterprise', staff.token, authenticator)).statusCode).toBe(201);
    expect((await api.options('enterprise', staff.token)).user.name).toBe(
      `${staff.phone} (Venue Portal)`,
    );
    expectRefused(await api.signIn('regular', authenticator), UNKNOWN);
    expect((await api.signIn('enterprise', authenticator)).statusCode).toBe(200);

    await database.db.delete(users).where(eq(users.id, staff.userId));
    expectRefused(await api.signIn('enterprise', authenticator), UNKNOWN);
  });

  it('answers bad input with 400 and a message, never a 500', async () => {
    const person = await signedIn(app, 'regular');
    const creation = await api.options('regular', person.token);
    const good = api.newAuthenticator().register(creation);
    const junk = Buffer.from('not cbor at all').toString('base64url');
    const registrations: unknown[] = [
      {},
      { name: 'x' },
      { name: '', credential: good },
      { name: 'x'.repeat(61), credential: good },
      { name: 'a\u0000b', credential: good },
      { name: 'x', credential: { ...good, type: 'password' } },
      {
        name: 'x',
        credential: { ...good, response: { ...good.response, attestationObject: junk } },
      },
      { name: 'x', credential: { ...good, response: { ...good.response, clientDataJSON: junk } } },
      { name: 'x', credential: { ...good, response: { ...good.response, clientDataJSON: '!!' } } },
      { name: 'x', credential: { ...good, id: 'A'.repeat(5000) } },
      { name: 'x', credential: 'text' },
    ];
    for (const body of registrations) {
      const response = await apiCall(
        app,
        'POST',
        'passkeys/registration/verify',
        person.token,
        body as object,
        'regular',
      );
      expect(response.statusCode, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(response.json<{ message: string }>().message).toBeTruthy();
    }
    const messages = (
      await apiCall(
        app,
        'POST',
        'passkeys/registration/verify',
        person.token,
        { name: '', credential: good },
        'regular',
      )
    ).json();
    expect(messages).toEqual({
      message: 'Please give the passkey a name.',
      code: 'validation_error',
    });

    const request = await api.options('regular');
    const assertion = api.newAuthenticator().authenticate(request);
    const signIns: unknown[] = [
      {},
      { credential: {} },
      { credential: { ...assertion, response: { ...assertion.response, signature: 'AAAA' } } },
      {
        credential: { ...assertion, response: { ...assertion.response, authenticatorData: junk } },
      },
      { credential: { ...assertion, response: { ...assertion.response, userHandle: '***' } } },
    ];
    for (const body of signIns) {
      const response = await post(app, '/api/regular/passkeys/sign-in/verify', body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 200)).toBe(400);
    }
    for (const id of ['0', 'abc', '99999999999']) {
      const response = await apiCall(
        app,
        'DELETE',
        `passkeys/${id}`,
        person.token,
        undefined,
        'regular',
      );
      expect(response.statusCode).toBe(400);
    }
  });

  it('needs a signed-in caller for everything but sign-in', async () => {
    for (const [method, url] of [
      ['GET', 'passkeys'],
      ['POST', 'passkeys/registration/options'],
      ['POST', 'passkeys/registration/verify'],
      ['PATCH', 'passkeys/1'],
      ['DELETE', 'passkeys/1'],
    ] as const) {
      const response = await apiCall(app, method, url, undefined, undefined, 'regular');
      expect(response.statusCode, url).toBe(401);
    }
  });

  it('without REQUIRE_PASSKEY_FOR_MONEY_STAFF a super user with a passkey may still use a code', async () => {
    const superUser = await signedIn(app, 'enterprise', testApp.superPhone);
    expect(
      (await api.register('enterprise', superUser.token, api.newAuthenticator())).statusCode,
    ).toBe(201);
    await expect(signedIn(app, 'enterprise', testApp.superPhone)).resolves.toMatchObject({
      userId: superUser.userId,
    });
  });

  describe('with REQUIRE_PASSKEY_FOR_MONEY_STAFF', () => {
    let strict: TestApp;
    let strictApi: ReturnType<typeof passkeyApi>;
    beforeAll(async () => {
      strict = await startApp(database, {
        OTP_SEND_LIMIT_PER_IP: '10000',
        REQUIRE_PASSKEY_FOR_MONEY_STAFF: 'true',
      });
      strictApi = passkeyApi(strict.app, strict.config.webauthn.origins[0]!);
    });
    afterAll(async () => {
      await strict.app.close();
    });

    it('lets a super user in by code until a passkey is added, then only by passkey', async () => {
      const { app: strictApp, superPhone } = strict;
      // No passkey yet: a code signs in, so one can be added.
      const first = await signedIn(strictApp, 'enterprise', superPhone, 'Super User');
      // A code sent now, checked after the passkey is added, is refused as well.
      expect(
        (await post(strictApp, '/api/enterprise/auth/sign-in', { phone: superPhone })).statusCode,
      ).toBe(200);
      const pending = await latestCode(strictApp, superPhone);

      const authenticator = strictApi.newAuthenticator();
      expect((await strictApi.register('enterprise', first.token, authenticator)).statusCode).toBe(
        201,
      );

      const signIn = await post(strictApp, '/api/enterprise/auth/sign-in', { phone: superPhone });
      expect(signIn.statusCode).toBe(403);
      expect(signIn.json()).toEqual({ message: PASSKEY_REQUIRED, code: 'forbidden' });
      const verify = await post(strictApp, '/api/enterprise/auth/verify', {
        phone: superPhone,
        code: pending,
      });
      expect(verify.statusCode).toBe(403);
      expect(verify.json()).toEqual({ message: PASSKEY_REQUIRED, code: 'forbidden' });

      const withPasskey = await strictApi.signIn('enterprise', authenticator);
      expect(withPasskey.statusCode).toBe(200);
      expect(withPasskey.json()).toMatchObject({ user: { id: first.userId, is_super_user: true } });
      // A session already issued goes on (refresh), until it ends or is signed out.
      const refreshed = await strictApp.inject({
        method: 'POST',
        url: '/api/enterprise/auth/refresh',
        cookies: { flashbooth_refresh: first.refreshCookie },
      });
      expect(refreshed.statusCode).toBe(200);

      // Removing the last passkey brings the code back (the person is signed in to do it).
      const [passkey] = (await strictApi.list('enterprise', first.token)).items;
      await apiCall(strictApp, 'DELETE', `passkeys/${passkey!.id}`, first.token);
      expect(
        (await post(strictApp, '/api/enterprise/auth/sign-in', { phone: superPhone })).statusCode,
      ).toBe(200);
    });

    it('applies to product admins, not to staff without refund or credit rights, nor visitors', async () => {
      const admin = await signedIn(strict.app, 'enterprise');
      await database.db
        .update(users)
        .set({ isFlashboothAdmin: true })
        .where(eq(users.id, admin.userId));
      expect(
        (await strictApi.register('enterprise', admin.token, strictApi.newAuthenticator()))
          .statusCode,
      ).toBe(201);
      expect(
        (await post(strict.app, '/api/enterprise/auth/sign-in', { phone: admin.phone })).statusCode,
      ).toBe(403);

      const member = await signedIn(strict.app, 'enterprise');
      expect(
        (await strictApi.register('enterprise', member.token, strictApi.newAuthenticator()))
          .statusCode,
      ).toBe(201);
      await expect(signedIn(strict.app, 'enterprise', member.phone)).resolves.toMatchObject({
        userId: member.userId,
      });

      const visitor = await signedIn(strict.app, 'regular');
      expect(
        (await strictApi.register('regular', visitor.token, strictApi.newAuthenticator()))
          .statusCode,
      ).toBe(201);
      await expect(signedIn(strict.app, 'regular', visitor.phone)).resolves.toMatchObject({
        userId: visitor.userId,
      });
    });
  });
});
