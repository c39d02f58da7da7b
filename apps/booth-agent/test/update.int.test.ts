import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { DeviceUpdatePayload } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { BOOTH_MESSAGES } from '../src/replies.js';
import type { InstalledRelease } from '../src/updater.js';
import { capturePayload, eventually, gatedCamera, type Harness, useHarness } from './harness.js';

let h: Harness;
let dir: string;
let dirCounter = 0;

/** A release file of a few hundred kB, so it arrives in many chunks. */
const RELEASE = randomBytes(300 * 1024 + 17);
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

useHarness('flashbooth-agent-update-', (harness, folder) => {
  h = harness;
  dir = folder;
  h.files.set('/releases/booth-agent-2.0.0.tar.gz', { body: RELEASE });
  h.files.set('/releases/chunked.tar.gz', { body: RELEASE, chunked: true });
});

function boothDirs() {
  dirCounter += 1;
  const base = path.join(dir, `booth-${dirCounter}`);
  return { stateFile: path.join(base, 'state.json'), releasesDir: path.join(base, 'releases') };
}

function updatePayload(overrides: Partial<DeviceUpdatePayload> = {}): DeviceUpdatePayload {
  return {
    release_id: 5,
    version: '2.0.0',
    // Relative, as the local object store hands out: resolved against the server URL.
    url: '/releases/booth-agent-2.0.0.tar.gz',
    sha256: sha256(RELEASE),
    size_bytes: RELEASE.length,
    ...overrides,
  };
}

const listOf = async (folder: string) => (await readdir(folder).catch(() => [])).sort();

describe('the update command', () => {
  it('downloads, verifies and installs a release, then reports the new version', async () => {
    const { stateFile, releasesDir } = boothDirs();
    const installed: InstalledRelease[] = [];
    const { agent, thingName } = await h.startAgent({
      stateFile,
      releasesDir,
      onUpdated: (release) => installed.push(release),
    });
    const sent = h.command(thingName, 'update', updatePayload());
    expect(await h.replyTo(sent.id)).toEqual({ id: sent.id, status: 'updated' });

    const statuses = h.statusesOf(thingName);
    const updating = statuses.findIndex((status) => status.status === 'updating');
    expect(updating).toBeGreaterThan(-1);
    // The status with the new version went out before the reply.
    expect(statuses.slice(updating + 1).at(-1)).toMatchObject({
      status: 'idle',
      software_version: '2.0.0',
    });

    const file = path.join(releasesDir, '2.0.0', 'booth-agent-2.0.0.tar.gz');
    expect((await readFile(file)).equals(RELEASE)).toBe(true);
    expect(await listOf(releasesDir)).toEqual(['2.0.0', 'current.json']);
    const current = JSON.parse(await readFile(path.join(releasesDir, 'current.json'), 'utf8'));
    expect(current).toEqual({
      release_id: 5,
      version: '2.0.0',
      file,
      sha256: sha256(RELEASE),
      size_bytes: RELEASE.length,
      installed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(installed).toEqual([current]);
    expect(JSON.parse(await readFile(stateFile, 'utf8'))).toMatchObject({
      software_version: '2.0.0',
    });
    expect(agent.softwareVersion).toBe('2.0.0');

    const ping = h.command(thingName, 'ping');
    expect(await h.replyTo(ping.id)).toMatchObject({ status: 'idle', software_version: '2.0.0' });
    const again = h.command(thingName, 'update', updatePayload());
    expect(await h.replyTo(again.id)).toEqual({ id: again.id, status: 'up_to_date' });

    // After a restart the booth reports the installed release, not this build's version.
    await agent.stop();
    const restarted = await h.startAgent({ stateFile, releasesDir, thingName });
    expect(restarted.agent.softwareVersion).toBe('2.0.0');
    expect(h.reportsOf(thingName)).toEqual([]);
  });

  it('accepts a download without Content-Length', async () => {
    const { releasesDir } = boothDirs();
    const { thingName } = await h.startAgent({ releasesDir });
    const sent = h.command(
      thingName,
      'update',
      updatePayload({ version: '2.0.0-chunked', url: `${h.httpUrl}/releases/chunked.tar.gz` }),
    );
    expect(await h.replyTo(sent.id)).toEqual({ id: sent.id, status: 'updated' });
    const file = path.join(releasesDir, '2.0.0-chunked', 'chunked.tar.gz');
    expect((await readFile(file)).equals(RELEASE)).toBe(true);
  });

  it('tries the download again after a 503 (a server restarting) instead of failing the update', async () => {
    const { releasesDir } = boothDirs();
    h.files.set('/releases/restarting.tar.gz', { body: RELEASE, unavailable: 1 });
    const { thingName } = await h.startAgent({ releasesDir });
    const sent = h.command(
      thingName,
      'update',
      updatePayload({ version: '2.0.0-retried', url: `${h.httpUrl}/releases/restarting.tar.gz` }),
    );
    expect(await h.replyTo(sent.id)).toEqual({ id: sent.id, status: 'updated' });
    expect(h.gets.filter((get) => get === '/releases/restarting.tar.gz')).toHaveLength(2);
    const file = path.join(releasesDir, '2.0.0-retried', 'restarting.tar.gz');
    expect((await readFile(file)).equals(RELEASE)).toBe(true);
  });

  it('refuses a file whose checksum does not match, keeps the old version and reports it', async () => {
    const { stateFile, releasesDir } = boothDirs();
    const { agent, thingName } = await h.startAgent({ stateFile, releasesDir });
    const wrong = sha256(Buffer.from('another file'));
    const sent = h.command(thingName, 'update', updatePayload({ version: '2.0.1', sha256: wrong }));
    const reply = await h.replyTo(sent.id);
    expect(reply.error).toMatch(/^The software update to 2\.0\.1 failed: checksum mismatch/);
    expect(reply.status).toBeUndefined();

    const [report] = await eventually(
      () => h.reportsOf(thingName),
      (found) => found.length > 0,
    );
    expect(report?.message).toMatch(
      /^Software update to 2\.0\.1 \(release 5\) failed: checksum mismatch.*keeps running version 9\.9\.9-test/,
    );
    expect(report).not.toHaveProperty('capture_id');
    // Nothing installed, nothing half-downloaded left behind.
    expect(await listOf(releasesDir)).toEqual([]);
    expect(agent.softwareVersion).toBe('9.9.9-test');
    expect(agent.status).toBe('idle');
    expect(h.statusesOf(thingName).at(-1)).toMatchObject({
      status: 'idle',
      software_version: '9.9.9-test',
    });
    expect(JSON.parse(await readFile(stateFile, 'utf8'))).toMatchObject({
      software_version: '9.9.9-test',
    });
  });

  it('refuses a file of another size, announced or streamed', async () => {
    const { releasesDir } = boothDirs();
    const { thingName } = await h.startAgent({ releasesDir });
    // Content-Length says otherwise: refused before the body is read.
    const announced = h.command(
      thingName,
      'update',
      updatePayload({ version: '2.0.2', size_bytes: RELEASE.length + 1 }),
    );
    expect((await h.replyTo(announced.id)).error).toMatch(
      /size mismatch: the server sends \d+ bytes, the release should have \d+/,
    );
    // No length: the download stops once it runs past the size.
    const streamed = h.command(
      thingName,
      'update',
      updatePayload({
        version: '2.0.3',
        url: '/releases/chunked.tar.gz',
        size_bytes: RELEASE.length - 1000,
      }),
    );
    expect((await h.replyTo(streamed.id)).error).toMatch(/size mismatch: received more than/);
    const shorter = h.command(
      thingName,
      'update',
      updatePayload({
        version: '2.0.4',
        url: '/releases/chunked.tar.gz',
        size_bytes: RELEASE.length + 1000,
      }),
    );
    expect((await h.replyTo(shorter.id)).error).toMatch(
      new RegExp(`size mismatch: received ${RELEASE.length} bytes`),
    );
    await eventually(
      () => h.reportsOf(thingName),
      (found) => found.length === 3,
    );
    expect(await listOf(releasesDir)).toEqual([]);
  });

  it('answers up_to_date for the version it runs, without downloading', async () => {
    const { releasesDir } = boothDirs();
    const { thingName } = await h.startAgent({ releasesDir });
    const before = h.gets.length;
    const sent = h.command(thingName, 'update', updatePayload({ version: '9.9.9-test' }));
    expect(await h.replyTo(sent.id)).toEqual({ id: sent.id, status: 'up_to_date' });
    expect(h.gets.length).toBe(before);
  });

  it('refuses an update while a capture session runs', async () => {
    const { releasesDir } = boothDirs();
    const camera = gatedCamera();
    const { agent, thingName } = await h.startAgent({ releasesDir, camera });
    const capture = h.command(thingName, 'capture', capturePayload([401], h.httpUrl));
    expect(await h.replyTo(capture.id)).toMatchObject({ status: 'accepted' });
    await camera.taking;
    const before = h.gets.length;
    const sent = h.command(thingName, 'update', updatePayload());
    expect(await h.replyTo(sent.id)).toEqual({ id: sent.id, error: BOOTH_MESSAGES.updateBusy });
    expect(h.gets.length).toBe(before);
    camera.open();
    await agent.idle();
    expect(agent.softwareVersion).toBe('9.9.9-test');
    expect(await listOf(releasesDir)).toEqual([]);
  });

  it('refuses a malformed payload, a failed download and a booth without a releases folder', async () => {
    const { releasesDir } = boothDirs();
    const { thingName } = await h.startAgent({ releasesDir });
    const malformed = h.command(thingName, 'update', { version: '3.0.0', sha256: 'abc' });
    expect((await h.replyTo(malformed.id)).error).toMatch(/^Invalid update command \(.*sha256/);

    const missing = h.command(
      thingName,
      'update',
      updatePayload({ version: '3.0.0', url: '/releases/gone.tar.gz' }),
    );
    expect((await h.replyTo(missing.id)).error).toMatch(/the download failed \(HTTP 404\)/);
    const [report] = await eventually(
      () => h.reportsOf(thingName),
      (found) => found.length > 0,
    );
    expect(report?.message).toMatch(/Software update to 3\.0\.0 .*HTTP 404/);

    const bare = await h.startAgent();
    const refused = h.command(bare.thingName, 'update', updatePayload());
    expect(await h.replyTo(refused.id)).toEqual({
      id: refused.id,
      error: BOOTH_MESSAGES.updatesDisabled,
    });
  });
});
