import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  formatSettings,
  parseSettings,
  withSettingsFile,
  writeSettingsFile,
} from './settings-file.js';

const temporaryDir = () => mkdtempSync(path.join(os.tmpdir(), 'booth-settings-'));

describe('the settings file', () => {
  it('reads KEY=VALUE lines, comments, export and quotes', () => {
    expect(
      parseSettings(
        [
          '# written by flashbooth-booth enroll',
          '',
          'BOOTH_THING_NAME=fb-abcdefghij',
          'export BOOTH_CAMERA="folder:/srv/my photos"',
          "BOOTH_PRINTER='cups:Canon_SELPHY'",
          'BOOTH_NOTE="say \\"cheese\\""',
        ].join('\n'),
      ),
    ).toEqual({
      BOOTH_THING_NAME: 'fb-abcdefghij',
      BOOTH_CAMERA: 'folder:/srv/my photos',
      BOOTH_PRINTER: 'cups:Canon_SELPHY',
      BOOTH_NOTE: 'say "cheese"',
    });
    expect(() => parseSettings('BOOTH_A=1\nnot a setting', 'booth.env')).toThrow(
      'booth.env, line 2: expected KEY=VALUE',
    );
  });

  it('writes what it reads back, quoting only where needed', () => {
    const values = {
      BOOTH_MQTT_URL: 'mqtts://broker.example:8883',
      BOOTH_SECRET: 'aB3-_x',
      BOOTH_CAMERA: 'folder:/srv/my "best" $photos',
    };
    const text = formatSettings(values, ['made by a test']);
    expect(text).toContain('BOOTH_SECRET=aB3-_x\n');
    expect(text.startsWith('# made by a test\n')).toBe(true);
    expect(parseSettings(text)).toEqual(values);
    expect(() => formatSettings({ BOOTH_A: 'two\nlines' })).toThrow(/one line/);
  });

  it('writes the file with mode 600 in a folder made with mode 700', () => {
    const dir = path.join(temporaryDir(), 'etc', 'flashbooth');
    const file = path.join(dir, 'booth.env');
    writeSettingsFile(file, 'BOOTH_A=1\n');
    writeSettingsFile(file, 'BOOTH_A=2\n');
    expect(readFileSync(file, 'utf8')).toBe('BOOTH_A=2\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('lets the environment win over the file, and names a missing file that was asked for', () => {
    const file = path.join(temporaryDir(), 'booth.env');
    writeFileSync(file, 'BOOTH_THING_NAME=fb-fromfile\nBOOTH_SECRET=file-secret\n');
    const { env, problem } = withSettingsFile({
      BOOTH_SETTINGS_FILE: file,
      BOOTH_SECRET: 'env-secret',
      BOOTH_CAMERA: '',
    });
    expect(problem).toBeUndefined();
    expect(env).toMatchObject({ BOOTH_THING_NAME: 'fb-fromfile', BOOTH_SECRET: 'env-secret' });

    const missing = path.join(path.dirname(file), 'none.env');
    expect(withSettingsFile({ BOOTH_SETTINGS_FILE: missing }).problem).toBe(
      `${missing} does not exist`,
    );
  });
});

describe('the agent reads its settings file', () => {
  it('takes the booth’s settings from BOOTH_SETTINGS_FILE, the environment winning', async () => {
    const { loadAgentEnv } = await import('./env.js');
    const file = path.join(temporaryDir(), 'booth.env');
    writeFileSync(
      file,
      formatSettings({
        BOOTH_MQTT_URL: 'mqtt://broker.example:1884',
        BOOTH_THING_NAME: 'fb-abcdefghij',
        BOOTH_SECRET: 'from-the-file',
        BOOTH_SERVER_URL: 'https://booths.example',
      }),
    );
    const env = loadAgentEnv({ BOOTH_SETTINGS_FILE: file, BOOTH_SECRET: 'from-the-environment' });
    expect(env).toMatchObject({
      mqttUrl: 'mqtt://broker.example:1884',
      thingName: 'fb-abcdefghij',
      secret: 'from-the-environment',
      serverUrl: 'https://booths.example',
    });
    expect(() => loadAgentEnv({ BOOTH_SETTINGS_FILE: `${file}.missing` })).toThrow(
      /BOOTH_SETTINGS_FILE: .*booth\.env\.missing does not exist/,
    );
  });
});
