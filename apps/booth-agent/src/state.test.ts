import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLog } from './log.js';
import { StateFile } from './state.js';

let dir: string;
let fileCounter = 0;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'flashbooth-agent-state-unit-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A state file path of its own, in a folder that does not exist yet. */
function newStateFile(): string {
  fileCounter += 1;
  return path.join(dir, `booth-${fileCounter}`, 'state.json');
}

describe('StateFile', () => {
  it('does not trust a file with a wrong value', async () => {
    const stateFile = newStateFile();
    await mkdir(path.dirname(stateFile), { recursive: true });
    const bad = { format: 1, prints_left: -3, settings_revision: 2, software_version: '1' };
    await writeFile(stateFile, JSON.stringify(bad));
    const loaded = await new StateFile(stateFile, silentLog).load({
      prints_left: 700,
      settings_revision: 0,
      software_version: '2',
      pending_reports: [],
    });
    expect(loaded).toEqual({
      prints_left: 700,
      settings_revision: 0,
      software_version: '2',
      pending_reports: [],
    });
  });

  it('writes in the order asked, and reads back what it wrote', async () => {
    const stateFile = newStateFile();
    const file = new StateFile(stateFile, silentLog);
    const state = {
      prints_left: 5,
      settings_revision: 1,
      software_version: '3',
      pending_reports: [],
    };
    void file.save({ ...state, prints_left: 4 });
    void file.save({ ...state, prints_left: 3 });
    await file.settled();
    expect(JSON.parse(await readFile(stateFile, 'utf8'))).toMatchObject({
      format: 1,
      prints_left: 3,
    });
    expect(await file.load({ ...state, prints_left: 700 })).toEqual({ ...state, prints_left: 3 });
  });
});
