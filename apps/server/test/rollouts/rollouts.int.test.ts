import { ROLLOUT_MESSAGES, rolloutWaveSizes, SOFTWARE_MESSAGES } from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { devices } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import {
  apiCall,
  createOrg,
  signedIn,
  signedInOrgStaff,
  signedInProductAdmin,
  sleep,
  eventually,
} from '../harness.js';
import {
  type BoothMode,
  boothsOnChannel,
  channelWithRelease,
  type FakeBooth,
  type Instance,
  OLD_VERSION,
  readRollout,
  received,
  rolloutIn,
  startInstance,
  startRollout,
  waveMembers,
} from './rollout-suite.js';

describe.each(databaseTargets)('staged rollouts on $name', ({ open }) => {
  let database: DatabaseHandle;
  let server: Instance;
  let url: string;
  const booths: FakeBooth[] = [];

  beforeAll(async () => {
    database = await open();
    server = await startInstance(database, { MQTT_PORT: '0', MQTT_HOST: '127.0.0.1' });
    url = server.app.deviceBrokerUrl!;
  });
  afterAll(async () => {
    for (const booth of booths) await booth.close();
    await server?.app.close();
    await database?.close();
  });

  async function setUp(modes: BoothMode[]) {
    const channel = await channelWithRelease(server.app, server.token);
    const made = await boothsOnChannel(server, database, url, channel.channelId, modes);
    booths.push(...made);
    return { ...channel, booths: made };
  }

  it('cuts the booths into one, a quarter of the rest, and the rest', () => {
    expect([0, 1, 2, 3, 5, 6, 9, 10].map(rolloutWaveSizes)).toEqual([
      [],
      [1],
      [1, 1],
      [1, 1, 1],
      [1, 1, 3],
      [1, 2, 3],
      [1, 2, 6],
      [1, 3, 6],
    ]);
  });

  it('updates wave by wave: the next wave gets nothing until the current one is done', async () => {
    const {
      channelId,
      version,
      booths: made,
    } = await setUp(['hold', 'install', 'install', 'install', 'install', 'install']);
    const started = await startRollout(server, channelId);
    expect(started).toMatchObject({
      state: 'running',
      version,
      current_wave: 1,
      wave_count: 3,
      max_failures: 0,
      counts: { pending: 6, updating: 0, updated: 0, failed: 0, skipped: 0 },
    });
    expect(started.waves.map((wave) => wave.devices.length)).toEqual([1, 2, 3]);
    // Every booth once, the idle booth with the lowest id first.
    expect(waveMembers(started).flat().sort()).toEqual(made.map((b) => b.id).sort());
    const byId = new Map(made.map((booth) => [booth.id, booth]));
    const [first] = waveMembers(started)[0]!;
    expect(first).toBe(made[0]!.id);

    // The first booth is installing (holds its answer): nobody else has been sent anything.
    await rolloutIn(server, started.id, (r) => r.counts.updating === 1);
    await sleep(300);
    expect(made.slice(1).every((booth) => booth.commands.length === 0)).toBe(true);
    const during = await readRollout(server, started.id);
    expect(during.current_wave).toBe(1);

    await received(byId.get(first!)!);
    await byId.get(first!)!.release();
    const done = await rolloutIn(server, started.id, (r) => r.state === 'completed');
    expect(done.counts).toEqual({ pending: 0, updating: 0, updated: 6, failed: 0, skipped: 0 });
    expect(done.finished_at).not.toBeNull();
    expect(done.waves.flatMap((w) => w.devices.map((d) => d.software_version))).toEqual(
      Array(6).fill(version),
    );
    // One command per booth, and the second wave only after the first was done.
    for (const booth of made) expect(booth.commands).toHaveLength(1);
    const sentAt = (id: number) => Date.parse(byId.get(id)!.commands[0]!.expires_at!);
    const [, second, third] = waveMembers(done);
    expect(Math.min(...second!.map(sentAt))).toBeGreaterThan(sentAt(first!));
    expect(Math.min(...third!.map(sentAt))).toBeGreaterThanOrEqual(
      Math.max(...second!.map(sentAt)),
    );
  });

  it('stops by itself when more booths fail than allowed, and says why', async () => {
    // Allow one failure: the first failing booth (wave 2) is tolerated, the second stops it.
    const { channelId } = await setUp(['install', 'fail', 'install', 'fail', 'install', 'install']);
    const started = await startRollout(server, channelId, { max_failures: 1 });
    expect(waveMembers(started).map((wave) => wave.length)).toEqual([1, 2, 3]);
    const stopped = await rolloutIn(server, started.id, (r) => r.state === 'stopped');
    expect(stopped.counts.failed).toBe(2);
    expect(stopped.stop_reason).toMatch(
      /^Stopped: 2 booths failed, more than the 1 allowed\. Last error: .+: The software update failed: checksum mismatch$/,
    );
    expect(stopped.finished_at).not.toBeNull();
    const failed = stopped.waves.flatMap((w) => w.devices).filter((d) => d.state === 'failed');
    expect(
      failed.every((d) => d.last_error === 'The software update failed: checksum mismatch'),
    ).toBe(true);
    // Nothing more is sent once stopped.
    const sent = booths.reduce((total, booth) => total + booth.commands.length, 0);
    await sleep(300);
    expect(booths.reduce((total, booth) => total + booth.commands.length, 0)).toBe(sent);
    const after = await readRollout(server, started.id);
    expect(after.state).toBe('stopped');
  });

  it('stops at the first failure with the default threshold (0)', async () => {
    const { channelId, booths: made } = await setUp(['fail', 'install', 'install']);
    const started = await startRollout(server, channelId);
    const stopped = await rolloutIn(server, started.id, (r) => r.state === 'stopped');
    expect(stopped.stop_reason).toBe(
      ROLLOUT_MESSAGES.tooManyFailures(
        1,
        0,
        `${stopped.waves[0]!.devices[0]!.name}: The software update failed: checksum mismatch`,
      ),
    );
    // The canary failed: the other waves were never sent, and their booths say so.
    expect(made.slice(1).every((booth) => booth.commands.length === 0)).toBe(true);
    expect(stopped.counts).toMatchObject({ failed: 1, pending: 0, skipped: 2 });
    expect(
      stopped.waves
        .slice(1)
        .flatMap((w) => w.devices)
        .map((d) => [d.state, d.last_error]),
    ).toEqual([
      ['skipped', ROLLOUT_MESSAGES.notUpdatedStopped],
      ['skipped', ROLLOUT_MESSAGES.notUpdatedStopped],
    ]);
  });

  it('cancels: the booths it never reached are not updated, the one updating finishes', async () => {
    const { channelId, booths: made } = await setUp(['hold', 'install', 'install']);
    const [canary] = made as [FakeBooth];
    const started = await startRollout(server, channelId);
    await rolloutIn(server, started.id, (r) => r.counts.updating === 1);

    const cancelled = await apiCall(
      server.app,
      'POST',
      `software/rollouts/${started.id}/cancel`,
      server.token,
    );
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const body = cancelled.json<Awaited<ReturnType<typeof readRollout>>>();
    expect(body).toMatchObject({ state: 'cancelled' });
    expect(body.counts).toEqual({ pending: 0, updating: 1, updated: 0, failed: 0, skipped: 2 });
    const untouched = body.waves.slice(1).flatMap((w) => w.devices);
    expect(untouched.map((d) => [d.state, d.last_error])).toEqual([
      ['skipped', ROLLOUT_MESSAGES.notUpdatedCancelled],
      ['skipped', ROLLOUT_MESSAGES.notUpdatedCancelled],
    ]);

    // The canary was already sent the update: it finishes; nobody else is sent anything.
    await received(canary);
    await canary.release();
    const after = await rolloutIn(server, started.id, (r) => r.counts.updating === 0);
    expect(after.counts).toEqual({ pending: 0, updating: 0, updated: 1, failed: 0, skipped: 2 });
    expect(made.slice(1).every((booth) => booth.commands.length === 0)).toBe(true);
  });

  it('pauses and resumes', async () => {
    const { channelId, booths: made } = await setUp(['hold', 'install', 'install']);
    const started = await startRollout(server, channelId);
    await rolloutIn(server, started.id, (r) => r.counts.updating === 1);

    const paused = await apiCall(
      server.app,
      'POST',
      `software/rollouts/${started.id}/pause`,
      server.token,
    );
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json()).toMatchObject({ state: 'paused' });
    const again = await apiCall(
      server.app,
      'POST',
      `software/rollouts/${started.id}/pause`,
      server.token,
    );
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: ROLLOUT_MESSAGES.notRunning });

    // The booth already sent the update finishes it; nobody else gets one while paused.
    await received(made[0]!);
    await made[0]!.release();
    const recorded = await rolloutIn(server, started.id, (r) => r.counts.updated === 1);
    expect(recorded.state).toBe('paused');
    await sleep(300);
    expect(made.slice(1).every((booth) => booth.commands.length === 0)).toBe(true);
    expect((await readRollout(server, started.id)).state).toBe('paused');

    const resumed = await apiCall(
      server.app,
      'POST',
      `software/rollouts/${started.id}/resume`,
      server.token,
    );
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json()).toMatchObject({ state: 'running' });
    const done = await rolloutIn(server, started.id, (r) => r.state === 'completed');
    expect(done.counts.updated).toBe(3);
    const resumeAgain = await apiCall(
      server.app,
      'POST',
      `software/rollouts/${started.id}/resume`,
      server.token,
    );
    expect(resumeAgain.statusCode).toBe(409);
    expect(resumeAgain.json()).toMatchObject({ message: ROLLOUT_MESSAGES.notPaused });
  });

  it('retries a busy booth once it is idle, waits for an offline one, and skips one that left', async () => {
    const { channelId, booths: made } = await setUp([
      'install',
      'busy',
      'install',
      'install',
      'install',
    ]);
    const [canary, busy, offline, leaving] = made as [FakeBooth, FakeBooth, FakeBooth, FakeBooth];
    await offline.status('offline', OLD_VERSION);
    await eventually(
      async () => (await database.db.select().from(devices).where(eq(devices.id, offline.id)))[0],
      (row) => row?.status === 'offline',
    );
    const started = await startRollout(server, channelId, { max_failures: 0 });
    // The offline booth is not the canary (idle booths go first).
    expect(waveMembers(started)[0]).toEqual([canary.id]);
    const left = await apiCall(server.app, 'PATCH', `devices/${leaving.id}`, server.token, {
      software_channel_id: null,
    });
    expect(left.statusCode, left.body).toBe(200);

    // The busy booth refused once and got the update again; the offline one waits, unsent.
    await rolloutIn(server, started.id, (r) =>
      r.waves
        .flatMap((w) => w.devices)
        .some((d) => d.device_id === busy.id && d.state === 'updated'),
    );
    expect(busy.commands).toHaveLength(2);
    const waiting = await rolloutIn(server, started.id, (r) =>
      r.waves
        .flatMap((w) => w.devices)
        .some((d) => d.device_id === leaving.id && d.state === 'skipped'),
    );
    const offlineRow = waiting.waves
      .flatMap((w) => w.devices)
      .find((d) => d.device_id === offline.id)!;
    expect(offlineRow).toMatchObject({ state: 'pending', attempts: 0, device_status: 'offline' });
    expect(offline.commands).toHaveLength(0);
    const leftRow = waiting.waves
      .flatMap((w) => w.devices)
      .find((d) => d.device_id === leaving.id)!;
    expect(leftRow.last_error).toBe(ROLLOUT_MESSAGES.leftChannel);
    expect(leaving.commands).toHaveLength(0);

    // Back online: it gets its update and the rollout completes.
    await offline.status('idle', OLD_VERSION);
    const done = await rolloutIn(server, started.id, (r) => r.state === 'completed');
    expect(done.counts).toEqual({ pending: 0, updating: 0, updated: 4, failed: 0, skipped: 1 });
    expect(offline.commands).toHaveLength(1);
  });

  it('marks a booth that never answers within the wave timeout as failed', async () => {
    // An instance of its own on a database of its own, so only its driver (with the short wave
    // timeout) drives this rollout.
    const own = await open();
    const timed = await startInstance(own, {
      MQTT_PORT: '0',
      MQTT_HOST: '127.0.0.1',
      ROLLOUT_WAVE_TIMEOUT_MS: '600',
    });
    try {
      const channel = await channelWithRelease(timed.app, timed.token);
      const made = await boothsOnChannel(
        timed,
        own,
        timed.app.deviceBrokerUrl!,
        channel.channelId,
        ['hold', 'install'],
      );
      booths.push(...made);
      const started = await startRollout(timed, channel.channelId);
      const stopped = await rolloutIn(timed, started.id, (r) => r.state === 'stopped');
      expect(stopped.waves[0]!.devices[0]).toMatchObject({
        state: 'failed',
        last_error: `Did not report version ${channel.version} within the wave's 1 minute.`,
      });
      expect(made[1]!.commands).toHaveLength(0);
    } finally {
      await timed.app.close();
      await own.close();
    }
  }, 60_000);

  it('refuses a second rollout of a channel, a channel without release or booths', async () => {
    const { channelId } = await setUp(['hold', 'install']);
    const started = await startRollout(server, channelId);
    const second = await apiCall(
      server.app,
      'POST',
      `software/channels/${channelId}/rollouts`,
      server.token,
      {},
    );
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ message: ROLLOUT_MESSAGES.alreadyActive });
    const cancelled = await apiCall(
      server.app,
      'POST',
      `software/rollouts/${started.id}/cancel`,
      server.token,
    );
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ state: 'cancelled' });
    const latest = await apiCall(
      server.app,
      'GET',
      `software/channels/${channelId}/rollouts/latest`,
      server.token,
    );
    expect(latest.json()).toMatchObject({ rollout: { id: started.id, state: 'cancelled' } });

    const empty = await apiCall(server.app, 'POST', 'software/channels', server.token, {
      name: 'Empty',
    });
    const emptyId = empty.json<{ id: number }>().id;
    const none = await apiCall(
      server.app,
      'POST',
      `software/channels/${emptyId}/rollouts`,
      server.token,
      {},
    );
    expect(none.statusCode).toBe(409);
    expect(none.json()).toMatchObject({ message: ROLLOUT_MESSAGES.noRelease });
    const noLatest = await apiCall(
      server.app,
      'GET',
      `software/channels/${emptyId}/rollouts/latest`,
      server.token,
    );
    expect(noLatest.json()).toEqual({ rollout: null });

    const release = await channelWithRelease(server.app, server.token);
    const noBooths = await apiCall(
      server.app,
      'POST',
      `software/channels/${release.channelId}/rollouts`,
      server.token,
      {},
    );
    expect(noBooths.statusCode).toBe(409);
    expect(noBooths.json()).toMatchObject({ message: ROLLOUT_MESSAGES.noBooths });

    const bad = await apiCall(
      server.app,
      'POST',
      `software/channels/${channelId}/rollouts`,
      server.token,
      {
        max_failures: -1,
      },
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain(ROLLOUT_MESSAGES.maxFailures);
    const missing = await apiCall(
      server.app,
      'POST',
      'software/channels/99999999/rollouts',
      server.token,
      {},
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ message: SOFTWARE_MESSAGES.channelNotFound });
    const unknown = await apiCall(server.app, 'GET', 'software/rollouts/99999999', server.token);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: ROLLOUT_MESSAGES.notFound });
  });

  it('is for super users and product admins only, on every call', async () => {
    const { channelId } = await setUp(['hold']);
    const orgId = await createOrg(database);
    const productAdmin = (await signedInProductAdmin(server.app, database)).token;
    const refused = {
      'an org admin': (await signedInOrgStaff(server.app, database, orgId, 'admin')).token,
      'an org member': (await signedInOrgStaff(server.app, database, orgId, 'member')).token,
      'staff of no organization': (await signedIn(server.app, 'enterprise')).token,
    };
    const visitor = (await signedIn(server.app, 'regular')).token;

    const started = await apiCall(
      server.app,
      'POST',
      `software/channels/${channelId}/rollouts`,
      productAdmin,
      {},
    );
    expect(started.statusCode, started.body).toBe(201);
    const id = started.json<{ id: number }>().id;
    const calls = [
      ['POST', `software/channels/${channelId}/rollouts`, {}],
      ['GET', `software/channels/${channelId}/rollouts/latest`, undefined],
      ['GET', `software/rollouts/${id}`, undefined],
      ['POST', `software/rollouts/${id}/pause`, undefined],
      ['POST', `software/rollouts/${id}/resume`, undefined],
      ['POST', `software/rollouts/${id}/cancel`, undefined],
    ] as const;
    for (const [method, path, body] of calls) {
      for (const [who, token] of Object.entries(refused)) {
        const response = await apiCall(server.app, method, path, token, body);
        expect(response.statusCode, `${who} ${method} ${path}`).toBe(403);
        expect(response.json()).toMatchObject({ message: SOFTWARE_MESSAGES.onlyAdmins });
      }
      expect((await apiCall(server.app, method, path, visitor, body)).statusCode).toBe(401);
      expect((await apiCall(server.app, method, path, undefined, body)).statusCode).toBe(401);
    }
    // Nothing the refused calls asked for happened.
    expect((await readRollout(server, id)).state).toBe('running');
    const paused = await apiCall(server.app, 'POST', `software/rollouts/${id}/pause`, productAdmin);
    expect(paused.statusCode).toBe(200);
    const cancelled = await apiCall(
      server.app,
      'POST',
      `software/rollouts/${id}/cancel`,
      productAdmin,
    );
    expect(cancelled.json()).toMatchObject({ state: 'cancelled' });
  });
});
