import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { mqttTopics } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { capturePayload, eventually, type Harness, recordingLog, useHarness } from './harness.js';

let h: Harness;
let dir: string;
let fileCounter = 0;

useHarness('flashbooth-agent-state-', (harness, folder) => {
  h = harness;
  dir = folder;
});

/** A state file path of its own, in a folder that does not exist yet. */
function newStateFile(): string {
  fileCounter += 1;
  return path.join(dir, `booth-${fileCounter}`, 'state.json');
}

const readState = async (file: string) =>
  JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;

async function capture(thingName: string, mediaId: number) {
  const sent = h.command(thingName, 'capture', capturePayload([mediaId], h.httpUrl));
  expect(await h.replyTo(sent.id)).toEqual({ id: sent.id, status: 'accepted' });
}

describe('the state file', () => {
  it('keeps prints left across two agents; the option is only the first-run default', async () => {
    const stateFile = newStateFile();
    const first = await h.startAgent({ stateFile, printsLeft: 300 });
    // Written at the first start already.
    expect(await readState(stateFile)).toMatchObject({
      format: 1,
      prints_left: 300,
      settings_revision: 0,
      software_version: '9.9.9-test',
      pending_reports: [],
    });
    await capture(first.thingName, 301);
    await first.agent.idle();
    await first.agent.stop();
    expect(await readState(stateFile)).toMatchObject({ prints_left: 299 });

    const second = await h.startAgent({
      stateFile,
      printsLeft: 700,
      thingName: first.thingName,
    });
    expect(second.agent.printsLeft).toBe(299);
    const last = await eventually(
      () => h.statusesOf(first.thingName).at(-1),
      (status) => status?.status === 'idle' && status.prints_left === 299,
    );
    expect(last?.settings_revision).toBe(0);
    // No temporary files are left beside it.
    expect(await readdir(path.dirname(stateFile))).toEqual(['state.json']);
  });

  it('starts from the defaults, with a clear log line, when the file is corrupt', async () => {
    const stateFile = newStateFile();
    await mkdir(path.dirname(stateFile), { recursive: true });
    await writeFile(stateFile, '{"format": 1, "prints_left": ');
    const log = recordingLog();
    const { agent } = await h.startAgent({ stateFile, printsLeft: 650, log });
    expect(agent.printsLeft).toBe(650);
    expect(log.entries).toContainEqual({
      level: 'error',
      message: expect.stringMatching(/state file is corrupt: starting from the defaults/),
    });
    // The bad file is kept for a technician, and a good one replaces it.
    const names = await readdir(path.dirname(stateFile));
    expect(names.filter((name) => name.startsWith('state.json.corrupt-'))).toHaveLength(1);
    expect(await readState(stateFile)).toMatchObject({ prints_left: 650 });
  });

  it('refuses to start when the state file cannot be written', async () => {
    const blocker = path.join(dir, 'not-a-folder');
    await writeFile(blocker, 'a file where the state folder should be');
    const { agent } = h.makeAgent({ stateFile: path.join(blocker, 'state.json') });
    await expect(agent.start()).rejects.toThrow(/Cannot write the booth state file .*state\.json/);
    expect(agent.connected).toBe(false);
  });
});

describe('restock through the retained settings', () => {
  it('applies a newer revision, ignores older, equal and malformed ones, and keeps it', async () => {
    const stateFile = newStateFile();
    const log = recordingLog();
    const { agent, thingName } = await h.startAgent({ stateFile, printsLeft: 120, log });
    const settings = mqttTopics.settings(thingName);

    await h.publishRetained(settings, JSON.stringify({ revision: 3, prints_left: 600 }));
    const restocked = await eventually(
      () => h.statusesOf(thingName).at(-1),
      (status) => status?.settings_revision === 3,
    );
    expect(restocked).toMatchObject({ status: 'idle', prints_left: 600, settings_revision: 3 });
    expect(await readState(stateFile)).toMatchObject({ prints_left: 600, settings_revision: 3 });

    const ignoredBefore = log.entries.length;
    await h.publishRetained(settings, JSON.stringify({ revision: 2, prints_left: 100 }));
    await h.publishRetained(settings, JSON.stringify({ revision: 3, prints_left: 111 }));
    await h.publishRetained(settings, JSON.stringify({ revision: 'four', prints_left: 100 }));
    await h.publishRetained(settings, 'not json');
    await eventually(
      () => log.entries.slice(ignoredBefore).map((entry) => entry.message),
      (messages) =>
        messages.filter((m) => m === 'settings already applied').length === 2 &&
        messages.includes('ignoring malformed settings') &&
        messages.includes('ignoring settings that are not JSON'),
    );
    expect(agent.printsLeft).toBe(600);
    expect(agent.settingsRevision).toBe(3);
    const ping = h.command(thingName, 'ping');
    expect(await h.replyTo(ping.id)).toMatchObject({ prints_left: 600, settings_revision: 3 });

    // Back to a valid retained message (the server's), then a print off the restocked roll.
    await h.publishRetained(settings, JSON.stringify({ revision: 3, prints_left: 600 }));
    await capture(thingName, 311);
    await agent.idle();
    expect(agent.printsLeft).toBe(599);
    await agent.stop();

    // The retained revision 3 arrives again on the next start and must not undo that print.
    const againLog = recordingLog();
    const again = await h.startAgent({ stateFile, thingName, log: againLog });
    await eventually(
      () => againLog.entries.map((entry) => entry.message),
      (messages) => messages.includes('settings already applied'),
    );
    expect(again.agent.printsLeft).toBe(599);
    expect(again.agent.settingsRevision).toBe(3);
  });

  it('applies a restock published while the booth was away when it connects', async () => {
    const stateFile = newStateFile();
    const first = await h.startAgent({ stateFile, printsLeft: 40 });
    await first.agent.stop();
    await h.publishRetained(
      mqttTopics.settings(first.thingName),
      JSON.stringify({ revision: 1, prints_left: 700 }),
    );
    const { agent } = await h.startAgent({ stateFile, thingName: first.thingName });
    await eventually(
      () => h.statusesOf(first.thingName).at(-1),
      (status) => status?.prints_left === 700 && status.settings_revision === 1,
    );
    expect(agent.printsLeft).toBe(700);
    // Saved before the status went out.
    expect(await readState(stateFile)).toMatchObject({ prints_left: 700, settings_revision: 1 });
  });
});
