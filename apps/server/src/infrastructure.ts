import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import { type DatabaseHandle, openDatabase } from './db/client.js';
import { migrate } from './db/migrate.js';
import { DevicesRepository } from './modules/devices/devices.repository.js';
import type { PreviewMaker } from './modules/media/preview-worker.js';
import { createDeviceLink } from './modules/mqtt/create-device-link.js';
import type { DeviceLink } from './modules/mqtt/device-link.js';
import type { MqttAccess } from './modules/mqtt/mqtt-access.js';
import { OutboxSmsSender, type SmsSender, SnsSmsSender } from './modules/sms/sms.sender.js';
import { createStorage } from './modules/storage/create-storage.js';
import { S3Storage } from './modules/storage/s3-storage.js';
import type { ObjectStorage } from './modules/storage/storage.js';
import { checkDatabaseUrl, checkObjectStore } from './startup-checks.js';

/** What a test (or another host) may hand the app instead of what the configuration names. */
export interface AppDependencies {
  /** An open database; when absent the app opens (and later closes) its own from config. */
  database?: DatabaseHandle;
  sms?: SmsSender;
  /** An object store; when absent the app makes (and later closes) its own from config. */
  storage?: ObjectStorage;
  /** The line to the booths; when absent the app makes one from config. Started after the
   * migrations and stopped when the app closes either way. */
  deviceLink?: DeviceLink;
  /** Makes a photo's low-res preview (tests: a slow or failing one); sharp when absent. */
  makePreview?: PreviewMaker;
  /** The clock, injectable so tests can move time (code expiry, throttling windows). */
  now?: () => Date;
  /** Skip pino output (tests). */
  logger?: boolean;
  /** Where pino writes (tests read it); stdout when absent. */
  loggerStream?: NodeJS.WritableStream;
}

/** The outside parts: each the embedded default or its production counterpart (DESIGN.md 1). */
export interface Infrastructure {
  database: DatabaseHandle;
  storage: ObjectStorage;
  sms: SmsSender;
  /** The development outbox (readable at /api/dev/sms when it is the SMS sender). */
  outbox: OutboxSmsSender;
  deviceLink: DeviceLink;
  /** The broker's access rules, for an external broker's HTTP auth hooks. */
  mqttAccess: MqttAccess;
  now: () => Date;
  /** Closes what this function opened (not what the caller handed in), newest first. */
  close(): Promise<void>;
}

/** Opens the database (migrated), the object store, the SMS sender and the device link. */
export async function openInfrastructure(
  config: Config,
  deps: AppDependencies,
  log: FastifyBaseLogger,
): Promise<Infrastructure> {
  const closers: (() => Promise<void>)[] = [];
  const closeOpened = async () => {
    for (const close of [...closers].reverse()) await close();
  };
  const { database, storage, now } = await openCheckedParts(config, deps, closers, closeOpened);
  const outbox = new OutboxSmsSender(database.db);
  const sms =
    deps.sms ??
    (config.sms.provider === 'sns'
      ? new SnsSmsSender({ region: config.sms.awsRegion }, config.sms.senderId)
      : outbox);

  const devices = new DevicesRepository(database.db);
  const setup = createDeviceLink(config, (thingName) => devices.secretHashOf(thingName), log);
  return {
    database,
    storage,
    sms,
    outbox,
    deviceLink: deps.deviceLink ?? setup.link,
    mqttAccess: setup.access,
    now,
    close: closeOpened,
  };
}

/**
 * The object store and the database (migrated), each checked first so that a setting pointing at
 * nothing stops the start with a line naming it (startup-checks.ts); on failure what was opened
 * is closed again.
 */
async function openCheckedParts(
  config: Config,
  deps: AppDependencies,
  closers: (() => Promise<void>)[],
  closeOpened: () => Promise<void>,
): Promise<Pick<Infrastructure, 'database' | 'storage' | 'now'>> {
  try {
    // What the settings point at answers before anything is migrated or seeded: PostgreSQL
    // once, briefly, before the pool and the migrations retry at it; then the bucket.
    if (!deps.database && config.databaseUrl) await checkDatabaseUrl(config.databaseUrl);
    const now = deps.now ?? (() => new Date());
    const storage = deps.storage ?? (await createStorage(config, now));
    if (!deps.storage) closers.push(() => storage.close());
    if (!deps.storage && storage instanceof S3Storage) {
      await checkObjectStore(storage, config.storage.s3);
    }
    const database =
      deps.database ?? (await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir }));
    if (!deps.database) closers.push(() => database.close());
    await migrate(database.db);
    return { database, storage, now };
  } catch (error) {
    await closeOpened();
    throw error;
  }
}
