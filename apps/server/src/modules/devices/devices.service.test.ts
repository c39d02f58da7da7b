import type { DevicePatch } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import {
  expectAppError,
  memoryLog,
  ORG,
  OTHER_ORG,
  type Outcome,
  outcomeOf,
  people,
  STAFF_ROLES,
  type StaffRole,
} from '../../../test/unit-fakes.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import type { DeviceLink } from '../mqtt/device-link.js';
import type { DeviceChanges, DevicesRepository, DeviceWithOrg } from './devices.repository.js';
import { boothMqttUrl, DevicesService } from './devices.service.js';

const AT = new Date('2025-09-30T10:00:00Z');
/** The origin a registration request came to. */
const SERVER = 'http://booths.example:8080';

/** The devices table as DevicesService reads and changes it. */
class FakeDevices {
  readonly rows = new Map<number, DeviceWithOrg>();
  /** The member filter of every list call (undefined: all devices). */
  readonly listedFor: (number | undefined)[] = [];
  private nextId = 1;

  add(orgId: number | null): DeviceWithOrg {
    const id = this.nextId++;
    const row: DeviceWithOrg = {
      id,
      name: `Booth ${id}`,
      orgId,
      orgName: orgId === null ? null : `Venue ${orgId}`,
      thingName: `fb-${id}`,
      secretHash: 'hash',
      status: 'idle',
      softwareChannelId: null,
      softwareChannelName: null,
      softwareVersion: '1.0.0',
      pricePaise: 0,
      printsLeft: 700,
      settingsRevision: 0,
      createdAt: AT,
      updatedAt: AT,
      pingedAt: null,
    };
    this.rows.set(id, row);
    return row;
  }

  async findById(id: number) {
    return this.rows.get(id);
  }
  async findByThingName(thingName: string) {
    return [...this.rows.values()].find((row) => row.thingName === thingName);
  }
  async create(values: { name: string; thingName: string; secretHash: string }) {
    const row = this.add(null);
    Object.assign(row, values);
    return row.id;
  }
  async list(_page: unknown, memberUserId?: number) {
    this.listedFor.push(memberUserId);
    return { rows: [...this.rows.values()], total: this.rows.size };
  }
  async update(id: number, changes: DeviceChanges) {
    const row = this.rows.get(id);
    if (row) Object.assign(row, changes);
    return row;
  }
  async restock(id: number, printsLeft: number) {
    const row = this.rows.get(id);
    if (!row) return undefined;
    Object.assign(row, { printsLeft, settingsRevision: row.settingsRevision + 1 });
    return row;
  }
  async delete(id: number) {
    return this.rows.delete(id);
  }
  async organizationExists(orgId: number) {
    return orgId === ORG || orgId === OTHER_ORG;
  }
  async errors() {
    return { rows: [], total: 0 };
  }
  async recordReport(device: { id: number } | { thingName: string }) {
    return 'id' in device ? this.rows.get(device.id) : this.findByThingName(device.thingName);
  }
  async addReportedError() {
    return true;
  }
}

/** A booth line whose booths answer every ping. */
const answeringLink = {
  kind: 'test',
  request: async (_thing: string, _command: string) => ({ id: 'x', status: 'idle' }),
  publishSettings: async () => undefined,
} as unknown as DeviceLink;

const noDeliveries = {
  deviceDelivery: async () => ({
    days: 7,
    delivered_count: 0,
    median_seconds: null,
    p95_seconds: null,
    waiting_count: 0,
    late_count: 0,
    oldest_waiting_at: null,
  }),
};

function setUp() {
  const everyone = people();
  const devices = new FakeDevices();
  const service = new DevicesService({
    devices: devices as unknown as DevicesRepository,
    users: everyone.users,
    link: answeringLink,
    captures: { releaseReported: async () => undefined },
    deliveries: noDeliveries,
    commandTimeoutMs: 1000,
    now: () => AT,
    log: memoryLog(),
  });
  return { ...everyone, devices, service };
}

const page = { limit: 9, offset: 0 };

type DeviceCall = (service: DevicesService, caller: AccessClaims, id: number) => Promise<unknown>;
const patch =
  (body: DevicePatch): DeviceCall =>
  (service, caller, id) =>
    service.patch(caller, id, body);

/** What staff may do with a device, in the staff spec's words. */
const calls: Record<string, DeviceCall> = {
  'see it': (service, caller, id) => service.get(caller, id),
  'ping it': (service, caller, id) => service.ping(caller, id),
  'rename it': patch({ name: 'Lobby booth' }),
  'set its price': patch({ price_rupees: 20 }),
  'set its software channel': patch({ software_channel_id: 3 }),
  'restock it': patch({ prints_left: 500 }),
  'link it to an organization': (service, caller, id) => service.link(caller, id, OTHER_ORG),
  'unlink it': (service, caller, id) => service.unlink(caller, id),
  'delete it': (service, caller, id) => service.remove(caller, id),
  'read its error log': (service, caller, id) => service.errors(caller, id, page),
};

/**
 * Staff spec section 6 for a device of ORG: super users and product admins do everything; ORG's
 * admin may see, ping and rename it; its member may see and ping it; anyone else does not even
 * learn that it exists (404, never 403).
 */
const rules: Record<string, Record<StaffRole, Outcome>> = {
  'see it': {
    'super user': 'ok',
    'product admin': 'ok',
    'org admin': 'ok',
    member: 'ok',
    outsider: 'not_found',
  },
  'ping it': {
    'super user': 'ok',
    'product admin': 'ok',
    'org admin': 'ok',
    member: 'ok',
    outsider: 'not_found',
  },
  'rename it': {
    'super user': 'ok',
    'product admin': 'ok',
    'org admin': 'ok',
    member: 'forbidden',
    outsider: 'not_found',
  },
};
const adminsOnly: Record<StaffRole, Outcome> = {
  'super user': 'ok',
  'product admin': 'ok',
  'org admin': 'forbidden',
  member: 'forbidden',
  outsider: 'not_found',
};

describe('device permissions (staff spec section 6)', () => {
  const cases = Object.keys(calls).flatMap((call) =>
    STAFF_ROLES.map((role) => ({ role, call, expected: (rules[call] ?? adminsOnly)[role] })),
  );

  it.each(cases)('a $role may $call of an organization device: $expected', async (c) => {
    const { service, devices, claims } = setUp();
    const device = devices.add(ORG);
    expect(await outcomeOf(() => calls[c.call]!(service, claims[c.role], device.id))).toBe(
      c.expected,
    );
  });

  it.each(STAFF_ROLES)('a %s sees an unlinked device only when privileged', async (role) => {
    const privileged = role === 'super user' || role === 'product admin';
    for (const [name, call] of Object.entries(calls)) {
      const { service, devices, claims } = setUp();
      const device = devices.add(null);
      expect(await outcomeOf(() => call(service, claims[role], device.id)), name).toBe(
        privileged ? 'ok' : 'not_found',
      );
    }
  });

  it('leaves a device refused to someone unchanged', async () => {
    const { service, devices, claims } = setUp();
    const device = devices.add(ORG);
    const before = { ...device };
    for (const role of ['member', 'outsider'] as const) {
      for (const call of Object.values(calls)) {
        await outcomeOf(() => call(service, claims[role], device.id));
      }
    }
    expect(devices.rows.get(device.id)).toEqual(before);
  });

  it.each(STAFF_ROLES)('a %s may register a device only when privileged', async (role) => {
    const { service, claims } = setUp();
    const privileged = role === 'super user' || role === 'product admin';
    expect(await outcomeOf(() => service.register(claims[role], undefined, SERVER))).toBe(
      privileged ? 'ok' : 'forbidden',
    );
  });

  it('lists every device to privileged staff and only their organizations’ to the others', async () => {
    const { service, devices, claims, rows } = setUp();
    for (const role of STAFF_ROLES) await service.list(claims[role], page);
    expect(devices.listedFor).toEqual([
      undefined,
      undefined,
      rows['org admin'].id,
      rows.member.id,
      rows.outsider.id,
    ]);
  });

  it('shows visitors (and lets them ping) linked devices only', async () => {
    const { service, devices, claims } = setUp();
    const linked = devices.add(ORG);
    const unlinked = devices.add(null);
    await expect(service.visitorGet(claims.visitor, linked.id)).resolves.toMatchObject({
      id: linked.id,
      org_name: `Venue ${ORG}`,
    });
    await expect(service.visitorPing(claims.visitor, linked.id)).resolves.toEqual({
      status: 'idle',
    });
    for (const id of [unlinked.id, 999]) {
      await expectAppError(service.visitorGet(claims.visitor, id), 'not_found');
      await expectAppError(service.visitorPing(claims.visitor, id), 'not_found');
    }
  });
});

describe('the env block of a new booth', () => {
  it('tells the booth the configured broker, else the external one, else the embedded port here', () => {
    const embedded = () => 'mqtt://127.0.0.1:18841';
    expect(
      boothMqttUrl(
        {
          publicMqttUrl: 'mqtts://mqtt.flashbooth.example:8883',
          externalMqttUrl: 'mqtt://10.0.0.5',
        },
        SERVER,
      ),
    ).toBe('mqtts://mqtt.flashbooth.example:8883');
    expect(boothMqttUrl({ externalMqttUrl: 'mqtt://10.0.0.5:1883' }, SERVER)).toBe(
      'mqtt://10.0.0.5:1883',
    );
    expect(boothMqttUrl({ embeddedBrokerUrl: embedded }, SERVER)).toBe(
      'mqtt://booths.example:18841',
    );
    // Not started yet: the embedded broker's default port.
    expect(boothMqttUrl({ embeddedBrokerUrl: () => undefined }, SERVER)).toBe(
      'mqtt://booths.example:1884',
    );
  });

  it('answers the secret and the four variables, PUBLIC_URL before the request’s origin', async () => {
    const everyone = people();
    const make = (publicUrl?: string) =>
      new DevicesService({
        devices: new FakeDevices() as unknown as DevicesRepository,
        boothAddresses: { embeddedBrokerUrl: () => 'mqtt://127.0.0.1:1884', publicUrl },
        users: everyone.users,
        link: answeringLink,
        captures: { releaseReported: async () => undefined },
        deliveries: noDeliveries,
        commandTimeoutMs: 1000,
        now: () => AT,
        log: memoryLog(),
      });
    const claims = everyone.claims['super user'];
    const local = await make().register(claims, 'Lobby', SERVER);
    expect(local.booth_env).toEqual({
      BOOTH_MQTT_URL: 'mqtt://booths.example:1884',
      BOOTH_THING_NAME: local.thing_name,
      BOOTH_SECRET: local.secret,
      BOOTH_SERVER_URL: SERVER,
    });
    const behindProxy = await make('https://photos.example').register(claims, 'Pier', SERVER);
    expect(behindProxy.booth_env).toMatchObject({
      BOOTH_MQTT_URL: 'mqtt://photos.example:1884',
      BOOTH_SERVER_URL: 'https://photos.example',
    });
  });
});
