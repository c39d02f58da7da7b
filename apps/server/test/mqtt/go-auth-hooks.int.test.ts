import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle } from '../../src/db/client.js';
import { openPglite } from '../databases.js';
import { bearer, signedIn, startApp } from '../harness.js';
import { ScriptedLink } from '../media-fixtures.js';

const HOOK_SECRET = 'go-auth-secret-0123456789abcdef';

/** What mosquitto-go-auth's HTTP backend sends (json params, status response mode). */
describe("MQTT hooks in the shape of Mosquitto's go-auth plugin", () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let device: { thing_name: string; secret: string };
  let other: { thing_name: string };

  beforeAll(async () => {
    database = await openPglite();
    // An external broker (never connected: the test stands in for the line to the booths).
    ({ app } = await startApp(
      database,
      {
        SUPER_USER_PHONES: '+919999933333',
        MQTT_URL: 'mqtt://127.0.0.1:1',
        MQTT_HOOK_SECRET: HOOK_SECRET,
        MQTT_USERNAME: 'flashbooth-server',
        MQTT_PASSWORD: 'server-password-0123456789',
      },
      { deviceLink: new ScriptedLink() },
    ));
    const { token } = await signedIn(app, 'enterprise', '+919999933333');
    const register = () =>
      app
        .inject({ method: 'POST', url: '/api/enterprise/devices', headers: bearer(token) })
        .then((response) => response.json<{ thing_name: string; secret: string }>());
    device = await register();
    other = await register();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const hook = (path: 'user' | 'acl', payload: object, secret: string | null = HOOK_SECRET) =>
    app.inject({
      method: 'POST',
      url: `/api/mqtt/go-auth/${path}${secret === null ? '' : `?secret=${encodeURIComponent(secret)}`}`,
      payload,
    });

  it('refuses callers without the secret in the URI', async () => {
    const body = {
      username: device.thing_name,
      password: device.secret,
      clientid: device.thing_name,
    };
    expect((await hook('user', body, null)).statusCode).toBe(403);
    expect((await hook('user', body, `${HOOK_SECRET}x`)).statusCode).toBe(403);
    expect((await hook('user', body)).statusCode).toBe(200);
  });

  it('allows a device with its secret and its own client id, and the server; denies the rest with 403', async () => {
    const own = { username: device.thing_name, clientid: device.thing_name };
    expect((await hook('user', { ...own, password: device.secret })).statusCode).toBe(200);
    expect((await hook('user', { ...own, password: 'wrong' })).statusCode).toBe(403);
    expect(
      (await hook('user', { ...own, clientid: other.thing_name, password: device.secret }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await hook('user', {
          username: 'flashbooth-server',
          password: 'server-password-0123456789',
          clientid: 'flashbooth-server-1',
        })
      ).statusCode,
    ).toBe(200);
  });

  it("maps Mosquitto's access bits onto the device's topic rules", async () => {
    const thing = device.thing_name;
    const acl = (topic: string, acc: number, username = thing) =>
      hook('acl', { username, clientid: username, topic, acc });
    // 2 = publish: its own status, never another's; 4 = subscribe, 1 = a message delivered.
    expect((await acl(`flashbooth/devices/${thing}/status`, 2)).statusCode).toBe(200);
    expect((await acl(`flashbooth/devices/${other.thing_name}/status`, 2)).statusCode).toBe(403);
    expect((await acl(`flashbooth/devices/${thing}/commands`, 4)).statusCode).toBe(200);
    expect((await acl(`flashbooth/devices/${thing}/commands`, 1)).statusCode).toBe(200);
    expect((await acl(`flashbooth/devices/${thing}/commands`, 2)).statusCode).toBe(403);
    expect((await acl(`flashbooth/devices/${other.thing_name}/commands`, 4)).statusCode).toBe(403);
    expect((await acl('flashbooth/devices/#', 4)).statusCode).toBe(403);
    expect((await acl('flashbooth/devices/#', 4, 'flashbooth-server')).statusCode).toBe(200);
  });
});
