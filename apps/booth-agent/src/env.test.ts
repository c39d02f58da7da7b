import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FolderCamera } from './camera/folder-camera.js';
import { SimulatedCamera } from './camera/simulated-camera.js';
import { AgentEnvError, loadAgentEnv } from './env.js';
import { CupsPrinter } from './printer/cups-printer.js';
import { SimulatedPrinter } from './printer/simulated-printer.js';

const base = {
  BOOTH_MQTT_URL: 'mqtt://localhost:1884',
  BOOTH_THING_NAME: 'fb-abcdefghij',
  BOOTH_SECRET: 's3cret',
};

describe('loadAgentEnv', () => {
  it('reads a simulated booth with defaults', () => {
    const env = loadAgentEnv({ ...base, BOOTH_PRINTER: `simulated:${os.tmpdir()}/spool` });
    expect(env).toMatchObject({ ...{ mqttUrl: base.BOOTH_MQTT_URL }, thingName: 'fb-abcdefghij' });
    expect(env.camera).toBeInstanceOf(SimulatedCamera);
    expect(env.printer).toBeInstanceOf(SimulatedPrinter);
    expect(env.serverUrl).toBeUndefined();
  });

  it('reads a folder camera and a CUPS printer', () => {
    const env = loadAgentEnv({
      ...base,
      BOOTH_CAMERA: `folder:${os.tmpdir()}`,
      BOOTH_PRINTER: 'cups:Booth_DNP',
      BOOTH_SERVER_URL: 'https://flashbooth.example',
    });
    expect(env.camera).toBeInstanceOf(FolderCamera);
    expect(env.printer).toBeInstanceOf(CupsPrinter);
    expect(env.serverUrl).toBe('https://flashbooth.example');
  });

  it('names every missing or bad variable', () => {
    let error: unknown;
    try {
      loadAgentEnv({
        BOOTH_THING_NAME: 'Not A Serial',
        BOOTH_CAMERA: 'folder:/no/such/folder',
        BOOTH_PRINTER: 'laser',
        BOOTH_SERVER_URL: 'ftp://x',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AgentEnvError);
    const message = (error as Error).message;
    for (const name of [
      'BOOTH_MQTT_URL: required',
      'BOOTH_THING_NAME: must be',
      'BOOTH_SECRET: required',
      'BOOTH_CAMERA: the folder',
      'BOOTH_PRINTER: must be',
      'BOOTH_SERVER_URL: must be',
    ]) {
      expect(message).toContain(name);
    }
  });

  it('keeps the state file and releases in the data folder unless told otherwise', () => {
    const env = loadAgentEnv({ ...base, BOOTH_DATA_DIR: path.join(os.tmpdir(), 'booth-x') });
    expect(env.stateFile).toBe(path.join(os.tmpdir(), 'booth-x', 'state.json'));
    expect(env.releasesDir).toBe(path.join(os.tmpdir(), 'booth-x', 'releases'));
    expect(loadAgentEnv(base).stateFile).toBe(path.resolve('booth-data', 'state.json'));

    const own = loadAgentEnv({
      ...base,
      BOOTH_STATE_FILE: 'var/state/booth.json',
      BOOTH_RELEASES_DIR: '/opt/flashbooth/releases',
    });
    expect(own.stateFile).toBe(path.resolve('var/state/booth.json'));
    expect(own.releasesDir).toBe('/opt/flashbooth/releases');
  });

  it('uses the installed data folder whatever the working directory (issue 39)', async () => {
    const installed = await mkdtemp(path.join(os.tmpdir(), 'flashbooth-installed-'));
    const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'flashbooth-cwd-'));
    try {
      const env = loadAgentEnv(base, { cwd: elsewhere, installedDataDir: installed });
      expect(env.dataDir).toBe(installed);
      expect(env.stateFile).toBe(path.join(installed, 'state.json'));
      expect(env.queueDir).toBe(path.join(installed, 'queue'));
      expect(env.printerDescription).toBe(`simulated:${path.join(installed, 'booth-spool')}`);
      expect(JSON.stringify(env)).not.toContain(elsewhere);

      // A checkout (no installed folder) keeps ./booth-data and ./booth-spool where it runs.
      const missing = path.join(installed, 'not-installed');
      const dev = loadAgentEnv(base, { cwd: elsewhere, installedDataDir: missing });
      expect(dev.stateFile).toBe(path.join(elsewhere, 'booth-data', 'state.json'));
      expect(dev.printerDescription).toBe(`simulated:${path.join(elsewhere, 'booth-spool')}`);

      // BOOTH_DATA_DIR wins, and the spool goes in it.
      const given = loadAgentEnv(
        { ...base, BOOTH_DATA_DIR: 'data' },
        { cwd: elsewhere, installedDataDir: installed },
      );
      expect(given.dataDir).toBe(path.join(elsewhere, 'data'));
      expect(given.printerDescription).toBe(
        `simulated:${path.join(elsewhere, 'data', 'booth-spool')}`,
      );
    } finally {
      await rm(installed, { recursive: true, force: true });
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('refuses a folder as the state file and a file as the releases folder', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'flashbooth-agent-env-'));
    const file = path.join(dir, 'a-file');
    await writeFile(file, '');
    expect(() =>
      loadAgentEnv({ ...base, BOOTH_STATE_FILE: dir, BOOTH_RELEASES_DIR: file }),
    ).toThrow(/BOOTH_STATE_FILE: .* is a folder[\s\S]*BOOTH_RELEASES_DIR: .* is a file/);
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses an invalid CUPS queue name', () => {
    expect(() => loadAgentEnv({ ...base, BOOTH_PRINTER: 'cups:-oops' })).toThrow(
      /BOOTH_PRINTER: Invalid CUPS printer name/,
    );
  });
});
