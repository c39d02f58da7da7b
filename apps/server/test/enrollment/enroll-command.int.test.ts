import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type EnrollmentCode, ENROLLMENT_MESSAGES } from '@flashbooth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../databases.js';
import { bearer, registerDevice, signedInSuperUser, startApp, type TestApp } from '../harness.js';
import { connectAsBooth } from '../mqtt-fixtures.js';

const BOOTH_COMMAND = fileURLToPath(
  new URL('../../../booth-agent/bin/flashbooth-booth', import.meta.url),
);
const run = promisify(execFile);

/** Runs the booth's real command; resolves to its exit code and output (never rejects). */
async function flashboothBooth(args: string[], cwd: string) {
  try {
    const { stdout, stderr } = await run(BOOTH_COMMAND, args, { cwd, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** KEY=VALUE lines of the settings file, comments skipped. */
function settingsOf(file: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

/**
 * Issue 22, item 5, end to end: staff register a device and make a code; the booth's real
 * `flashbooth-booth enroll` (its own process) trades it with the server listening on a port,
 * writes the settings file, and the booth logs in to the broker with what it wrote.
 */
describe('flashbooth-booth enroll against a running server', () => {
  let running: TestApp;
  let serverUrl: string;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flashbooth-enroll-'));

  beforeAll(async () => {
    running = await startApp(await openPglite());
    serverUrl = await running.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await running?.app.close();
    await running?.database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the booth’s settings (mode 600), which log in; the code works once; the old secret stops working', async () => {
    const { token } = await signedInSuperUser(running);
    const device = await registerDevice(running.app, token, { name: 'Lobby booth' });
    const made = await running.app.inject({
      method: 'POST',
      url: `/api/enterprise/devices/${device.id}/enrollment-code`,
      headers: bearer(token),
    });
    expect(made.statusCode, made.body).toBe(201);
    const { code } = made.json<EnrollmentCode>();

    const settingsFile = path.join(dir, 'etc', 'flashbooth', 'booth.env');
    const enrolled = await flashboothBooth(
      ['enroll', serverUrl, code, '--settings', settingsFile],
      os.tmpdir(),
    );
    expect(enrolled.code, enrolled.stderr).toBe(0);
    expect(enrolled.stdout).toContain(`Enrolled as ${device.thingName}`);
    expect(enrolled.stdout).toContain(`Settings written to ${settingsFile} (mode 600).`);

    expect(statSync(settingsFile).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(settingsFile)).mode & 0o777).toBe(0o700);
    const settings = settingsOf(settingsFile);
    const brokerPort = new URL(running.app.deviceBrokerUrl!).port;
    expect(settings).toEqual({
      BOOTH_MQTT_URL: `mqtt://127.0.0.1:${brokerPort}`,
      BOOTH_THING_NAME: device.thingName,
      BOOTH_SECRET: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      BOOTH_SERVER_URL: serverUrl,
    });
    expect(settings.BOOTH_SECRET).not.toBe(device.secret);

    // The booth logs in to the broker with what was written; the secret shown at registration
    // no longer does, on the broker or on the booth's HTTP calls.
    const booth = await connectAsBooth(
      settings.BOOTH_MQTT_URL!,
      settings.BOOTH_THING_NAME!,
      settings.BOOTH_SECRET!,
    );
    expect(booth.connected).toBe(true);
    await booth.endAsync();
    await expect(
      connectAsBooth(settings.BOOTH_MQTT_URL!, device.thingName, device.secret),
    ).rejects.toThrow();
    const deviceCall = (secret: string) =>
      running.app.inject({
        method: 'POST',
        url: '/api/device/media/2147483647/uploaded',
        headers: { authorization: `Device ${device.thingName}:${secret}` },
        payload: {},
      });
    expect((await deviceCall(device.secret)).statusCode).toBe(401);
    expect((await deviceCall(settings.BOOTH_SECRET!)).statusCode).not.toBe(401);

    // The same code a second time: refused in words, and the file is left as it was.
    const written = readFileSync(settingsFile, 'utf8');
    const again = await flashboothBooth(
      ['enroll', serverUrl, code, '--settings', settingsFile],
      dir,
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`(HTTP 409): ${ENROLLMENT_MESSAGES.used}`);
    expect(readFileSync(settingsFile, 'utf8')).toBe(written);
  });
});
