import { createHash, randomBytes } from 'node:crypto';
import {
  BOOTH_BUSY_REPLY,
  type DeviceCommandMessage,
  DeviceUpdatePayloadSchema,
  mqttTopics,
  type Rollout,
} from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { MqttClient } from 'mqtt';
import { expect } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { devices } from '../../src/db/schema.js';
import {
  apiCall,
  eventually,
  registerDevice,
  signedIn,
  startApp,
  type TestApp,
} from '../harness.js';
import { connectAsBooth } from '../mqtt-fixtures.js';

/** The booth agent's own busy refusal (apps/booth-agent/src/replies.ts, updateBusy). */
export const BUSY_REPLY =
  'The photobooth is busy (a capture session or another update). Send the update again once it is idle.';
expect(BUSY_REPLY).toMatch(BOOTH_BUSY_REPLY);

export const OLD_VERSION = '1.0.0-old';

/** Short timings so a rollout runs in well under a second per wave. */
export const ROLLOUT_ENV = {
  OTP_SEND_LIMIT_PER_IP: '1000',
  DEVICE_COMMAND_TIMEOUT_MS: '2000',
  DEVICE_UPDATE_TIMEOUT_MS: '5000',
  ROLLOUT_TICK_MS: '60',
  ROLLOUT_RETRY_MS: '150',
};

/**
 * What a fake booth does with an `update` command:
 * - install: downloads the file, checks size and SHA-256, publishes its status with the new
 *   version, then answers `updated` (as the booth agent does);
 * - fail: answers an error (a checksum that did not match);
 * - busy: answers the agent's busy refusal `busyTimes` times, then installs;
 * - hold: answers nothing until `release()` (or never): a booth still installing, or gone.
 */
export type BoothMode = 'install' | 'fail' | 'busy' | 'hold';

export class FakeBooth {
  readonly commands: DeviceCommandMessage[] = [];
  private held: DeviceCommandMessage[] = [];
  busyTimes = 1;
  client!: MqttClient;

  constructor(
    readonly id: number,
    readonly thingName: string,
    readonly secret: string,
    public mode: BoothMode,
    private readonly app: () => FastifyInstance,
  ) {}

  async connect(url: string, version = OLD_VERSION): Promise<void> {
    this.client = await connectAsBooth(url, this.thingName, this.secret);
    this.client.on('message', (topic, payload) => {
      if (topic !== mqttTopics.commands(this.thingName)) return;
      const command = JSON.parse(payload.toString()) as DeviceCommandMessage;
      if (command.command !== 'update') return;
      this.commands.push(command);
      void this.handle(command);
    });
    await this.client.subscribeAsync(mqttTopics.commands(this.thingName), { qos: 1 });
    await this.status('idle', version);
  }

  status(status: string, version: string): Promise<unknown> {
    return this.client.publishAsync(
      mqttTopics.status(this.thingName),
      JSON.stringify({ status, software_version: version, settings_revision: 0 }),
      { qos: 1, retain: true },
    );
  }

  private answer(command: DeviceCommandMessage, body: Record<string, unknown>) {
    return this.client.publishAsync(command.reply_to, JSON.stringify({ id: command.id, ...body }), {
      qos: 1,
    });
  }

  private async handle(command: DeviceCommandMessage): Promise<void> {
    if (this.mode === 'hold') {
      this.held.push(command);
      return;
    }
    if (this.mode === 'fail') {
      await this.answer(command, { error: 'The software update failed: checksum mismatch' });
      return;
    }
    if (this.mode === 'busy' && this.busyTimes > 0) {
      this.busyTimes -= 1;
      await this.answer(command, { error: BUSY_REPLY });
      return;
    }
    await this.install(command);
  }

  /** Downloads and verifies the release like the agent, reports the version, answers updated. */
  async install(command: DeviceCommandMessage, answer = true): Promise<void> {
    const update = DeviceUpdatePayloadSchema.parse(command.payload);
    const file = await this.app().inject({ method: 'GET', url: update.url });
    const sha = createHash('sha256').update(file.rawPayload).digest('hex');
    if (file.statusCode !== 200 || sha !== update.sha256) {
      await this.answer(command, { error: `download check failed (${file.statusCode})` });
      return;
    }
    await this.status('idle', update.version);
    if (answer) await this.answer(command, { status: 'updated' });
  }

  /** The held commands, installed now; `answer` false = the server that sent them is gone. */
  async release(answer = true): Promise<void> {
    const held = this.held;
    this.held = [];
    for (const command of held) await this.install(command, answer);
  }

  async close(): Promise<void> {
    await this.client?.endAsync(true).catch(() => undefined);
  }
}

/** One server instance with a signed-in super user. */
export interface Instance {
  testApp: TestApp;
  app: FastifyInstance;
  token: string;
}

export async function startInstance(
  database: DatabaseHandle,
  env: Record<string, string>,
  superPhone?: string,
): Promise<Instance> {
  const testApp = await startApp(database, {
    ...ROLLOUT_ENV,
    ...env,
    ...(superPhone ? { SUPER_USER_PHONES: superPhone } : {}),
  });
  const { token } = await signedIn(testApp.app, 'enterprise', testApp.superPhone, 'Rollout Lead');
  return { testApp, app: testApp.app, token };
}

let versionCounter = 0;

/** A release with a real file, and a channel linking it. */
export async function channelWithRelease(app: FastifyInstance, token: string) {
  versionCounter += 1;
  const version = `2.${versionCounter}.0-${randomBytes(3).toString('hex')}`;
  const created = await apiCall(app, 'POST', 'software/releases', token, { version });
  expect(created.statusCode, created.body).toBe(201);
  const release = created.json<{ id: number }>();
  const presigned = await apiCall(
    app,
    'POST',
    `software/releases/${release.id}/file/presigned_upload`,
    token,
    { filename: 'agent.bin' },
  );
  expect(presigned.statusCode, presigned.body).toBe(200);
  const { upload_url, s3_key } = presigned.json<{ upload_url: string; s3_key: string }>();
  const put = await app.inject({
    method: 'PUT',
    url: upload_url,
    payload: randomBytes(4096),
    headers: { 'content-type': 'application/octet-stream' },
  });
  expect(put.statusCode, put.body).toBe(204);
  const confirmed = await apiCall(
    app,
    'POST',
    `software/releases/${release.id}/file/confirm`,
    token,
    {
      s3_key,
    },
  );
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  const channel = await apiCall(app, 'POST', 'software/channels', token, {
    name: `Rollout ${version}`,
    release_id: release.id,
  });
  expect(channel.statusCode, channel.body).toBe(201);
  return { version, releaseId: release.id, channelId: channel.json<{ id: number }>().id };
}

/**
 * `modes.length` booths registered through the API, put on the channel, connected to `url` and
 * reporting idle on the old version (the server has recorded that before this returns).
 */
export async function boothsOnChannel(
  instance: Instance,
  database: DatabaseHandle,
  url: string,
  channelId: number,
  modes: BoothMode[],
  app: () => FastifyInstance = () => instance.app,
): Promise<FakeBooth[]> {
  const booths: FakeBooth[] = [];
  for (const mode of modes) {
    const device = await registerDevice(instance.app, instance.token);
    const patched = await apiCall(instance.app, 'PATCH', `devices/${device.id}`, instance.token, {
      software_channel_id: channelId,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const booth = new FakeBooth(device.id, device.thingName, device.secret, mode, app);
    await booth.connect(url);
    booths.push(booth);
  }
  for (const booth of booths) {
    await eventually(
      async () => (await database.db.select().from(devices).where(eq(devices.id, booth.id)))[0],
      (row) => row?.status === 'idle' && row.softwareVersion === OLD_VERSION,
    );
  }
  return booths;
}

/** Starts a rollout; without `body` the request has none at all (the web's "Roll out" sends none). */
export async function startRollout(
  instance: Instance,
  channelId: number,
  body?: object,
): Promise<Rollout> {
  const response = await apiCall(
    instance.app,
    'POST',
    `software/channels/${channelId}/rollouts`,
    instance.token,
    body,
  );
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Rollout>();
}

export async function readRollout(instance: Instance, id: number): Promise<Rollout> {
  const response = await apiCall(instance.app, 'GET', `software/rollouts/${id}`, instance.token);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Rollout>();
}

/** Waits until the rollout is in `state` and returns it. */
export function rolloutIn(
  instance: Instance,
  id: number,
  accept: (rollout: Rollout) => boolean,
  ms = 15_000,
): Promise<Rollout> {
  return eventually(() => readRollout(instance, id), accept, ms);
}

/** The booths of each wave, by device id, in wave order. */
export const waveMembers = (rollout: Rollout) =>
  rollout.waves.map((wave) => wave.devices.map((device) => device.device_id));

/** Waits until the booth has received `count` update commands. */
export function received(booth: FakeBooth, count = 1): Promise<number> {
  return eventually(
    () => booth.commands.length,
    (length) => length >= count,
  );
}
