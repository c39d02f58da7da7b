import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { FolderCamera } from '../src/camera/folder-camera.js';
import { SimulatedCamera } from '../src/camera/simulated-camera.js';
import { AgentEnvError, loadAgentEnv } from '../src/env.js';
import { CupsPrinter } from '../src/printer/cups-printer.js';
import { SimulatedPrinter } from '../src/printer/simulated-printer.js';

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

  it('refuses an invalid CUPS queue name', () => {
    expect(() => loadAgentEnv({ ...base, BOOTH_PRINTER: 'cups:-oops' })).toThrow(
      /BOOTH_PRINTER: Invalid CUPS printer name/,
    );
  });
});
