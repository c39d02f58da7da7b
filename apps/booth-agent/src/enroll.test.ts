import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { enroll, EnrollError, parseEnrollArgs } from './enroll.js';
import { parseSettings } from './settings-file.js';

const SETTINGS = {
  BOOTH_MQTT_URL: 'mqtts://broker.example:8883',
  BOOTH_THING_NAME: 'fb-abcdefghij',
  BOOTH_SECRET: 'new-secret',
  BOOTH_SERVER_URL: 'https://booths.example',
};

/** A server that answers `status` and `body` to every call, and records the calls. */
function fakeFetch(status: number, body: unknown) {
  const calls: { url: string; body: unknown }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, body: JSON.parse(String(init.body)) });
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

describe('flashbooth-booth enroll', () => {
  it('reads the server, the code and the options', () => {
    expect(parseEnrollArgs(['booths.example/', 'abcd efgh', '--settings', 'x.env'])).toEqual({
      serverUrl: 'https://booths.example',
      code: 'ABCDEFGH',
      settingsFile: path.resolve('x.env'),
      restart: true,
    });
    expect(parseEnrollArgs(['http://10.0.0.5:8080', 'ABCD-EFGH', '--no-restart']).restart).toBe(
      false,
    );
    expect(() => parseEnrollArgs(['https://booths.example'])).toThrow(/Usage/);
    expect(() => parseEnrollArgs(['https://booths.example', 'ABCD-EFG0'])).toThrow(EnrollError);
    expect(() => parseEnrollArgs(['ftp://booths.example', 'ABCD-EFGH'])).toThrow(/http/);
  });

  it('writes the answered settings, keeping the other settings of the file', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'booth-enroll-')), 'booth.env');
    writeFileSync(file, 'BOOTH_CAMERA=webcam\nBOOTH_SECRET=old\n');
    const server = fakeFetch(200, SETTINGS);
    const printed: string[] = [];
    await enroll(
      { serverUrl: 'https://booths.example', code: 'ABCDEFGH', settingsFile: file, restart: true },
      {
        fetch: server.fetch,
        print: (line) => printed.push(line),
        restartService: () => Promise.reject(new Error('not this file')),
        serviceInstalled: () => true,
      },
    );
    expect(server.calls).toEqual([
      { url: 'https://booths.example/api/device/enroll', body: { code: 'ABCDEFGH' } },
    ]);
    expect(parseSettings(readFileSync(file, 'utf8'))).toEqual({
      BOOTH_CAMERA: 'webcam',
      ...SETTINGS,
    });
    expect(printed.join('\n')).toContain(`BOOTH_SETTINGS_FILE=${file} flashbooth-booth run`);
  });

  it('says why the server refused, and writes nothing', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'booth-enroll-')), 'booth.env');
    const server = fakeFetch(409, { code: 'conflict', message: 'This enrollment code was used.' });
    await expect(
      enroll(
        {
          serverUrl: 'https://booths.example',
          code: 'ABCDEFGH',
          settingsFile: file,
          restart: false,
        },
        {
          fetch: server.fetch,
          print: () => {},
          restartService: async () => '',
          serviceInstalled: () => false,
        },
      ),
    ).rejects.toThrow('The server refused the code (HTTP 409): This enrollment code was used.');
    expect(() => readFileSync(file)).toThrow();
  });
});
