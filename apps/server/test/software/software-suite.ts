import { createHash, randomBytes } from 'node:crypto';
import {
  type DeviceCommandMessage,
  DeviceUpdatePayloadSchema,
  mqttTopics,
} from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import pino from 'pino';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Config } from '../../src/config.js';
import type { DatabaseHandle } from '../../src/db/client.js';
import { organizations, users } from '../../src/db/schema.js';
import { DevicesRepository } from '../../src/modules/devices/devices.repository.js';
import { createDeviceLink } from '../../src/modules/mqtt/create-device-link.js';
import { createStorage } from '../../src/modules/storage/create-storage.js';
import type { ObjectStorage } from '../../src/modules/storage/storage.js';
import type { DatabaseTarget } from '../databases.js';
import {
  bearer,
  signedIn,
  signedInOrgStaff,
  signedInProductAdmin,
  startApp,
  type TestClock,
  testConfig,
} from '../harness.js';

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
/** The booth answers `update` only after installing; tests wait this long for a silent one. */
export const UPDATE_TIMEOUT_MS = 2500;

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export interface Reply {
  statusCode: number;
  body: string;
  json: <T = Record<string, unknown>>() => T;
  headers: Record<string, unknown>;
}

export interface ChannelBody {
  id: number;
  name: string;
  description: string | null;
  release_id: number | null;
  release_version: string | null;
  created_at: string;
  created_by: number | null;
  created_by_name: string | null;
}
export interface ReleaseBody {
  id: number;
  version: string;
  release_notes: string | null;
  is_uploaded: boolean;
  s3_key: string | null;
  s3_url: string | null;
  s3_url_expiry: string | null;
  sha256: string | null;
  size_bytes: number | null;
  created_at: string;
  created_by: number | null;
  created_by_name: string | null;
}

/** What a scripted booth does with an `update` command. */
export type BoothMode = 'install' | 'refuse' | 'silent';

export interface ScriptedBooth {
  client: MqttClient;
  mode: BoothMode;
  /** `update` commands received, with what the booth found when it downloaded the file. */
  updates: { command: DeviceCommandMessage; downloaded?: { sha256: string; size: number } }[];
}

export const sha256 = (body: Buffer) => createHash('sha256').update(body).digest('hex');

export const expectError = (response: Reply, status: number, message: string) => {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json()).toMatchObject({ message });
};

/**
 * One test file's app (with the embedded broker and the local store), a super user, a product
 * admin, organization A's admin and member, a staff outsider and a visitor, and the calls the
 * software tests make. Started before the file's tests, stopped after them.
 */
export function useSoftwareSuite(open: DatabaseTarget['open']): SoftwareSuite {
  const suite = new SoftwareSuite();
  beforeAll(() => suite.start(open));
  afterAll(() => suite.stop());
  return suite;
}

export class SoftwareSuite {
  database!: DatabaseHandle;
  app!: FastifyInstance;
  clock!: TestClock;
  config!: Config;
  /** The same store (folder, secret, clock) as the app's, to look at objects directly. */
  storage!: ObjectStorage;
  brokerUrl!: string;
  readonly booths: ScriptedBooth[] = [];

  readonly superPhone = `+9180${String(process.pid).padStart(8, '0').slice(-8)}`;
  superToken!: string;
  superId!: number;
  productAdminToken!: string;
  /** Staff of organization A: its admin and a member; `outsider` belongs to no organization. */
  orgA!: number;
  orgAdmin!: string;
  orgMember!: string;
  outsider!: string;
  visitor!: string;
  /** Unique per database target, so searches see only this run's rows. */
  readonly tag = randomBytes(4).toString('hex');
  private versionCounter = 0;

  async start(open: DatabaseTarget['open']) {
    this.database = await open();
    const repository = new DevicesRepository(this.database.db);
    const { link } = createDeviceLink(
      testConfig({ MQTT_PORT: '0', MQTT_HOST: '127.0.0.1' }),
      (thing) => repository.secretHashOf(thing),
      log,
    );
    const { app, clock, config } = await startApp(
      this.database,
      {
        SUPER_USER_PHONES: this.superPhone,
        OTP_SEND_LIMIT_PER_IP: '1000',
        DEVICE_COMMAND_TIMEOUT_MS: '3000',
        DEVICE_UPDATE_TIMEOUT_MS: String(UPDATE_TIMEOUT_MS),
      },
      { deviceLink: link },
    );
    Object.assign(this, { app, clock, config });
    this.brokerUrl = link.url;
    this.storage = await createStorage(config, clock.now);

    const db = this.database.db;
    const superUser = await signedIn(app, 'enterprise', this.superPhone, 'Asha Super');
    this.superToken = superUser.token;
    this.superId = superUser.userId;
    // The seed made this account (SUPER_USER_PHONES); give it a name to find in created_by_name.
    await db.update(users).set({ name: 'Asha Super' }).where(eq(users.id, this.superId));
    this.productAdminToken = (await signedInProductAdmin(app, this.database)).token;
    [this.orgA] = (await db.insert(organizations).values({ name: 'Sunrise Mall' }).returning()).map(
      (row) => row.id,
    ) as [number];
    const staff = async (role: 'admin' | 'member') =>
      (await signedInOrgStaff(app, this.database, this.orgA, role)).token;
    this.orgAdmin = await staff('admin');
    this.orgMember = await staff('member');
    this.outsider = (await signedIn(app, 'enterprise')).token;
    this.visitor = (await signedIn(app, 'regular')).token;
  }

  async stop() {
    for (const booth of this.booths) await booth.client.endAsync(true).catch(() => undefined);
    await this.app?.close();
    await this.storage?.close();
    await this.database?.close();
  }

  call = (method: Method, url: string, token?: string, payload?: object): Promise<Reply> =>
    this.app.inject({
      method,
      url: `/api/enterprise/${url}`,
      headers: token ? bearer(token) : {},
      ...(payload ? { payload } : {}),
    }) as unknown as Promise<Reply>;

  createChannel = async (body: object, token = this.superToken): Promise<ChannelBody> => {
    const response = await this.call('POST', 'software/channels', token, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<ChannelBody>();
  };

  postChannel = (body: object) => this.call('POST', 'software/channels', this.superToken, body);

  createRelease = async (version?: string, notes?: string): Promise<ReleaseBody> => {
    this.versionCounter += 1;
    const response = await this.call('POST', 'software/releases', this.superToken, {
      version: version ?? `${this.versionCounter}.0.0-${this.tag}`,
      ...(notes !== undefined ? { release_notes: notes } : {}),
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<ReleaseBody>();
  };

  put = (url: string, body: Buffer, contentType: string) =>
    this.app.inject({
      method: 'PUT',
      url,
      payload: body,
      headers: { 'content-type': contentType },
    });

  /** Presigns, PUTs `body` and returns the key (not yet confirmed). */
  uploadFile = async (id: number, body: Buffer, contentType?: string): Promise<string> => {
    const presigned = await this.call(
      'POST',
      `software/releases/${id}/file/presigned_upload`,
      this.superToken,
      {
        filename: 'flashbooth-agent.bin',
        ...(contentType ? { contentType } : {}),
      },
    );
    expect(presigned.statusCode, presigned.body).toBe(200);
    const { upload_url, s3_key } = presigned.json<{ upload_url: string; s3_key: string }>();
    const uploaded = await this.put(upload_url, body, contentType ?? 'application/octet-stream');
    expect(uploaded.statusCode, uploaded.body).toBe(204);
    return s3_key;
  };

  confirm = (id: number, key: string, token = this.superToken) =>
    this.call('POST', `software/releases/${id}/file/confirm`, token, { s3_key: key });

  /** A release with an uploaded, confirmed file. */
  uploadedRelease = async (body = randomBytes(64 * 1024)) => {
    const release = await this.createRelease();
    const confirmed = await this.confirm(release.id, await this.uploadFile(release.id, body));
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return { release: confirmed.json<ReleaseBody>(), body };
  };

  registerDevice = async (orgId?: number) => {
    const response = await this.call('POST', 'devices', this.superToken);
    expect(response.statusCode, response.body).toBe(201);
    const device = response.json<{ id: number; thing_name: string; secret: string }>();
    if (orgId) {
      const linked = await this.call('PATCH', `devices/${device.id}/link`, this.superToken, {
        org_id: orgId,
      });
      expect(linked.statusCode, linked.body).toBe(200);
    }
    return device;
  };

  setChannel = (deviceId: number, channelId: number | null) =>
    this.call('PATCH', `devices/${deviceId}`, this.superToken, { software_channel_id: channelId });

  /**
   * A booth on the embedded broker: it downloads the release from the command's URL, checks the
   * size and SHA-256, and answers `updated` (install), an error (refuse), or nothing (silent).
   */
  connectBooth = async (
    device: { thing_name: string; secret: string },
    mode: BoothMode,
  ): Promise<ScriptedBooth> => {
    const client = await mqtt.connectAsync(this.brokerUrl, {
      clientId: device.thing_name,
      username: device.thing_name,
      password: device.secret,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: 3000,
    });
    const booth: ScriptedBooth = { client, mode, updates: [] };
    this.booths.push(booth);
    client.on('message', (topic, payload) => {
      if (topic !== mqttTopics.commands(device.thing_name)) return;
      const command = JSON.parse(payload.toString()) as DeviceCommandMessage;
      if (command.command !== 'update') return;
      const entry: ScriptedBooth['updates'][number] = { command };
      booth.updates.push(entry);
      if (booth.mode === 'silent') return;
      void (async () => {
        let answer: Record<string, unknown>;
        if (booth.mode === 'refuse') {
          answer = { id: command.id, error: 'The checksum of the download did not match.' };
        } else {
          const update = DeviceUpdatePayloadSchema.parse(command.payload);
          const file = await this.app.inject({ method: 'GET', url: update.url });
          entry.downloaded = { sha256: sha256(file.rawPayload), size: file.rawPayload.length };
          const good =
            file.statusCode === 200 &&
            entry.downloaded.sha256 === update.sha256 &&
            entry.downloaded.size === update.size_bytes;
          answer = good
            ? { id: command.id, status: 'updated' }
            : { id: command.id, error: `download check failed (${file.statusCode})` };
        }
        await client.publishAsync(command.reply_to, JSON.stringify(answer), { qos: 1 });
      })();
    });
    await client.subscribeAsync(mqttTopics.commands(device.thing_name), { qos: 1 });
    return booth;
  };

  /** A device in organization A following a channel whose release has a file. */
  deviceOnRelease = async () => {
    const { release, body } = await this.uploadedRelease(randomBytes(200 * 1024));
    const channel = await this.createChannel({
      name: `Rollout ${this.tag}`,
      release_id: release.id,
    });
    const device = await this.registerDevice(this.orgA);
    expect((await this.setChannel(device.id, channel.id)).statusCode).toBe(200);
    return { release, body, channel, device };
  };
}
