import type { DeviceUpdatePayload } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import {
  commandMessage,
  FakeChannel,
  FIXED_NOW,
  linkTo,
  memoryStore,
  recordingLog,
  recordingReply,
} from '../test/fakes.js';
import { BOOTH_MESSAGES } from './replies.js';
import { ReportOutbox } from './report-outbox.js';
import { SoftwareUpdate, type SoftwareUpdateOptions } from './software-update.js';
import { StatusBoard } from './status.js';
import { type InstalledRelease, type installRelease, UpdateError } from './updater.js';

const release: DeviceUpdatePayload = {
  release_id: 5,
  version: '2.0.0',
  url: '/releases/booth-agent-2.0.0.tar.gz',
  sha256: 'a'.repeat(64),
  size_bytes: 1234,
};

type Install = typeof installRelease;

/** An update handler around an `install` stand-in that records what it was asked. */
function setup(install: Install, options: Partial<SoftwareUpdateOptions> = {}) {
  const log = recordingLog();
  const channel = new FakeChannel();
  const link = linkTo(channel);
  const store = memoryStore({ software_version: '1.0.0' });
  const now = () => FIXED_NOW;
  const board = new StatusBoard({ link, store, now, log });
  board.online();
  const installed: InstalledRelease[] = [];
  const update = new SoftwareUpdate({
    releasesDir: '/var/lib/booth/releases',
    releaseDownloadMs: 1000,
    onUpdated: (done) => installed.push(done),
    board,
    store,
    outbox: new ReportOutbox({ link, store, now, log }),
    resolveUrl: (url) => new URL(url, 'http://server.test'),
    install,
    now,
    log,
    ...options,
  });
  const run = async (payload: Record<string, unknown> = { ...release }) => {
    const { bodies, reply } = recordingReply();
    // The status as it was published when the reply went out.
    const replied: string[] = [];
    await update.handle(commandMessage('update', payload), async (body) => {
      replied.push(channel.statuses.at(-1)?.software_version ?? '');
      await reply(body);
    });
    return { bodies, replied };
  };
  return { log, channel, store, board, installed, run };
}

const installing =
  (calls: Parameters<Install>[0][]): Install =>
  async (options) => {
    calls.push(options);
    return {
      release_id: options.release.release_id,
      version: options.release.version,
      file: `${options.releasesDir}/${options.release.version}/booth-agent.tar.gz`,
      sha256: options.release.sha256,
      size_bytes: options.release.size_bytes,
      installed_at: options.now.toISOString(),
    };
  };

describe('SoftwareUpdate', () => {
  it('installs the release while reporting updating, and reports the new version before the reply', async () => {
    const calls: Parameters<Install>[0][] = [];
    const { run, channel, store, installed, board } = setup(installing(calls));
    const { bodies, replied } = await run();
    expect(bodies).toEqual([{ status: 'updated' }]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      releasesDir: '/var/lib/booth/releases',
      timeoutMs: 1000,
      now: FIXED_NOW,
    });
    expect(calls[0]?.url.href).toBe('http://server.test/releases/booth-agent-2.0.0.tar.gz');
    expect(channel.statuses.map((s) => [s.status, s.software_version])).toEqual([
      ['updating', '1.0.0'],
      ['idle', '2.0.0'],
    ]);
    expect(replied).toEqual(['2.0.0']);
    expect(store.state.software_version).toBe('2.0.0');
    expect(store.saves).toBe(1);
    expect(installed.map((r) => r.version)).toEqual(['2.0.0']);
    expect(board.free).toBe(true);
  });

  it('answers up_to_date for the version it runs, without installing', async () => {
    const calls: Parameters<Install>[0][] = [];
    const { run } = setup(installing(calls));
    expect((await run({ ...release, version: '1.0.0' })).bodies).toEqual([
      { status: 'up_to_date' },
    ]);
    expect(calls).toEqual([]);
  });

  it('refuses a malformed payload, a busy booth and a booth without a releases folder', async () => {
    const calls: Parameters<Install>[0][] = [];
    const busy = setup(installing(calls));
    expect((await busy.run({ version: '3.0.0', sha256: 'abc' })).bodies[0]?.error).toMatch(
      /^Invalid update command \(.*sha256/,
    );
    const end = busy.board.claim('ready');
    expect((await busy.run()).bodies).toEqual([{ error: BOOTH_MESSAGES.updateBusy }]);
    end();
    const bare = setup(installing(calls), { releasesDir: undefined });
    expect((await bare.run()).bodies).toEqual([{ error: BOOTH_MESSAGES.updatesDisabled }]);
    expect(calls).toEqual([]);
  });

  it('answers a failed install with its reason, reports it and keeps the old version', async () => {
    const failing: Install = async () => {
      throw new UpdateError('checksum mismatch: the file is not the release');
    };
    const { run, channel, store, board, installed } = setup(failing);
    const { bodies } = await run();
    expect(bodies).toEqual([
      {
        error:
          'The software update to 2.0.0 failed: checksum mismatch: the file is not the release',
      },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(channel.reports[0]?.message).toMatch(
      /^Software update to 2\.0\.0 \(release 5\) failed: checksum mismatch.*keeps running version 1\.0\.0/,
    );
    expect(channel.statuses.map((s) => s.status)).toEqual(['updating', 'idle']);
    expect(store.state.software_version).toBe('1.0.0');
    expect(installed).toEqual([]);
    expect(board.free).toBe(true);
  });

  it('logs an onUpdated hook that throws; the update still succeeds', async () => {
    const { run, log } = setup(installing([]), {
      onUpdated: () => {
        throw new Error('supervisor unreachable');
      },
    });
    expect((await run()).bodies).toEqual([{ status: 'updated' }]);
    expect(log.messages('error')).toEqual(['the onUpdated hook failed']);
  });
});
