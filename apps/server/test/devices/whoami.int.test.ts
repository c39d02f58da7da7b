import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../databases.js';
import {
  bearer,
  createOrg,
  registerDevice,
  signedInSuperUser,
  startApp,
  type TestApp,
} from '../harness.js';

/**
 * GET /api/device/whoami (issue 39): the booth proves its credentials over HTTP, so
 * `flashbooth-booth doctor` checks them while the agent keeps its broker connection; a refusal
 * says which half of the credentials is wrong.
 */
describe('GET /api/device/whoami', () => {
  let running: TestApp;
  let token: string;
  beforeAll(async () => {
    running = await startApp(await openPglite());
    ({ token } = await signedInSuperUser(running));
  });
  afterAll(async () => {
    await running?.app.close();
    await running?.database.close();
  });

  const whoami = (authorization?: string) =>
    running.app.inject({
      method: 'GET',
      url: '/api/device/whoami',
      headers: authorization === undefined ? {} : { authorization },
    });

  it('answers the device its own credentials name, with its organization', async () => {
    const orgId = await createOrg(running.database, 'Pier Cafe');
    const device = await registerDevice(running.app, token, { name: 'Pier booth', orgId });
    const response = await whoami(device.auth.authorization);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      id: device.id,
      thing_name: device.thingName,
      name: 'Pier booth',
      organization: 'Pier Cafe',
    });
  });

  it('refuses a wrong secret as wrong_secret, and an unknown thing name as unknown_device', async () => {
    const device = await registerDevice(running.app, token);
    const wrong = await whoami(`Device ${device.thingName}:not-the-secret`);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({
      code: 'unauthorized',
      reason: 'wrong_secret',
      message: expect.stringContaining(`The secret is not ${device.thingName}'s`),
    });

    const unknown = await whoami(`Device fb-nosuchbooth:${device.secret}`);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({
      code: 'unauthorized',
      reason: 'unknown_device',
      message: expect.stringContaining('No device is registered as fb-nosuchbooth'),
    });

    // A name the server's rule refuses is unknown too, not an error.
    const malformed = await whoami(`Device Not_A_Thing:${device.secret}`);
    expect(malformed.json()).toMatchObject({ reason: 'unknown_device' });

    const none = await whoami();
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ code: 'unauthorized', reason: 'no_credentials' });
  });

  it('stops accepting a secret once the device is enrolled again', async () => {
    const device = await registerDevice(running.app, token);
    expect((await whoami(device.auth.authorization)).statusCode).toBe(200);
    const made = await running.app.inject({
      method: 'POST',
      url: `/api/enterprise/devices/${device.id}/enrollment-code`,
      headers: bearer(token),
    });
    expect(made.statusCode, made.body).toBe(201);
    const enrolled = await running.app.inject({
      method: 'POST',
      url: '/api/device/enroll',
      payload: { code: made.json<{ code: string }>().code },
    });
    expect(enrolled.statusCode, enrolled.body).toBe(200);
    const old = await whoami(device.auth.authorization);
    expect(old.json()).toMatchObject({ reason: 'wrong_secret' });
    const env = enrolled.json<Record<string, string>>();
    const fresh = await whoami(`Device ${env.BOOTH_THING_NAME}:${env.BOOTH_SECRET}`);
    expect(fresh.statusCode, fresh.body).toBe(200);
  });
});
