import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { type DatabaseHandle } from '../../src/db/client.js';
import { openPglite } from '../databases.js';
import { devices, organizations } from '../../src/db/schema.js';
import { hashDeviceSecret } from '../../src/security/device-credentials.js';
import { UsersRepository } from '../../src/modules/users/users.repository.js';
import {
  DEMO_BOOTH_NAME,
  demoBoothFile,
  ensureDemoBooth,
  FREE_DEMO_BOOTH,
  PAID_DEMO_BOOTH,
  registeredDemoBooths,
} from '../../src/seed/demo-booth.js';
import { DEMO_ORGANIZATION_NAME, seed } from '../../src/seed/seed.js';
import { startApp, testConfig } from '../harness.js';

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

// The simulated booths themselves run in the launcher (apps/launcher/test/launch.int.test.ts);
// the server only registers them and hands the launcher their logins.
describe('the demo booths on the embedded defaults', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let config: Config;

  beforeAll(async () => {
    database = await openPglite();
    ({ app, config } = await startApp(database, { DEMO_DATA: 'true', MQTT_PORT: '0' }));
  });

  afterAll(async () => {
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

  it('hands the launcher both registered booths with their logins and folders', async () => {
    const files = await Promise.all(
      [FREE_DEMO_BOOTH, PAID_DEMO_BOOTH].map(
        async (spec) =>
          JSON.parse(await readFile(demoBoothFile(config.dataDir, spec), 'utf8')) as {
            thing_name: string;
            secret: string;
            device_id: number;
          },
      ),
    );
    expect(await registeredDemoBooths(config, log)).toEqual([
      {
        name: DEMO_BOOTH_NAME,
        deviceId: files[0]!.device_id,
        thingName: files[0]!.thing_name,
        secret: files[0]!.secret,
        stateFile: path.join(config.dataDir, 'demo-booth-state.json'),
        releasesDir: path.join(config.dataDir, 'demo-booth-releases'),
        spoolDir: path.join(config.dataDir, 'spool'),
        queueDir: path.join(config.dataDir, 'demo-booth-queue'),
      },
      {
        name: 'Paid Demo Booth',
        deviceId: files[1]!.device_id,
        thingName: files[1]!.thing_name,
        secret: files[1]!.secret,
        stateFile: path.join(config.dataDir, 'demo-booth-paid-state.json'),
        releasesDir: path.join(config.dataDir, 'demo-booth-paid-releases'),
        spoolDir: path.join(config.dataDir, 'spool-paid'),
        queueDir: path.join(config.dataDir, 'demo-booth-paid-queue'),
      },
    ]);
  });

  it('hands over none without demo data, and leaves out one that is not registered', async () => {
    expect(await registeredDemoBooths({ ...config, demoData: false }, log)).toEqual([]);
    const other = testConfig({ DEMO_DATA: 'true' });
    // A login file without a device id: the seed never registered that booth.
    await writeFile(
      demoBoothFile(other.dataDir, PAID_DEMO_BOOTH),
      JSON.stringify({ thing_name: 'fb-unregistrd', secret: 'x' }),
    );
    const warnings: string[] = [];
    const recording = {
      warn: (message: string) => warnings.push(message),
    } as unknown as FastifyBaseLogger;
    expect(await registeredDemoBooths(other, recording)).toEqual([]);
    expect(warnings).toEqual([
      'no Demo Booth is registered; its simulated booth is not started',
      'no Paid Demo Booth is registered; its simulated booth is not started',
    ]);
  });
});
