import type { Pool } from '@flashbooth/contracts';
import {
  type DeviceCommand,
  type DeviceErrorReport,
  type DeviceReplyMessage,
  type DeviceSettingsMessage,
  type DeviceStatusMessage,
} from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { devices, organizations } from '../../src/db/schema.js';
import {
  type DeviceLink,
  type ErrorReportHandler,
  noAnswer,
  type StatusHandler,
} from '../../src/modules/mqtt/device-link.js';
import type { DatabaseTarget } from '../databases.js';
import {
  apiCall,
  registerDevice,
  signedIn,
  signedInOrgStaff,
  signedInProductAdmin,
  signedInSuperUser,
  startApp,
  type TestApp,
} from '../harness.js';

/**
 * A booth line the test scripts: each thing name answers with its reply, or stays silent;
 * settings publishes are recorded, or fail while `publishFails` is set.
 */
export class ScriptedLink implements DeviceLink {
  readonly kind = 'test' as const;
  readonly replies = new Map<string, Omit<DeviceReplyMessage, 'id'> & Record<string, unknown>>();
  readonly sent: { thingName: string; command: DeviceCommand; timeoutMs: number }[] = [];
  readonly handlers: StatusHandler[] = [];
  readonly errorHandlers: ErrorReportHandler[] = [];
  readonly published: { thingName: string; settings: DeviceSettingsMessage }[] = [];
  publishFails = false;
  async start() {}
  async stop() {}
  async ping() {}
  onStatus(handler: StatusHandler) {
    this.handlers.push(handler);
  }
  onErrorReport(handler: ErrorReportHandler) {
    this.errorHandlers.push(handler);
  }
  async publishSettings(thingName: string, settings: DeviceSettingsMessage) {
    if (this.publishFails) throw new Error('broker unreachable');
    this.published.push({ thingName, settings });
  }
  /** Delivers a status as the broker would, and waits for the handlers. */
  async status(thingName: string, status: DeviceStatusMessage) {
    await Promise.all(this.handlers.map((handler) => handler(thingName, status)));
  }
  async report(thingName: string, report: DeviceErrorReport) {
    await Promise.all(this.errorHandlers.map((handler) => handler(thingName, report)));
  }
  async request(thingName: string, command: DeviceCommand, _payload: object, timeoutMs: number) {
    this.sent.push({ thingName, command, timeoutMs });
    const reply = this.replies.get(thingName);
    if (!reply) throw noAnswer();
    return { id: 'x', ...reply };
  }
}

/**
 * One test file's app on a scripted booth line, a super user, a product admin, organization A's
 * admin and member, organization B's admin and a visitor, and the calls the device tests make.
 * Started before the file's tests, stopped after them.
 */
export function useDevicesSuite(open: DatabaseTarget['open']): DevicesSuite {
  const suite = new DevicesSuite();
  beforeAll(() => suite.start(open));
  afterAll(() => suite.stop());
  return suite;
}

export class DevicesSuite {
  database!: DatabaseHandle;
  testApp!: TestApp;
  app!: FastifyInstance;
  readonly link = new ScriptedLink();

  superToken!: string;
  productAdminToken!: string;
  /** Organization A: an admin and a member; organization B: an admin. */
  orgA!: number;
  orgB!: number;
  adminA!: string;
  memberA!: string;
  adminB!: string;
  visitor!: string;

  async start(open: DatabaseTarget['open']) {
    this.database = await open();
    this.testApp = await startApp(
      this.database,
      { OTP_SEND_LIMIT_PER_IP: '1000', DEVICE_COMMAND_TIMEOUT_MS: '1234' },
      { deviceLink: this.link },
    );
    const app = (this.app = this.testApp.app);
    const db = this.database.db;
    this.superToken = (await signedInSuperUser(this.testApp)).token;
    this.productAdminToken = (await signedInProductAdmin(app, this.database)).token;
    [this.orgA, this.orgB] = (
      await db
        .insert(organizations)
        .values([{ name: 'Sunrise Mall' }, { name: 'Harbour Café' }])
        .returning({ id: organizations.id })
    ).map((row) => row.id) as [number, number];
    const staff = async (orgId: number, role: 'admin' | 'member') =>
      (await signedInOrgStaff(app, this.database, orgId, role)).token;
    this.adminA = await staff(this.orgA, 'admin');
    this.memberA = await staff(this.orgA, 'member');
    this.adminB = await staff(this.orgB, 'admin');
    this.visitor = (await signedIn(app, 'regular')).token;
  }

  async stop() {
    await this.app.close();
    await this.database.close();
  }

  call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    token: string,
    payload?: object,
    pool: Pool = 'enterprise',
  ) => apiCall(this.app, method, url, token, payload, pool);

  /** A new device, linked to `orgId` when given. */
  device = async (orgId?: number, name?: string) => {
    const registered = await registerDevice(this.app, this.superToken, {
      ...(orgId ? { orgId } : {}),
      ...(name ? { name } : {}),
    });
    return { id: registered.id, thing_name: registered.thingName, secret: registered.secret };
  };

  revisionOf = async (id: number) =>
    (await this.database.db.select().from(devices).where(eq(devices.id, id)))[0]!.settingsRevision;
  publishedTo = (thingName: string) =>
    this.link.published
      .filter((entry) => entry.thingName === thingName)
      .map((entry) => entry.settings);
}
