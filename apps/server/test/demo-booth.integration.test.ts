import { readFile } from 'node:fs/promises';
import type { BoothAgent } from '@flashbooth/booth-agent';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.js';
import { openDatabase, type DatabaseHandle } from '../src/db/client.js';
import { devices, organizations } from '../src/db/schema.js';
import { hashDeviceSecret } from '../src/modules/devices/device-credentials.js';
import { DevicesRepository } from '../src/modules/devices/devices.repository.js';
import { createDeviceLink } from '../src/modules/mqtt/create-device-link.js';
import { UsersRepository } from '../src/modules/users/users.repository.js';
import {
  DEMO_BOOTH_NAME,
  demoBoothFile,
  ensureDemoBooth,
  PAID_DEMO_BOOTH,
  startDemoBooth,
} from '../src/seed/demo-booth.js';
import { DEMO_ADMIN_PHONE, DEMO_ORGANIZATION_NAME, seed } from '../src/seed/seed.js';
import { bearer, signedIn, startApp, testConfig } from './harness.js';

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

describe('the demo booth on the embedded defaults', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let config: Config;
  let booth: BoothAgent | undefined;

  beforeAll(async () => {
    database = await openDatabase({});
    const repository = new DevicesRepository(database.db);
    const env = { DEMO_DATA: 'true', MQTT_PORT: '0', MQTT_HOST: '127.0.0.1' };
    // As app.ts does, but kept here to read the embedded broker's random port from the link.
    const { link } = createDeviceLink(
      testConfig(env),
      (thing) => repository.secretHashOf(thing),
      log,
    );
    ({ app, config } = await startApp(database, env, { deviceLink: link }));
    // As server.ts does once the app listens.
    booth = await startDemoBooth({ config, brokerUrl: link.url, log });
  });

  const demoDeviceId = async () =>
    (JSON.parse(await readFile(demoBoothFile(config.dataDir), 'utf8')) as { device_id: number })
      .device_id;

  afterAll(async () => {
    await booth?.stop();
    await app?.close();
    await database?.close();
  });

  it('is registered once, linked to the demo organization, free, with only the hash stored', async () => {
    const file = JSON.parse(await readFile(demoBoothFile(config.dataDir), 'utf8')) as {
      thing_name: string;
      secret: string;
      device_id: number;
    };
    const rows = await database.db
      .select()
      .from(devices)
      .where(eq(devices.thingName, file.thing_name));
    expect(rows).toHaveLength(1);
    const [org] = await database.db
      .select()
      .from(organizations)
      .where(eq(organizations.name, DEMO_ORGANIZATION_NAME));
    expect(rows[0]).toMatchObject({
      id: file.device_id,
      name: DEMO_BOOTH_NAME,
      orgId: org!.id,
      pricePaise: 0,
      secretHash: hashDeviceSecret(file.secret),
    });

    // Seeding again (another start) changes nothing.
    await seed({ db: database.db, users: new UsersRepository(database.db), config, log });
    const again = await ensureDemoBooth({
      db: database.db,
      dataDir: config.dataDir,
      orgId: org!.id,
      log,
    });
    expect(again).toEqual({ deviceId: file.device_id, thingName: file.thing_name });
    expect(JSON.parse(await readFile(demoBoothFile(config.dataDir), 'utf8'))).toEqual(file);
    // The free booth and the paid one, each once.
    expect(await database.db.select().from(devices)).toHaveLength(2);
  });

  it('registers a paid demo booth after the free one, with its own login file', async () => {
    const free = JSON.parse(await readFile(demoBoothFile(config.dataDir), 'utf8')) as {
      device_id: number;
    };
    const paid = JSON.parse(
      await readFile(demoBoothFile(config.dataDir, PAID_DEMO_BOOTH), 'utf8'),
    ) as { thing_name: string; secret: string; device_id: number };
    expect(paid.device_id).toBeGreaterThan(free.device_id);
    const [row] = await database.db
      .select()
      .from(devices)
      .where(eq(devices.thingName, paid.thing_name));
    expect(row).toMatchObject({
      id: paid.device_id,
      name: 'Paid Demo Booth',
      pricePaise: 4950,
      secretHash: hashDeviceSecret(paid.secret),
    });
    expect(row!.orgId).not.toBeNull();
  });

  it('is online, and answers a staff ping as the demo admin with idle', async () => {
    expect(booth).toBeDefined();
    expect(booth!.connected).toBe(true);
    const id = await demoDeviceId();
    const { token } = await signedIn(app, 'enterprise', DEMO_ADMIN_PHONE);
    const response = await app.inject({
      method: 'POST',
      url: `/api/enterprise/devices/${id}/ping`,
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id,
      name: DEMO_BOOTH_NAME,
      org_name: DEMO_ORGANIZATION_NAME,
      status: 'idle',
      price_rupees: 0,
      software_version: expect.any(String),
    });
  });

  it('reports offline when stopped, before the app closes', async () => {
    const id = await demoDeviceId();
    await booth!.stop();
    booth = undefined;
    const deadline = Date.now() + 3000;
    let status = '';
    while (Date.now() < deadline) {
      [{ status } = { status: '' }] = await database.db
        .select({ status: devices.status })
        .from(devices)
        .where(eq(devices.id, id));
      if (status === 'offline') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe('offline');
  });
});
