import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingLog } from '../test/fakes.js';
import { BoothStateStore } from './booth-state.js';
import { CURRENT_RELEASE_FILE } from './updater.js';

let dir: string;
let counter = 0;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'flashbooth-agent-store-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A booth folder of its own (not created yet). */
function boothDir(): string {
  counter += 1;
  return path.join(dir, `booth-${counter}`);
}

describe('BoothStateStore', () => {
  it('refuses a first-run prints left that is not a whole number of at least 0', () => {
    for (const printsLeft of [-1, 2.5, Number.NaN]) {
      expect(
        () => new BoothStateStore({ printsLeft, buildVersion: '1', log: recordingLog() }),
      ).toThrow(/printsLeft must be a whole number of at least 0/);
    }
  });

  it('numbers each start after the last one, by the clock or past the saved one when the clock is behind', async () => {
    const stateFile = path.join(boothDir(), 'state.json');
    const start = async (now: Date) => {
      const store = new BoothStateStore({
        printsLeft: 700,
        buildVersion: '1',
        stateFile,
        now: () => now,
        log: recordingLog(),
      });
      expect(() => store.boot).toThrow(/not loaded/);
      await store.load();
      return store.boot;
    };
    const first = await start(new Date('2026-12-04T10:00:00Z'));
    expect(first).toBe(Date.parse('2026-12-04T10:00:00Z'));
    // A Raspberry Pi without a clock restarts with the time it saved an hour before.
    expect(await start(new Date('2026-12-04T09:00:00Z'))).toBe(first + 1);
    expect(await start(new Date('2026-12-04T11:00:00Z'))).toBe(Date.parse('2026-12-04T11:00:00Z'));
    expect(JSON.parse(await readFile(stateFile, 'utf8'))).toMatchObject({
      last_boot: Date.parse('2026-12-04T11:00:00Z'),
    });
  });

  it('keeps the file’s values over the first-run defaults and writes the file at once', async () => {
    const stateFile = path.join(boothDir(), 'state.json');
    await mkdir(path.dirname(stateFile), { recursive: true });
    await writeFile(
      stateFile,
      JSON.stringify({ format: 1, prints_left: 42, settings_revision: 7, software_version: '1' }),
    );
    const store = new BoothStateStore({
      printsLeft: 700,
      buildVersion: '1',
      stateFile,
      log: recordingLog(),
    });
    expect(store.state.prints_left).toBe(700);
    await store.load();
    expect(store.state).toMatchObject({ prints_left: 42, settings_revision: 7 });
    // Loaded once: a second start keeps what changed since.
    store.state.prints_left = 41;
    await store.load();
    expect(store.state.prints_left).toBe(41);
  });

  it('reports the installed release’s version (current.json), else this build’s', async () => {
    const base = boothDir();
    const releasesDir = path.join(base, 'releases');
    const file = path.join(releasesDir, '2.0.0', 'booth.tar.gz');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, 'release');
    await writeFile(
      path.join(releasesDir, CURRENT_RELEASE_FILE),
      JSON.stringify({ release_id: 5, version: '2.0.0', file }),
    );
    const log = recordingLog();
    const stateFile = path.join(base, 'state.json');
    const store = new BoothStateStore({
      printsLeft: 700,
      buildVersion: '1.0.0',
      stateFile,
      releasesDir,
      log,
    });
    await store.load();
    expect(store.state.software_version).toBe('2.0.0');
    expect(log.messages('info')).toContain('the software version changed since the last run');
    expect(JSON.parse(await readFile(stateFile, 'utf8'))).toMatchObject({
      software_version: '2.0.0',
    });

    const none = new BoothStateStore({
      printsLeft: 700,
      buildVersion: '1.0.0',
      releasesDir: path.join(boothDir(), 'releases'),
      log,
    });
    await none.load();
    expect(none.state.software_version).toBe('1.0.0');
  });

  it('stops the start when the state file cannot be written, but only logs a later failed save', async () => {
    const blocker = path.join(boothDir(), 'not-a-folder');
    await mkdir(path.dirname(blocker), { recursive: true });
    await writeFile(blocker, 'a file where the state folder should be');
    const log = recordingLog();
    const store = new BoothStateStore({
      printsLeft: 700,
      buildVersion: '1',
      stateFile: path.join(blocker, 'state.json'),
      log,
    });
    await expect(store.load()).rejects.toThrow(/Cannot write the booth state file .*state\.json/);
    await expect(store.persist()).resolves.toBeUndefined();
    expect(log.messages('error')).toContain(
      'could not save the booth state (prints left may be wrong after a restart)',
    );
  });
});
