import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle } from '../../src/db/client.js';
import { openPglite } from '../databases.js';
import { bearer, signedIn, startApp } from '../harness.js';
import { ScriptedLink } from '../media-fixtures.js';

const HOOK_SECRET = 'hook-secret-0123456789abcdef';

describe('MQTT auth and ACL hooks for an external broker', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let device: { thing_name: string; secret: string };
  let other: { thing_name: string };

  beforeAll(async () => {
    database = await openPglite();
    // The embedded broker still runs (MQTT_URL absent); the hooks share its rules.
    ({ app } = await startApp(database, {
      SUPER_USER_PHONES: '+919999922222',
      MQTT_HOOK_SECRET: HOOK_SECRET,
    }));
    const { token } = await signedIn(app, 'enterprise', '+919999922222');
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

  const hook = (path: 'auth' | 'acl', payload: object, secret: string | null = HOOK_SECRET) =>
    app.inject({
      method: 'POST',
      url: `/api/mqtt/${path}`,
      payload,
      headers: secret === null ? {} : { 'x-flashbooth-hook-secret': secret },
    });

  it('refuses callers without the shared secret', async () => {
    const body = { username: device.thing_name, password: device.secret };
    expect((await hook('auth', body, null)).statusCode).toBe(403);
    expect((await hook('auth', body, 'wrong-secret-0123456789abcdef')).statusCode).toBe(403);
    expect(
      (await hook('acl', { username: 'x', topic: 'y', action: 'publish' }, null)).statusCode,
    ).toBe(403);
  });

  it('authenticates a device with its secret only', async () => {
    const allow = await hook('auth', {
      username: device.thing_name,
      password: device.secret,
      clientid: device.thing_name,
      peerhost: '10.0.0.7', // brokers send more; ignored
    });
    expect(allow.statusCode).toBe(200);
    expect(allow.json()).toEqual({ result: 'allow' });
    for (const body of [
      { username: device.thing_name, password: 'nope' },
      { username: device.thing_name, password: device.secret, clientid: 'someone-else' },
      { username: other.thing_name, password: device.secret },
      { username: 'fb-unknown0000', password: device.secret },
      { username: 'flashbooth-server', password: device.secret },
      {},
    ]) {
      const response = await hook('auth', body);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ result: 'deny' });
    }
  });

  it('allows a device only its own topics', async () => {
    const thing = device.thing_name;
    const cases: [string, 'publish' | 'subscribe', 'allow' | 'deny'][] = [
      [`flashbooth/devices/${thing}/status`, 'publish', 'allow'],
      ['flashbooth/server/abc123/replies', 'publish', 'allow'],
      [`flashbooth/devices/${thing}/commands`, 'subscribe', 'allow'],
      [`flashbooth/devices/${thing}/commands`, 'publish', 'deny'],
      [`flashbooth/devices/${thing}/status`, 'subscribe', 'deny'],
      [`flashbooth/devices/${other.thing_name}/status`, 'publish', 'deny'],
      [`flashbooth/devices/${other.thing_name}/commands`, 'subscribe', 'deny'],
      ['flashbooth/devices/+/commands', 'subscribe', 'deny'],
      ['flashbooth/#', 'subscribe', 'deny'],
      ['flashbooth/server/+/replies', 'subscribe', 'deny'],
      ['flashbooth/server/abc123/replies', 'subscribe', 'deny'],
      ['flashbooth/server/a/b/replies', 'publish', 'deny'],
      // Error reports: its own, published only.
      [`flashbooth/devices/${thing}/errors`, 'publish', 'allow'],
      [`flashbooth/devices/${thing}/errors`, 'subscribe', 'deny'],
      [`flashbooth/devices/${other.thing_name}/errors`, 'publish', 'deny'],
      ['flashbooth/devices/+/errors', 'subscribe', 'deny'],
      // Settings: its own, subscribed only; the server alone publishes them.
      [`flashbooth/devices/${thing}/settings`, 'subscribe', 'allow'],
      [`flashbooth/devices/${thing}/settings`, 'publish', 'deny'],
      [`flashbooth/devices/${other.thing_name}/settings`, 'subscribe', 'deny'],
      [`flashbooth/devices/${other.thing_name}/settings`, 'publish', 'deny'],
      ['flashbooth/devices/+/settings', 'subscribe', 'deny'],
    ];
    for (const [topic, action, result] of cases) {
      const response = await hook('acl', { username: thing, topic, action });
      expect({ topic, action, ...response.json() }).toEqual({ topic, action, result });
    }
    expect((await hook('acl', { username: thing, topic: 'x', action: 'delete' })).statusCode).toBe(
      400,
    );
  });

  it('lets the server (with its credentials) publish settings and hear every booth', async () => {
    // An external broker's configuration; the line itself is a stand-in (no broker needed).
    const server = await startApp(
      database,
      {
        MQTT_HOOK_SECRET: HOOK_SECRET,
        MQTT_URL: 'mqtt://127.0.0.1:1',
        MQTT_USERNAME: 'flashbooth-server-external',
        MQTT_PASSWORD: 'server-password-0123456789',
      },
      { deviceLink: new ScriptedLink() },
    );
    try {
      const acl = (username: string, topic: string, action: 'publish' | 'subscribe') =>
        server.app
          .inject({
            method: 'POST',
            url: '/api/mqtt/acl',
            payload: { username, topic, action },
            headers: { 'x-flashbooth-hook-secret': HOOK_SECRET },
          })
          .then((response) => response.json<{ result: string }>().result);
      const serverUser = 'flashbooth-server-external';
      expect(
        await acl(serverUser, `flashbooth/devices/${device.thing_name}/settings`, 'publish'),
      ).toBe('allow');
      expect(await acl(serverUser, 'flashbooth/devices/+/errors', 'subscribe')).toBe('allow');
      expect(await acl(serverUser, 'flashbooth/devices/+/status', 'subscribe')).toBe('allow');
      // A device cannot pass itself off as the server, whatever its name.
      expect(
        await acl(device.thing_name, `flashbooth/devices/${other.thing_name}/settings`, 'publish'),
      ).toBe('deny');
    } finally {
      await server.app.close();
    }
  });

  it('is absent when MQTT_HOOK_SECRET is unset', async () => {
    const plain = await startApp(database);
    const response = await plain.app.inject({ method: 'POST', url: '/api/mqtt/auth', payload: {} });
    expect(response.statusCode).toBe(404);
    await plain.app.close();
  });
});
