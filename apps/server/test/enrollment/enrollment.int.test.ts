import {
  ENROLLMENT_CODE_ALPHABET,
  ENROLLMENT_MESSAGES,
  type EnrollmentCode,
  type EnrollResponse,
} from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deviceEnrollmentCodes, devices } from '../../src/db/schema.js';
import { hashDeviceSecret } from '../../src/security/device-credentials.js';
import { databaseTargets } from '../databases.js';
import { useDevicesSuite } from '../devices/devices-suite.js';
import { registerDevice, signedInSuperUser } from '../harness.js';

const CODE = new RegExp(`^[${ENROLLMENT_CODE_ALPHABET}]{4}-[${ENROLLMENT_CODE_ALPHABET}]{4}$`);

let addressCounter = 0;
/** A client address of its own per test, so one test's wrong codes never throttle another. */
const newAddress = () => {
  addressCounter += 1;
  return `10.22.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
};

describe.each(databaseTargets)('device enrollment on $name', ({ open }) => {
  const s = useDevicesSuite(open);

  const makeCode = async (deviceId: number, token = s.superToken) => {
    const response = await s.call('POST', `devices/${deviceId}/enrollment-code`, token);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<EnrollmentCode>();
  };
  const enroll = (code: string, remoteAddress: string) =>
    s.app.inject({
      method: 'POST',
      url: '/api/device/enroll',
      payload: { code },
      remoteAddress,
      headers: { host: 'booths.test:8080' },
    });
  /** A booth's own HTTP call with these credentials: 401 when they are refused. */
  const deviceCall = (thingName: string, secret: string) =>
    s.app.inject({
      method: 'POST',
      url: '/api/device/media/2147483647/uploaded',
      headers: { authorization: `Device ${thingName}:${secret}` },
      payload: {},
    });

  it('makes a code for those who manage devices; others get 403, or 404 for a device they cannot see', async () => {
    const device = await s.device(s.orgA);
    const code = await makeCode(device.id);
    expect(code.code).toMatch(CODE);
    expect(code.device_id).toBe(device.id);
    const expires = Date.parse(`${code.expires_at}Z`);
    expect(expires - s.testApp.clock.now().getTime()).toBeGreaterThan(29 * 60_000);
    expect(expires - s.testApp.clock.now().getTime()).toBeLessThanOrEqual(30 * 60_000);
    expect(code.command).toBe(
      `curl -fsSL ${code.server_url}/booth/install.sh | sudo sh -s -- ${code.code}`,
    );
    expect(code.enroll_command).toBe(
      `sudo flashbooth-booth enroll ${code.server_url} ${code.code}`,
    );
    await makeCode(device.id, s.productAdminToken);

    const status = async (token: string, id = device.id) =>
      (await s.call('POST', `devices/${id}/enrollment-code`, token)).statusCode;
    expect(await status(s.adminA)).toBe(403);
    expect(await status(s.memberA)).toBe(403);
    expect(await status(s.adminB)).toBe(404);
    expect(await status(s.visitor)).toBe(401);
    expect(await status(s.superToken, 2_000_000_000)).toBe(404);
    const anonymous = await s.app.inject({
      method: 'POST',
      url: `/api/enterprise/devices/${device.id}/enrollment-code`,
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('keeps only a keyed hash of the code', async () => {
    const device = await s.device();
    const { code } = await makeCode(device.id);
    const rows = await s.database.db
      .select()
      .from(deviceEnrollmentCodes)
      .where(eq(deviceEnrollmentCodes.deviceId, device.id));
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(code);
    expect(stored).not.toContain(code.replace('-', ''));
    expect(rows[0]!.codeHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('trades the code once for the booth’s settings with a new secret; the old one stops working', async () => {
    const device = await s.device(s.orgA);
    expect((await deviceCall(device.thing_name, device.secret)).statusCode).not.toBe(401);
    const { code } = await makeCode(device.id);
    const address = newAddress();

    // Typed the way a person might: lower case, without the dash.
    const response = await enroll(code.replace('-', '').toLowerCase(), address);
    expect(response.statusCode, response.body).toBe(200);
    const settings = response.json<EnrollResponse>();
    expect(Object.keys(settings).sort()).toEqual([
      'BOOTH_MQTT_URL',
      'BOOTH_SECRET',
      'BOOTH_SERVER_URL',
      'BOOTH_THING_NAME',
    ]);
    expect(settings.BOOTH_THING_NAME).toBe(device.thing_name);
    expect(settings.BOOTH_SERVER_URL).toBe('http://booths.test:8080');
    expect(settings.BOOTH_MQTT_URL).toMatch(/^mqtt:\/\/booths\.test:\d+$/);
    expect(settings.BOOTH_SECRET).not.toBe(device.secret);
    expect(settings.BOOTH_SECRET.length).toBeGreaterThanOrEqual(43);

    const [row] = await s.database.db.select().from(devices).where(eq(devices.id, device.id));
    expect(row!.secretHash).toBe(hashDeviceSecret(settings.BOOTH_SECRET));
    expect((await deviceCall(device.thing_name, device.secret)).statusCode).toBe(401);
    expect((await deviceCall(device.thing_name, settings.BOOTH_SECRET)).statusCode).not.toBe(401);

    const again = await enroll(code, address);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ code: 'conflict', message: ENROLLMENT_MESSAGES.used });
    const [after] = await s.database.db.select().from(devices).where(eq(devices.id, device.id));
    expect(after!.secretHash).toBe(row!.secretHash);
  });

  it('enrolls exactly one booth when the same code is raced', async () => {
    const device = await s.device();
    const { code } = await makeCode(device.id);
    const address = newAddress();
    const responses = await Promise.all(Array.from({ length: 6 }, () => enroll(code, address)));
    const winners = responses.filter((response) => response.statusCode === 200);
    expect(winners).toHaveLength(1);
    expect(responses.filter((response) => response.statusCode === 409)).toHaveLength(5);
    const [row] = await s.database.db.select().from(devices).where(eq(devices.id, device.id));
    expect(row!.secretHash).toBe(hashDeviceSecret(winners[0]!.json<EnrollResponse>().BOOTH_SECRET));
  });

  it('refuses a code that is not one with 400', async () => {
    for (const code of ['ABCD-EFG', 'ABCD-EFG0', '', 'x'.repeat(40)]) {
      const response = await enroll(code, newAddress());
      expect(response.statusCode, code).toBe(400);
      expect(response.json().message).toContain(ENROLLMENT_MESSAGES.invalidFormat);
    }
  });

  it('stops checking codes from an address after 10 wrong ones in 15 minutes', async () => {
    const device = await s.device();
    const { code } = await makeCode(device.id);
    const address = newAddress();
    for (let i = 0; i < 10; i += 1) {
      expect((await enroll('ZZZZ-ZZZZ', address)).statusCode).toBe(401);
    }
    const throttled = await enroll(code, address);
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json()).toEqual({
      code: 'too_many_attempts',
      message: ENROLLMENT_MESSAGES.tooManyTries,
    });
    // Another address is not held back, and the code was not used by the refused call.
    const elsewhere = await makeCode(device.id);
    expect((await enroll(elsewhere.code, newAddress())).statusCode).toBe(200);

    const later = await makeCode(device.id);
    s.testApp.clock.advance(15 * 60 + 1);
    expect((await enroll(later.code, address)).statusCode).toBe(200);
  });
  // Last: it moves the clock past the staff tokens' lifetime.
  it('refuses an expired code, and a code replaced by a newer one, with clear messages', async () => {
    // A fresh session: an earlier test moved the clock past the suite's tokens.
    const { token } = await signedInSuperUser(s.testApp);
    const device = await registerDevice(s.app, token);
    const first = await makeCode(device.id, token);
    const second = await makeCode(device.id, token);
    const address = newAddress();
    const replaced = await enroll(first.code, address);
    expect(replaced.statusCode).toBe(401);
    expect(replaced.json()).toEqual({
      code: 'code_mismatch',
      message: ENROLLMENT_MESSAGES.unknown,
    });

    s.testApp.clock.advance(30 * 60 + 1);
    const expired = await enroll(second.code, address);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ code: 'code_expired', message: ENROLLMENT_MESSAGES.expired });
    const [row] = await s.database.db.select().from(devices).where(eq(devices.id, device.id));
    expect(row!.secretHash).toBe(hashDeviceSecret(device.secret));
  });
});
