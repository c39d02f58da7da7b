import { afterEach, describe, expect, it } from 'vitest';
import { openPglite } from '../databases.js';
import { bearer, signedInSuperUser, startApp, type TestApp, testConfig } from '../harness.js';
import { connectAsBooth } from '../mqtt-fixtures.js';

/**
 * POST devices answers the booth's environment block (`booth_env`) beside the secret: where the
 * booth finds the broker and this server. Configuration only, so PGlite alone.
 */
describe('devices API: the env block of a registered booth', () => {
  let running: TestApp | undefined;
  afterEach(async () => {
    await running?.app.close();
    await running?.database.close();
    running = undefined;
  });

  const register = async (testApp: TestApp, host?: string) => {
    const { token } = await signedInSuperUser(testApp);
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/enterprise/devices',
      headers: { ...bearer(token), ...(host ? { host } : {}) },
    });
    expect(response.statusCode).toBe(201);
    return response.json<{
      id: number;
      thing_name: string;
      secret: string;
      booth_env: Record<string, string>;
    }>();
  };

  it('gives the embedded broker’s bound port on the host the request came to, and it works', async () => {
    running = await startApp(await openPglite());
    const port = new URL(running.app.deviceBrokerUrl!).port;
    const device = await register(running, '127.0.0.1:8141');
    expect(device.booth_env).toEqual({
      BOOTH_MQTT_URL: `mqtt://127.0.0.1:${port}`,
      BOOTH_THING_NAME: device.thing_name,
      BOOTH_SECRET: device.secret,
      BOOTH_SERVER_URL: 'http://127.0.0.1:8141',
    });

    // A booth with exactly that block logs in to the broker.
    const env = device.booth_env;
    const booth = await connectAsBooth(
      env.BOOTH_MQTT_URL!,
      env.BOOTH_THING_NAME!,
      env.BOOTH_SECRET!,
    );
    expect(booth.connected).toBe(true);
    await booth.endAsync();

    // Shown once: reading the device never gives the secret or the block again.
    const { token } = await signedInSuperUser(running);
    const read = await running.app.inject({
      method: 'GET',
      url: `/api/enterprise/devices/${device.id}`,
      headers: bearer(token),
    });
    expect(read.json()).not.toHaveProperty('booth_env');
    expect(read.body).not.toContain(device.secret);
  });

  it('prefers BOOTH_MQTT_PUBLIC_URL and PUBLIC_URL when they are set', async () => {
    running = await startApp(await openPglite(), {
      BOOTH_MQTT_PUBLIC_URL: 'mqtts://mqtt.flashbooth.example:8883',
      PUBLIC_URL: 'https://photos.flashbooth.example/',
    });
    const device = await register(running, 'internal-host:8080');
    expect(device.booth_env).toMatchObject({
      BOOTH_MQTT_URL: 'mqtts://mqtt.flashbooth.example:8883',
      BOOTH_SERVER_URL: 'https://photos.flashbooth.example',
    });
  });

  it('uses PUBLIC_URL’s host for the embedded broker when only PUBLIC_URL is set', async () => {
    running = await startApp(await openPglite(), {
      PUBLIC_URL: 'https://photos.flashbooth.example',
    });
    const port = new URL(running.app.deviceBrokerUrl!).port;
    const device = await register(running, 'internal-host:8080');
    expect(device.booth_env.BOOTH_MQTT_URL).toBe(`mqtt://photos.flashbooth.example:${port}`);
  });

  it('refuses a BOOTH_MQTT_PUBLIC_URL that is not a broker URL, naming it', () => {
    expect(() => testConfig({ BOOTH_MQTT_PUBLIC_URL: 'http://broker.example' })).toThrow(
      /BOOTH_MQTT_PUBLIC_URL/,
    );
  });
});
