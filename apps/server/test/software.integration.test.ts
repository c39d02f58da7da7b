import { createHash, randomBytes } from 'node:crypto';
import {
  DEVICE_MESSAGES,
  type DeviceCommandMessage,
  DeviceUpdatePayloadSchema,
  mqttTopics,
  SOFTWARE_MESSAGES,
} from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.js';
import type { DatabaseHandle } from '../src/db/client.js';
import { devices, organizations, users } from '../src/db/schema.js';
import { DevicesRepository } from '../src/modules/devices/devices.repository.js';
import { createDeviceLink } from '../src/modules/mqtt/create-device-link.js';
import { createStorage } from '../src/modules/storage/create-storage.js';
import type { ObjectStorage } from '../src/modules/storage/storage.js';
import { databaseTargets } from './databases.js';
import {
  bearer,
  signedIn,
  signedInOrgStaff,
  signedInProductAdmin,
  startApp,
  type TestClock,
  testConfig,
} from './harness.js';

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
/** The booth answers `update` only after installing; tests wait this long for a silent one. */
const UPDATE_TIMEOUT_MS = 2500;

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
interface Reply {
  statusCode: number;
  body: string;
  json: <T = Record<string, unknown>>() => T;
  headers: Record<string, unknown>;
}

interface ChannelBody {
  id: number;
  name: string;
  description: string | null;
  release_id: number | null;
  release_version: string | null;
  created_at: string;
  created_by: number | null;
  created_by_name: string | null;
}
interface ReleaseBody {
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
type BoothMode = 'install' | 'refuse' | 'silent';

interface ScriptedBooth {
  client: MqttClient;
  mode: BoothMode;
  /** `update` commands received, with what the booth found when it downloaded the file. */
  updates: { command: DeviceCommandMessage; downloaded?: { sha256: string; size: number } }[];
}

const sha256 = (body: Buffer) => createHash('sha256').update(body).digest('hex');

describe.each(databaseTargets)('software channels, releases and updates on $name', ({ open }) => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let clock: TestClock;
  let config: Config;
  /** The same store (folder, secret, clock) as the app's, to look at objects directly. */
  let storage: ObjectStorage;
  let brokerUrl: string;
  const booths: ScriptedBooth[] = [];

  const superPhone = `+9180${String(process.pid).padStart(8, '0').slice(-8)}`;
  let superToken: string;
  let superId: number;
  let productAdminToken: string;
  /** Staff of organization A: its admin and a member; `outsider` belongs to no organization. */
  let orgA: number;
  let orgAdmin: string;
  let orgMember: string;
  let outsider: string;
  let visitor: string;
  /** Unique per database target, so searches see only this run's rows. */
  const tag = randomBytes(4).toString('hex');

  beforeAll(async () => {
    database = await open();
    const repository = new DevicesRepository(database.db);
    const { link } = createDeviceLink(
      testConfig({ MQTT_PORT: '0', MQTT_HOST: '127.0.0.1' }),
      (thing) => repository.secretHashOf(thing),
      log,
    );
    ({ app, clock, config } = await startApp(
      database,
      {
        SUPER_USER_PHONES: superPhone,
        OTP_SEND_LIMIT_PER_IP: '1000',
        DEVICE_COMMAND_TIMEOUT_MS: '3000',
        DEVICE_UPDATE_TIMEOUT_MS: String(UPDATE_TIMEOUT_MS),
      },
      { deviceLink: link },
    ));
    brokerUrl = link.url;
    storage = await createStorage(config, clock.now);

    const db = database.db;
    const superUser = await signedIn(app, 'enterprise', superPhone, 'Asha Super');
    superToken = superUser.token;
    superId = superUser.userId;
    // The seed made this account (SUPER_USER_PHONES); give it a name to find in created_by_name.
    await db.update(users).set({ name: 'Asha Super' }).where(eq(users.id, superId));
    productAdminToken = (await signedInProductAdmin(app, database)).token;
    [orgA] = (await db.insert(organizations).values({ name: 'Sunrise Mall' }).returning()).map(
      (row) => row.id,
    ) as [number];
    const staff = async (role: 'admin' | 'member') =>
      (await signedInOrgStaff(app, database, orgA, role)).token;
    orgAdmin = await staff('admin');
    orgMember = await staff('member');
    outsider = (await signedIn(app, 'enterprise')).token;
    visitor = (await signedIn(app, 'regular')).token;
  });
  afterAll(async () => {
    for (const booth of booths) await booth.client.endAsync(true).catch(() => undefined);
    await app?.close();
    await storage?.close();
    await database?.close();
  });

  const call = (method: Method, url: string, token?: string, payload?: object): Promise<Reply> =>
    app.inject({
      method,
      url: `/api/enterprise/${url}`,
      headers: token ? bearer(token) : {},
      ...(payload ? { payload } : {}),
    }) as unknown as Promise<Reply>;

  const expectError = (response: Reply, status: number, message: string) => {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json()).toMatchObject({ message });
  };

  async function createChannel(body: object, token = superToken): Promise<ChannelBody> {
    const response = await call('POST', 'software/channels', token, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<ChannelBody>();
  }

  const postChannel = (body: object) => call('POST', 'software/channels', superToken, body);

  let versionCounter = 0;
  async function createRelease(version?: string, notes?: string): Promise<ReleaseBody> {
    versionCounter += 1;
    const response = await call('POST', 'software/releases', superToken, {
      version: version ?? `${versionCounter}.0.0-${tag}`,
      ...(notes !== undefined ? { release_notes: notes } : {}),
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<ReleaseBody>();
  }

  const put = (url: string, body: Buffer, contentType: string) =>
    app.inject({ method: 'PUT', url, payload: body, headers: { 'content-type': contentType } });

  /** Presigns, PUTs `body` and returns the key (not yet confirmed). */
  async function uploadFile(id: number, body: Buffer, contentType?: string): Promise<string> {
    const presigned = await call(
      'POST',
      `software/releases/${id}/file/presigned_upload`,
      superToken,
      {
        filename: 'flashbooth-agent.bin',
        ...(contentType ? { contentType } : {}),
      },
    );
    expect(presigned.statusCode, presigned.body).toBe(200);
    const { upload_url, s3_key } = presigned.json<{ upload_url: string; s3_key: string }>();
    const uploaded = await put(upload_url, body, contentType ?? 'application/octet-stream');
    expect(uploaded.statusCode, uploaded.body).toBe(204);
    return s3_key;
  }

  const confirm = (id: number, key: string, token = superToken) =>
    call('POST', `software/releases/${id}/file/confirm`, token, { s3_key: key });

  /** A release with an uploaded, confirmed file. */
  async function uploadedRelease(body = randomBytes(64 * 1024)) {
    const release = await createRelease();
    const confirmed = await confirm(release.id, await uploadFile(release.id, body));
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return { release: confirmed.json<ReleaseBody>(), body };
  }

  async function registerDevice(orgId?: number) {
    const response = await call('POST', 'devices', superToken);
    expect(response.statusCode, response.body).toBe(201);
    const device = response.json<{ id: number; thing_name: string; secret: string }>();
    if (orgId) {
      const linked = await call('PATCH', `devices/${device.id}/link`, superToken, {
        org_id: orgId,
      });
      expect(linked.statusCode, linked.body).toBe(200);
    }
    return device;
  }

  const setChannel = (deviceId: number, channelId: number | null) =>
    call('PATCH', `devices/${deviceId}`, superToken, { software_channel_id: channelId });

  // ---- channels ----

  it('creates, reads, changes and deletes channels with the spec fields', async () => {
    const release = await createRelease(undefined, 'First build');
    const created = await createChannel({
      name: `  Stable ${tag} `,
      description: 'Booths in malls',
      release_id: release.id,
    });
    expect(created).toEqual({
      id: expect.any(Number),
      name: `Stable ${tag}`,
      description: 'Booths in malls',
      release_id: release.id,
      release_version: release.version,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
      created_by: superId,
      created_by_name: 'Asha Super',
    });
    // Without a release (the create dialog's default) and with an empty description.
    const bare = await createChannel({ name: `Beta ${tag}`, description: '', release_id: null });
    expect(bare).toMatchObject({ description: null, release_id: null, release_version: null });
    // The picker's value may come as text.
    expect(
      await createChannel({ name: `Text ${tag}`, release_id: String(release.id) }),
    ).toMatchObject({ release_id: release.id });

    expect((await call('GET', `software/channels/${created.id}`, superToken)).json()).toEqual(
      created,
    );

    // The edit dialog: name and description.
    const edited = await call('PATCH', `software/channels/${created.id}`, superToken, {
      name: 'Stable (malls)',
      description: '',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      name: 'Stable (malls)',
      description: null,
      release_id: release.id,
    });
    // The link dialog: release_id, and null to unlink.
    const other = await createRelease();
    expect(
      (
        await call('PATCH', `software/channels/${bare.id}`, superToken, { release_id: other.id })
      ).json(),
    ).toMatchObject({ release_id: other.id, release_version: other.version, name: `Beta ${tag}` });
    expect(
      (
        await call('PATCH', `software/channels/${bare.id}`, superToken, { release_id: null })
      ).json(),
    ).toMatchObject({ release_id: null, release_version: null });
    expectError(
      await call('PATCH', `software/channels/${bare.id}`, superToken, { release_id: 99_999_999 }),
      404,
      SOFTWARE_MESSAGES.releaseNotFound,
    );
    expectError(
      await postChannel({ name: 'Dangling', release_id: 99_999_999 }),
      404,
      SOFTWARE_MESSAGES.releaseNotFound,
    );

    const removed = await call('DELETE', `software/channels/${bare.id}`, superToken);
    expect(removed.statusCode).toBe(204);
    expectError(
      await call('GET', `software/channels/${bare.id}`, superToken),
      404,
      SOFTWARE_MESSAGES.channelNotFound,
    );
    expectError(
      await call('DELETE', `software/channels/${bare.id}`, superToken),
      404,
      SOFTWARE_MESSAGES.channelNotFound,
    );
    expectError(
      await call('PATCH', `software/channels/${bare.id}`, superToken, { name: 'x' }),
      404,
      SOFTWARE_MESSAGES.channelNotFound,
    );
  });

  it('lists channels newest first, 9 a page by default, searching name and description', async () => {
    const prefix = `page-${tag}`;
    const ids: number[] = [];
    for (let index = 0; index < 11; index += 1) {
      ids.push(
        (
          await createChannel({
            name: `${prefix} ${index}`,
            description: index === 4 ? `only here ${tag}_%` : null,
          })
        ).id,
      );
    }
    const first = await call('GET', `software/channels?search=${prefix}`, superToken);
    expect(first.statusCode).toBe(200);
    const page = first.json<{ items: ChannelBody[]; total_count: number }>();
    expect(page.total_count).toBe(11);
    expect(page.items.map((item) => item.id)).toEqual(ids.slice().reverse().slice(0, 9));

    const second = await call(
      'GET',
      `software/channels?search=${prefix}&limit=9&offset=9`,
      superToken,
    );
    expect(second.json<{ items: ChannelBody[] }>().items.map((item) => item.id)).toEqual([
      ids[1],
      ids[0],
    ]);
    // The device dialog's picker loads 200; more is refused.
    const picker = await call('GET', `software/channels?search=${prefix}&limit=200`, superToken);
    expect(picker.json<{ items: unknown[] }>().items).toHaveLength(11);
    expect((await call('GET', 'software/channels?limit=201', superToken)).statusCode).toBe(400);

    // Description search; the pattern characters are literal.
    const byDescription = await call(
      'GET',
      `software/channels?search=${encodeURIComponent(`${tag}_%`)}`,
      superToken,
    );
    expect(byDescription.json<{ items: ChannelBody[] }>().items.map((item) => item.id)).toEqual([
      ids[4],
    ]);
    expect((await call('GET', `software/channels?search=${prefix}%25`, superToken)).json()).toEqual(
      { items: [], total_count: 0 },
    );
  });

  it('validates channels and releases with the spec messages', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: null }, { description: 'd' }]) {
      expectError(
        await call('POST', 'software/channels', superToken, body),
        400,
        SOFTWARE_MESSAGES.channelNameRequired,
      );
    }
    expectError(
      await call('POST', 'software/channels', superToken, { name: 'x'.repeat(101) }),
      400,
      SOFTWARE_MESSAGES.channelNameTooLong,
    );
    expectError(
      await call('POST', 'software/channels', superToken, { name: 'x', release_id: 'abc' }),
      400,
      SOFTWARE_MESSAGES.releaseIdInvalid,
    );
    const channel = await createChannel({ name: `Validation ${tag}` });
    expectError(
      await call('PATCH', `software/channels/${channel.id}`, superToken, {}),
      400,
      SOFTWARE_MESSAGES.noChanges,
    );
    expectError(
      await call('PATCH', `software/channels/${channel.id}`, superToken, { name: '  ' }),
      400,
      SOFTWARE_MESSAGES.channelNameRequired,
    );
    expect(
      (await call('PATCH', `software/channels/${channel.id}`, superToken, { colour: 'red' }))
        .statusCode,
    ).toBe(400);

    for (const body of [{}, { version: '' }, { version: '  ' }, { release_notes: 'n' }]) {
      expectError(
        await call('POST', 'software/releases', superToken, body),
        400,
        SOFTWARE_MESSAGES.versionRequired,
      );
    }
    for (const version of ['1.0 beta', '../1.0', '.hidden', '1.0/2']) {
      expectError(
        await call('POST', 'software/releases', superToken, { version }),
        400,
        SOFTWARE_MESSAGES.versionCharacters,
      );
    }
    const release = await createRelease();
    expectError(
      await call('PATCH', `software/releases/${release.id}`, superToken, {}),
      400,
      SOFTWARE_MESSAGES.noChanges,
    );
    expectError(
      await call('PATCH', `software/releases/${release.id}`, superToken, { version: ' ' }),
      400,
      SOFTWARE_MESSAGES.versionRequired,
    );
    expectError(
      await call('POST', `software/releases/${release.id}/file/presigned_upload`, superToken, {
        filename: 'page.html',
        contentType: 'text/html',
      }),
      400,
      SOFTWARE_MESSAGES.contentType,
    );
    expectError(
      await call('POST', `software/releases/${release.id}/file/confirm`, superToken, {}),
      400,
      SOFTWARE_MESSAGES.s3KeyRequired,
    );
  });

  it('refuses every software call to other staff (403) and to visitors and strangers (401)', async () => {
    const channel = await createChannel({ name: `Guarded ${tag}` });
    const release = await createRelease();
    const calls: [Method, string, object?][] = [
      ['POST', 'software/channels', { name: 'Mine' }],
      ['GET', 'software/channels'],
      ['GET', `software/channels/${channel.id}`],
      ['PATCH', `software/channels/${channel.id}`, { name: 'Mine' }],
      ['DELETE', `software/channels/${channel.id}`],
      ['POST', 'software/releases', { version: `9.9.9-${tag}` }],
      ['GET', 'software/releases'],
      ['GET', `software/releases/${release.id}`],
      ['PATCH', `software/releases/${release.id}`, { release_notes: 'x' }],
      ['DELETE', `software/releases/${release.id}`],
      ['POST', `software/releases/${release.id}/file/presigned_upload`, { filename: 'a.bin' }],
      [
        'POST',
        `software/releases/${release.id}/file/confirm`,
        { s3_key: `software/releases/${release.id}/00000000-0000-0000-0000-000000000000.bin` },
      ],
    ];
    for (const [method, url, body] of calls) {
      for (const token of [orgAdmin, orgMember, outsider]) {
        expectError(await call(method, url, token, body), 403, SOFTWARE_MESSAGES.onlyAdmins);
      }
      expect((await call(method, url, visitor, body)).statusCode).toBe(401);
      expect((await call(method, url, undefined, body)).statusCode).toBe(401);
    }
    // Nothing was changed by the refused calls; product admins may do everything.
    expect(
      (await call('GET', `software/channels/${channel.id}`, productAdminToken)).json(),
    ).toEqual(channel);
    expect(
      (
        await call('PATCH', `software/releases/${release.id}`, productAdminToken, {
          release_notes: 'By the product admin',
        })
      ).json(),
    ).toMatchObject({ release_notes: 'By the product admin' });
    expect(
      (await call('POST', 'software/channels', productAdminToken, { name: `PA ${tag}` }))
        .statusCode,
    ).toBe(201);
  });

  // ---- releases ----

  it('creates, lists, changes and deletes releases; versions are unique in any case', async () => {
    const release = await createRelease(`2.0.0-RC1-${tag}`, '  Faster printing  ');
    expect(release).toEqual({
      id: expect.any(Number),
      version: `2.0.0-RC1-${tag}`,
      release_notes: 'Faster printing',
      is_uploaded: false,
      s3_key: null,
      s3_url: null,
      s3_url_expiry: null,
      sha256: null,
      size_bytes: null,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
      created_by: superId,
      created_by_name: 'Asha Super',
    });
    expectError(
      await call('POST', 'software/releases', superToken, { version: `2.0.0-rc1-${tag}` }),
      409,
      SOFTWARE_MESSAGES.versionTaken,
    );
    const other = await createRelease(`2.0.1-${tag}`);
    expectError(
      await call('PATCH', `software/releases/${other.id}`, superToken, {
        version: `2.0.0-rc1-${tag}`,
      }),
      409,
      SOFTWARE_MESSAGES.versionTaken,
    );

    const changed = await call('PATCH', `software/releases/${other.id}`, superToken, {
      version: `2.0.2-${tag}`,
      release_notes: '',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ version: `2.0.2-${tag}`, release_notes: null });
    expect(
      (
        await call('PATCH', `software/releases/${other.id}`, superToken, {
          release_notes: 'Notes only',
        })
      ).json(),
    ).toMatchObject({ version: `2.0.2-${tag}`, release_notes: 'Notes only' });

    const list = await call('GET', `software/releases?search=${tag}`, superToken);
    const body = list.json<{ items: ReleaseBody[]; total_count: number }>();
    expect(body.items.length).toBeLessThanOrEqual(9);
    expect(body.items.slice(0, 2).map((item) => item.id)).toEqual([other.id, release.id]);
    const byNotes = await call('GET', 'software/releases?search=faster%20PRINTING', superToken);
    expect(byNotes.json<{ items: ReleaseBody[] }>().items.map((item) => item.id)).toContain(
      release.id,
    );

    expect((await call('DELETE', `software/releases/${other.id}`, superToken)).statusCode).toBe(
      204,
    );
    expectError(
      await call('GET', `software/releases/${other.id}`, superToken),
      404,
      SOFTWARE_MESSAGES.releaseNotFound,
    );
    expectError(
      await call('DELETE', `software/releases/${other.id}`, superToken),
      404,
      SOFTWARE_MESSAGES.releaseNotFound,
    );
  });

  it('uploads a release file to a random key and computes its SHA-256 and size on confirm', async () => {
    const release = await createRelease();
    const presigned = await call(
      'POST',
      `software/releases/${release.id}/file/presigned_upload`,
      superToken,
      { filename: '../../etc/passwd' },
    );
    expect(presigned.statusCode, presigned.body).toBe(200);
    const { upload_url, s3_key } = presigned.json<{ upload_url: string; s3_key: string }>();
    expect(Object.keys(presigned.json()).sort()).toEqual(['s3_key', 'upload_url']);
    // The content type defaults to a raw binary; the client's file name is never used.
    expect(s3_key).toMatch(new RegExp(`^software/releases/${release.id}/[0-9a-f-]{36}\\.bin$`));
    expect(upload_url).toContain(s3_key);
    expect(upload_url).not.toContain('passwd');

    // The type is signed into the URL.
    const body = randomBytes(300 * 1024);
    expect((await put(upload_url, body, 'application/zip')).statusCode).toBe(400);
    // Not uploaded yet.
    expectError(await confirm(release.id, s3_key), 400, SOFTWARE_MESSAGES.uploadNotFound);
    expect((await put(upload_url, body, 'application/octet-stream')).statusCode).toBe(204);
    expect((await confirm(release.id, s3_key, orgAdmin)).statusCode).toBe(403);

    const before = clock.now().getTime();
    const confirmed = await confirm(release.id, s3_key);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const uploaded = confirmed.json<ReleaseBody>();
    expect(uploaded).toMatchObject({
      id: release.id,
      version: release.version,
      is_uploaded: true,
      s3_key,
      sha256: sha256(body),
      size_bytes: body.length,
    });
    // s3_url_expiry says when the one-hour download link stops working.
    const expiry = Date.parse(`${uploaded.s3_url_expiry}Z`);
    expect(expiry).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3600_000);
    expect(expiry).toBeLessThanOrEqual(clock.now().getTime() + 3600_000);

    // The download link serves exactly the uploaded bytes under a readable name.
    const download = await app.inject({ method: 'GET', url: uploaded.s3_url! });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(body)).toBe(true);
    expect(download.headers['content-disposition']).toContain(`flashbooth-${release.version}.bin`);

    // Confirming again changes nothing; GET shows the same file.
    expect((await confirm(release.id, s3_key)).json()).toMatchObject({ sha256: sha256(body) });
    expect((await call('GET', `software/releases/${release.id}`, superToken)).json()).toMatchObject(
      { is_uploaded: true, s3_key, sha256: sha256(body), size_bytes: body.length },
    );
    // The list shows it uploaded too.
    const listed = (
      await call('GET', `software/releases?search=${release.version}`, superToken)
    ).json<{ items: ReleaseBody[] }>();
    expect(listed.items[0]).toMatchObject({ id: release.id, is_uploaded: true });
  });

  it('accepts only keys handed out for that release, and refuses empty files', async () => {
    const release = await createRelease();
    const other = await createRelease();
    const foreignKey = await uploadFile(other.id, randomBytes(1000));
    expectError(await confirm(release.id, foreignKey), 400, SOFTWARE_MESSAGES.uploadForeign);
    for (const key of [
      'media/abc.jpg',
      `software/releases/${release.id}/../${other.id}/x.bin`,
      `software/releases/${release.id}/not-a-uuid.bin`,
    ]) {
      expectError(await confirm(release.id, key), 400, SOFTWARE_MESSAGES.uploadForeign);
    }
    // The other release's file was not touched.
    expect(await storage.head(foreignKey)).not.toBeNull();

    const emptyKey = await uploadFile(release.id, Buffer.alloc(0));
    expectError(await confirm(release.id, emptyKey), 400, SOFTWARE_MESSAGES.fileEmpty);
    expect(await storage.head(emptyKey)).toBeNull();
    expect((await call('GET', `software/releases/${release.id}`, superToken)).json()).toMatchObject(
      { is_uploaded: false, s3_key: null, sha256: null },
    );
  });

  it('re-uploads a release file: new checksum, the old file deleted', async () => {
    const { release, body } = await uploadedRelease();
    const oldKey = release.s3_key!;
    const newBody = Buffer.concat([body, Buffer.from('patch')]);
    const newKey = await uploadFile(release.id, newBody, 'application/gzip');
    expect(newKey).toMatch(/\.tar\.gz$/);
    const confirmed = await confirm(release.id, newKey);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({
      s3_key: newKey,
      sha256: sha256(newBody),
      size_bytes: newBody.length,
    });
    expect(await storage.head(oldKey)).toBeNull();
    expect(await storage.head(newKey)).toMatchObject({ size: newBody.length });
    // The old link now finds nothing.
    expect((await app.inject({ method: 'GET', url: release.s3_url! })).statusCode).toBe(404);
  });

  it('refuses to delete a release a channel links (409), and deletes its file otherwise', async () => {
    const { release } = await uploadedRelease();
    const channel = await createChannel({ name: `Pinned ${tag}`, release_id: release.id });
    const refused = await call('DELETE', `software/releases/${release.id}`, superToken);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      message: `This release is linked to the software channel "Pinned ${tag}". Link another release to the channel (or unlink it) first.`,
      code: 'conflict',
    });
    // Nothing was removed.
    expect(await storage.head(release.s3_key!)).not.toBeNull();
    expect((await call('GET', `software/releases/${release.id}`, superToken)).statusCode).toBe(200);

    expect(
      (await call('PATCH', `software/channels/${channel.id}`, superToken, { release_id: null }))
        .statusCode,
    ).toBe(200);
    expect((await call('DELETE', `software/releases/${release.id}`, superToken)).statusCode).toBe(
      204,
    );
    expect(await storage.head(release.s3_key!)).toBeNull();
    expectError(
      await call('GET', `software/releases/${release.id}`, superToken),
      404,
      SOFTWARE_MESSAGES.releaseNotFound,
    );
  });

  // ---- devices and channels ----

  it("links devices to channels, refuses an unknown channel, and clears a deleted channel's devices", async () => {
    const channel = await createChannel({ name: `Fleet ${tag}` });
    const booth = await registerDevice();
    const linked = await setChannel(booth.id, channel.id);
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json()).toMatchObject({ software_channel_id: channel.id });

    expectError(await setChannel(booth.id, 99_999_999), 404, SOFTWARE_MESSAGES.channelNotFound);
    // The refused change left the device as it was.
    expect((await call('GET', `devices/${booth.id}`, superToken)).json()).toMatchObject({
      software_channel_id: channel.id,
    });

    expect((await call('DELETE', `software/channels/${channel.id}`, superToken)).statusCode).toBe(
      204,
    );
    const [row] = await database.db.select().from(devices).where(eq(devices.id, booth.id));
    expect(row!.softwareChannelId).toBeNull();
    expect((await call('GET', `devices/${booth.id}`, superToken)).json()).toMatchObject({
      software_channel_id: null,
    });
  });

  // ---- software update over MQTT ----

  /**
   * A booth on the embedded broker: it downloads the release from the command's URL, checks the
   * size and SHA-256, and answers `updated` (install), an error (refuse), or nothing (silent).
   */
  async function connectBooth(
    device: { thing_name: string; secret: string },
    mode: BoothMode,
  ): Promise<ScriptedBooth> {
    const client = await mqtt.connectAsync(brokerUrl, {
      clientId: device.thing_name,
      username: device.thing_name,
      password: device.secret,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: 3000,
    });
    const booth: ScriptedBooth = { client, mode, updates: [] };
    booths.push(booth);
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
          const file = await app.inject({ method: 'GET', url: update.url });
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
  }

  /** A device in organization A following a channel whose release has a file. */
  async function deviceOnRelease() {
    const { release, body } = await uploadedRelease(randomBytes(200 * 1024));
    const channel = await createChannel({ name: `Rollout ${tag}`, release_id: release.id });
    const device = await registerDevice(orgA);
    expect((await setChannel(device.id, channel.id)).statusCode).toBe(200);
    return { release, body, channel, device };
  }

  it('sends the release to the booth, which downloads, verifies and installs it', async () => {
    const { release, body, channel, device } = await deviceOnRelease();
    const booth = await connectBooth(device, 'install');

    const started = Date.now();
    const response = await call('POST', `devices/${device.id}/update`, superToken);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      id: device.id,
      thing_name: device.thing_name,
      software_channel_id: channel.id,
      software_channel_name: channel.name,
      software_version: release.version,
    });

    expect(booth.updates).toHaveLength(1);
    const [{ command, downloaded }] = booth.updates as [ScriptedBooth['updates'][number]];
    expect(command).toMatchObject({
      command: 'update',
      reply_to: expect.stringMatching(/^flashbooth\/server\/[\w-]+\/replies$/),
    });
    expect(command.payload).toEqual({
      release_id: release.id,
      version: release.version,
      url: expect.any(String),
      sha256: sha256(body),
      size_bytes: body.length,
    });
    // The booth got the very bytes that were uploaded, and the checksum the server computed.
    expect(downloaded).toEqual({ sha256: sha256(body), size: body.length });
    // The command expires when the server stops waiting for it (the update timeout).
    const expires = Date.parse(command.expires_at!);
    expect(expires - started).toBeGreaterThanOrEqual(UPDATE_TIMEOUT_MS - 50);
    expect(expires - Date.now()).toBeLessThanOrEqual(UPDATE_TIMEOUT_MS);

    const [row] = await database.db.select().from(devices).where(eq(devices.id, device.id));
    expect(row!.softwareVersion).toBe(release.version);
    // Product admins may update too.
    expect((await call('POST', `devices/${device.id}/update`, productAdminToken)).statusCode).toBe(
      200,
    );
    expect(booth.updates).toHaveLength(2);
  });

  it('answers 409 when the device has no release with a file to install', async () => {
    const device = await registerDevice();
    expectError(
      await call('POST', `devices/${device.id}/update`, superToken),
      409,
      SOFTWARE_MESSAGES.noRelease,
    );
    const empty = await createChannel({ name: `Empty ${tag}` });
    await setChannel(device.id, empty.id);
    expectError(
      await call('POST', `devices/${device.id}/update`, superToken),
      409,
      SOFTWARE_MESSAGES.noRelease,
    );
    const withoutFile = await createRelease();
    await call('PATCH', `software/channels/${empty.id}`, superToken, {
      release_id: withoutFile.id,
    });
    expectError(
      await call('POST', `devices/${device.id}/update`, superToken),
      409,
      SOFTWARE_MESSAGES.releaseNotUploaded,
    );
  });

  it('lets only super users and product admins update a device', async () => {
    const { device } = await deviceOnRelease();
    const booth = await connectBooth(device, 'install');
    // Staff of the device's organization see it, so they are refused; others do not see it.
    for (const token of [orgAdmin, orgMember]) {
      expect((await call('POST', `devices/${device.id}/update`, token)).statusCode).toBe(403);
    }
    expectError(
      await call('POST', `devices/${device.id}/update`, outsider),
      404,
      DEVICE_MESSAGES.notFound,
    );
    expect((await call('POST', `devices/${device.id}/update`, visitor)).statusCode).toBe(401);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `/api/regular/devices/${device.id}/update`,
          headers: bearer(visitor),
        })
      ).statusCode,
    ).toBe(404);
    expectError(
      await call('POST', 'devices/99999999/update', superToken),
      404,
      DEVICE_MESSAGES.notFound,
    );
    expect(booth.updates).toHaveLength(0);
  });

  it("passes on the booth's refusal (409 with its message) and keeps the old version", async () => {
    const { device } = await deviceOnRelease();
    await database.db
      .update(devices)
      .set({ softwareVersion: '0.9.0' })
      .where(eq(devices.id, device.id));
    const booth = await connectBooth(device, 'refuse');
    const response = await call('POST', `devices/${device.id}/update`, superToken);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      message: `${SOFTWARE_MESSAGES.updateRefused}: The checksum of the download did not match.`,
      code: 'conflict',
    });
    expect(booth.updates).toHaveLength(1);
    const [row] = await database.db.select().from(devices).where(eq(devices.id, device.id));
    expect(row!.softwareVersion).toBe('0.9.0');
  });

  it('answers 503 when the booth does not answer within the update timeout', async () => {
    const { device } = await deviceOnRelease();
    const booth = await connectBooth(device, 'silent');
    const started = Date.now();
    const response = await call('POST', `devices/${device.id}/update`, superToken);
    const elapsed = Date.now() - started;
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      message: DEVICE_MESSAGES.noAnswer,
      code: 'service_unavailable',
    });
    expect(booth.updates).toHaveLength(1);
    expect(elapsed).toBeGreaterThanOrEqual(UPDATE_TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(UPDATE_TIMEOUT_MS + 2000);
    // A booth that is not connected at all is just as silent.
    const offline = await registerDevice();
    const channelId = (await call('GET', `devices/${device.id}`, superToken)).json<{
      software_channel_id: number;
    }>().software_channel_id;
    await setChannel(offline.id, channelId);
    expectError(
      await call('POST', `devices/${offline.id}/update`, superToken),
      503,
      DEVICE_MESSAGES.noAnswer,
    );
  });
});
