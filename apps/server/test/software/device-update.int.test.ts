import { DEVICE_MESSAGES, SOFTWARE_MESSAGES } from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { devices } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { bearer } from '../harness.js';
import {
  expectError,
  type ScriptedBooth,
  sha256,
  UPDATE_TIMEOUT_MS,
  useSoftwareSuite,
} from './software-suite.js';

describe.each(databaseTargets)('software updates of a device on $name', ({ open }) => {
  const s = useSoftwareSuite(open);
  const {
    call,
    createChannel,
    createRelease,
    registerDevice,
    setChannel,
    connectBooth,
    deviceOnRelease,
  } = s;

  it('sends the release to the booth, which downloads, verifies and installs it', async () => {
    const { release, body, channel, device } = await deviceOnRelease();
    const booth = await connectBooth(device, 'install');

    const started = Date.now();
    const response = await call('POST', `devices/${device.id}/update`, s.superToken);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      id: device.id,
      thing_name: device.thing_name,
      software_channel_id: channel.id,
      software_channel_name: channel.name,
      software_version: release.version,
    });

    expect(booth.updates).toHaveLength(1);
    const [{ command, downloaded }] = booth.updates as [ScriptedBooth['updates'][number]];
    expect(command).toMatchObject({
      command: 'update',
      reply_to: expect.stringMatching(/^flashbooth\/server\/[\w-]+\/replies$/),
    });
    expect(command.payload).toEqual({
      release_id: release.id,
      version: release.version,
      url: expect.any(String),
      sha256: sha256(body),
      size_bytes: body.length,
    });
    // The booth got the very bytes that were uploaded, and the checksum the server computed.
    expect(downloaded).toEqual({ sha256: sha256(body), size: body.length });
    // The command expires when the server stops waiting for it (the update timeout).
    const expires = Date.parse(command.expires_at!);
    expect(expires - started).toBeGreaterThanOrEqual(UPDATE_TIMEOUT_MS - 50);
    expect(expires - Date.now()).toBeLessThanOrEqual(UPDATE_TIMEOUT_MS);

    const [row] = await s.database.db.select().from(devices).where(eq(devices.id, device.id));
    expect(row!.softwareVersion).toBe(release.version);
    // Product admins may update too.
    expect(
      (await call('POST', `devices/${device.id}/update`, s.productAdminToken)).statusCode,
    ).toBe(200);
    expect(booth.updates).toHaveLength(2);
  });

  it('answers 409 when the device has no release with a file to install', async () => {
    const device = await registerDevice();
    expectError(
      await call('POST', `devices/${device.id}/update`, s.superToken),
      409,
      SOFTWARE_MESSAGES.noRelease,
    );
    const empty = await createChannel({ name: `Empty ${s.tag}` });
    await setChannel(device.id, empty.id);
    expectError(
      await call('POST', `devices/${device.id}/update`, s.superToken),
      409,
      SOFTWARE_MESSAGES.noRelease,
    );
    const withoutFile = await createRelease();
    await call('PATCH', `software/channels/${empty.id}`, s.superToken, {
      release_id: withoutFile.id,
    });
    expectError(
      await call('POST', `devices/${device.id}/update`, s.superToken),
      409,
      SOFTWARE_MESSAGES.releaseNotUploaded,
    );
  });

  it('lets only super users and product admins update a device', async () => {
    const { device } = await deviceOnRelease();
    const booth = await connectBooth(device, 'install');
    // Staff of the device's organization see it, so they are refused; others do not see it.
    for (const token of [s.orgAdmin, s.orgMember]) {
      expect((await call('POST', `devices/${device.id}/update`, token)).statusCode).toBe(403);
    }
    expectError(
      await call('POST', `devices/${device.id}/update`, s.outsider),
      404,
      DEVICE_MESSAGES.notFound,
    );
    expect((await call('POST', `devices/${device.id}/update`, s.visitor)).statusCode).toBe(401);
    expect(
      (
        await s.app.inject({
          method: 'POST',
          url: `/api/regular/devices/${device.id}/update`,
          headers: bearer(s.visitor),
        })
      ).statusCode,
    ).toBe(404);
    expectError(
      await call('POST', 'devices/99999999/update', s.superToken),
      404,
      DEVICE_MESSAGES.notFound,
    );
    expect(booth.updates).toHaveLength(0);
  });

  it("passes on the booth's refusal (409 with its message) and keeps the old version", async () => {
    const { device } = await deviceOnRelease();
    await s.database.db
      .update(devices)
      .set({ softwareVersion: '0.9.0' })
      .where(eq(devices.id, device.id));
    const booth = await connectBooth(device, 'refuse');
    const response = await call('POST', `devices/${device.id}/update`, s.superToken);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      message: `${SOFTWARE_MESSAGES.updateRefused}: The checksum of the download did not match.`,
      code: 'conflict',
    });
    expect(booth.updates).toHaveLength(1);
    const [row] = await s.database.db.select().from(devices).where(eq(devices.id, device.id));
    expect(row!.softwareVersion).toBe('0.9.0');
  });

  it('answers 503 when the booth does not answer within the update timeout', async () => {
    const { device } = await deviceOnRelease();
    const booth = await connectBooth(device, 'silent');
    const started = Date.now();
    const response = await call('POST', `devices/${device.id}/update`, s.superToken);
    const elapsed = Date.now() - started;
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      message: DEVICE_MESSAGES.noAnswer,
      code: 'service_unavailable',
    });
    expect(booth.updates).toHaveLength(1);
    expect(elapsed).toBeGreaterThanOrEqual(UPDATE_TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(UPDATE_TIMEOUT_MS + 2000);
    // A booth that is not connected at all is just as silent.
    const offline = await registerDevice();
    const channelId = (await call('GET', `devices/${device.id}`, s.superToken)).json<{
      software_channel_id: number;
    }>().software_channel_id;
    await setChannel(offline.id, channelId);
    expectError(
      await call('POST', `devices/${offline.id}/update`, s.superToken),
      503,
      DEVICE_MESSAGES.noAnswer,
    );
  });

  it('answers a booth that has left the broker at once, without sending it the update', async () => {
    const { device } = await deviceOnRelease();
    const booth = await connectBooth(device, 'install');
    await booth.client.endAsync();
    const started = Date.now();
    const response = await call('POST', `devices/${device.id}/update`, s.superToken);
    const elapsed = Date.now() - started;
    expectError(response, 503, DEVICE_MESSAGES.noAnswer);
    // The broker knows it is away, so the update's whole timeout is not waited out.
    expect(elapsed).toBeLessThan(UPDATE_TIMEOUT_MS);
    expect(booth.updates).toHaveLength(0);
  });
});
