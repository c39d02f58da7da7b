import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../databases.js';
import { BoothFleet } from '../cluster/cluster.js';
import {
  bearer,
  registerDevice,
  signedInSuperUser,
  startApp,
  type RegisteredDeviceFixture,
  type TestApp,
} from '../harness.js';

/**
 * apps/booth-agent/src/fleet.ts, which `npm run bench:cluster` runs its 100 booths in: several
 * booths in one process, each the real agent with its own broker login, answering the console.
 */
describe('a booth fleet (several booths in one process)', () => {
  let running: TestApp;
  let serverUrl: string;
  let token: string;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flashbooth-fleet-'));

  beforeAll(async () => {
    running = await startApp(await openPglite());
    serverUrl = await running.app.listen({ port: 0, host: '127.0.0.1' });
    ({ token } = await signedInSuperUser(running));
  });
  afterAll(async () => {
    await running?.app.close();
    await running?.database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const fleetOf = (name: string, booths: { thingName: string; secret: string }[]) =>
    new BoothFleet(
      name,
      booths.map((booth) => ({ ...booth, dir: path.join(dir, name, booth.thingName) })),
      { mqttUrl: running.app.deviceBrokerUrl!, serverUrl, dir: path.join(dir, name) },
    );

  it('connects every booth, each answers its own ping, and all stop on SIGTERM', async () => {
    const devices: RegisteredDeviceFixture[] = [];
    for (const name of ['Fleet booth 1', 'Fleet booth 2', 'Fleet booth 3']) {
      devices.push(await registerDevice(running.app, token, { name }));
    }
    const fleet = fleetOf('fleet', devices);
    try {
      await fleet.start();
      for (const device of devices) {
        const ping = await running.app.inject({
          method: 'POST',
          url: `/api/enterprise/devices/${device.id}/ping`,
          headers: bearer(token),
        });
        expect(ping.statusCode, ping.body).toBe(200);
        expect(ping.json()).toMatchObject({ id: device.id, status: 'idle' });
        // Each booth's lines name it.
        expect(
          fleet.process.lines.some(
            (line) =>
              line.includes('booth connected and idle') &&
              line.includes(`"booth":"${device.thingName}"`),
          ),
        ).toBe(true);
      }
    } finally {
      await fleet.stop();
    }
    expect(fleet.process.running).toBe(false);
    expect(fleet.process.lines.some((line) => line.includes('shutting down'))).toBe(true);
  });

  it('refuses a fleet file with a booth it cannot run, naming the entry', async () => {
    const device = await registerDevice(running.app, token, { name: 'Fleet booth 4' });
    const fleet = fleetOf('broken', [device, { thingName: 'fb-nosecret', secret: '' }]);
    await expect(fleet.start()).rejects.toThrow('BOOTH_FLEET_FILE: [1].secret: required text');
  });
});
