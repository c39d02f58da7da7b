import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { devices } from '../db/schema.js';
import { hashDeviceSecret, newDeviceSecret, newThingName } from '../security/device-credentials.js';
import { DevicesRepository } from '../modules/devices/devices.repository.js';

export const DEMO_BOOTH_NAME = 'Demo Booth';

/**
 * The simulated booths of the demo organization: a free one (registered first, so device 1 on a
 * fresh data folder) and a paid one for trying the payment flow in the sandbox checkout. Each
 * keeps its own login, state, releases and spool under DATA_DIR, named by `file`.
 */
export interface DemoBoothSpec {
  name: string;
  pricePaise: number;
  /** DATA_DIR/<file>.json holds the login; <file>-state.json, <file>-releases, the spool. */
  file: string;
  spool: string;
}

export const FREE_DEMO_BOOTH: DemoBoothSpec = {
  name: DEMO_BOOTH_NAME,
  pricePaise: 0,
  file: 'demo-booth',
  spool: 'spool',
};
export const PAID_DEMO_BOOTH: DemoBoothSpec = {
  name: 'Paid Demo Booth',
  pricePaise: 4950,
  file: 'demo-booth-paid',
  spool: 'spool-paid',
};
export const DEMO_BOOTHS: readonly DemoBoothSpec[] = [FREE_DEMO_BOOTH, PAID_DEMO_BOOTH];

/**
 * DATA_DIR/demo-booth.json: the simulated booth's login, made once so the booth keeps its serial
 * and secret across restarts (the database holds only the secret's hash), and the device id the
 * seed found or registered for it.
 */
interface DemoBoothFile {
  thing_name: string;
  secret: string;
  device_id?: number;
}

export const demoBoothFile = (dataDir: string, spec: DemoBoothSpec = FREE_DEMO_BOOTH) =>
  path.join(dataDir, `${spec.file}.json`);

async function readDemoBoothFile(
  dataDir: string,
  spec: DemoBoothSpec,
): Promise<DemoBoothFile | undefined> {
  let text: string;
  try {
    text = await readFile(demoBoothFile(dataDir, spec), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const data = JSON.parse(text) as Partial<DemoBoothFile>;
  if (typeof data.thing_name !== 'string' || typeof data.secret !== 'string') {
    throw new Error(
      `${demoBoothFile(dataDir, spec)} lacks thing_name or secret; delete it to start over`,
    );
  }
  return {
    thing_name: data.thing_name,
    secret: data.secret,
    ...(typeof data.device_id === 'number' ? { device_id: data.device_id } : {}),
  };
}

/** The saved login, or a new one written exclusively (a concurrent start reads the winner's). */
async function demoCredentials(dataDir: string, spec: DemoBoothSpec): Promise<DemoBoothFile> {
  const existing = await readDemoBoothFile(dataDir, spec);
  if (existing) return existing;
  const fresh: DemoBoothFile = { thing_name: newThingName(), secret: newDeviceSecret() };
  try {
    await writeFile(demoBoothFile(dataDir, spec), JSON.stringify(fresh, null, 2), {
      mode: 0o600,
      flag: 'wx',
    });
    return fresh;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return (await readDemoBoothFile(dataDir, spec))!;
  }
}

/**
 * Idempotent: the demo device exists with the saved serial and secret. Registered on first run
 * as "Demo Booth", linked to the demo organization and free (price 0); later runs leave the
 * record as staff left it (renamed, re-priced, unlinked), except that the stored hash follows
 * the saved secret.
 */
export async function ensureDemoBooth({
  db,
  dataDir,
  orgId,
  log,
  booth: spec = FREE_DEMO_BOOTH,
}: {
  db: Database;
  dataDir: string;
  booth?: DemoBoothSpec;
  orgId: number;
  log: FastifyBaseLogger;
}): Promise<{ deviceId: number; thingName: string }> {
  const credentials = await demoCredentials(dataDir, spec);
  const thingName = credentials.thing_name;
  const secretHash = hashDeviceSecret(credentials.secret);
  const repository = new DevicesRepository(db);
  const find = async () =>
    (
      await db
        .select({ id: devices.id, secretHash: devices.secretHash })
        .from(devices)
        .where(eq(devices.thingName, thingName))
    )[0];

  let row = await find();
  if (!row) {
    const id = await repository.create({ name: spec.name, thingName, secretHash });
    if (id !== undefined) {
      await repository.update(id, { orgId, pricePaise: spec.pricePaise });
      log.info({ deviceId: id, thingName }, 'demo booth registered');
    }
    // undefined: another instance registered it at the same moment.
    row = await find();
    if (!row) throw new Error(`the demo booth ${thingName} could not be registered`);
  } else if (row.secretHash !== secretHash) {
    await db.update(devices).set({ secretHash }).where(eq(devices.id, row.id));
    log.warn({ deviceId: row.id, thingName }, `demo booth secret reset from ${spec.file}.json`);
  }
  if (credentials.device_id !== row.id) {
    await writeFile(
      demoBoothFile(dataDir, spec),
      JSON.stringify({ ...credentials, device_id: row.id }, null, 2),
      { mode: 0o600 },
    );
  }
  return { deviceId: row.id, thingName };
}

/**
 * Where the in-process demo booth finds the broker: MQTT_URL, or the embedded broker on this
 * machine (a wildcard listen address is reached through the loopback, as EmbeddedBroker.url does).
 */
export function demoBrokerUrl(config: Config): string {
  if (config.mqtt.url) return config.mqtt.url;
  if (config.mqtt.port === 0) {
    throw new Error(
      'the embedded broker port is not known yet (MQTT_PORT=0): pass the bound broker URL',
    );
  }
  const host = config.mqtt.host;
  const local = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `mqtt://${local.includes(':') ? `[${local}]` : local}:${config.mqtt.port}`;
}

/** A demo booth the seed registered, with what its simulated booth agent runs on. */
export interface RegisteredDemoBooth {
  name: string;
  deviceId: number;
  /** Its login on the broker. */
  thingName: string;
  secret: string;
  /** DATA_DIR/<file>-state.json: prints left, the applied restock, unsent error reports. */
  stateFile: string;
  /** DATA_DIR/<file>-releases: where updates install (the in-process booth only reports them). */
  releasesDir: string;
  /** DATA_DIR/<spool>: where its simulated printer puts the prints. */
  spoolDir: string;
  /** DATA_DIR/<file>-queue: its delivery queue (photos and prints waiting for the server). */
  queueDir: string;
}

/**
 * The demo booths the seed registered, read from their login files, for the development launcher
 * (apps/launcher) to run as simulated booths; none without demo data. One that is not registered
 * is logged and left out, as is one whose login file cannot be read.
 */
export async function registeredDemoBooths(
  config: Config,
  log: FastifyBaseLogger,
): Promise<RegisteredDemoBooth[]> {
  if (!config.demoData) return [];
  const found: RegisteredDemoBooth[] = [];
  for (const spec of DEMO_BOOTHS) {
    try {
      const booth = await readDemoBoothFile(config.dataDir, spec);
      if (!booth?.device_id) {
        log.warn(`no ${spec.name} is registered; its simulated booth is not started`);
        continue;
      }
      found.push({
        name: spec.name,
        deviceId: booth.device_id,
        thingName: booth.thing_name,
        secret: booth.secret,
        stateFile: path.join(config.dataDir, `${spec.file}-state.json`),
        releasesDir: path.join(config.dataDir, `${spec.file}-releases`),
        spoolDir: path.join(config.dataDir, spec.spool),
        queueDir: path.join(config.dataDir, `${spec.file}-queue`),
      });
    } catch (error) {
      log.error({ err: error, booth: spec.name }, 'a demo booth could not start');
    }
  }
  return found;
}
