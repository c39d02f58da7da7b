import { createHash, randomUUID } from 'node:crypto';
import {
  DEVICE_MESSAGES,
  type DeviceCommand,
  type DeviceErrorReport,
  type DeviceReplyMessage,
  type DeviceSettingsMessage,
  type DeviceStatusMessage,
} from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/client.js';
import { deviceErrors, devices, organizations, softwareChannels } from '../src/db/schema.js';
import {
  type DeviceLink,
  type ErrorReportHandler,
  noAnswer,
  type StatusHandler,
} from '../src/modules/mqtt/device-link.js';
import { databaseTargets } from './databases.js';
import {
  bearer,
  registerDevice,
  signedIn,
  signedInOrgStaff,
  signedInProductAdmin,
  signedInSuperUser,
  startApp,
  type TestApp,
} from './harness.js';

/**
 * A booth line the test scripts: each thing name answers with its reply, or stays silent;
 * settings publishes are recorded, or fail while `publishFails` is set.
 */
class ScriptedLink implements DeviceLink {
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

describe.each(databaseTargets)('devices API on $name', ({ open }) => {
  let database: DatabaseHandle;
  let testApp: TestApp;
  let app: FastifyInstance;
  const link = new ScriptedLink();

  let superToken: string;
  let productAdminToken: string;
  /** Organization A: an admin and a member; organization B: an admin. */
  let orgA: number;
  let orgB: number;
  let adminA: string;
  let memberA: string;
  let adminB: string;
  let visitor: string;

  beforeAll(async () => {
    database = await open();
    testApp = await startApp(
      database,
      { OTP_SEND_LIMIT_PER_IP: '1000', DEVICE_COMMAND_TIMEOUT_MS: '1234' },
      { deviceLink: link },
    );
    app = testApp.app;
    const db = database.db;
    superToken = (await signedInSuperUser(testApp)).token;
    productAdminToken = (await signedInProductAdmin(app, database)).token;
    [orgA, orgB] = (
      await db
        .insert(organizations)
        .values([{ name: 'Sunrise Mall' }, { name: 'Harbour Café' }])
        .returning({ id: organizations.id })
    ).map((row) => row.id) as [number, number];
    const staff = async (orgId: number, role: 'admin' | 'member') =>
      (await signedInOrgStaff(app, database, orgId, role)).token;
    adminA = await staff(orgA, 'admin');
    memberA = await staff(orgA, 'member');
    adminB = await staff(orgB, 'admin');
    visitor = (await signedIn(app, 'regular')).token;
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    token: string,
    payload?: object,
    pool = 'enterprise',
  ) =>
    app.inject({
      method,
      url: `/api/${pool}/${url}`,
      headers: bearer(token),
      ...(payload ? { payload } : {}),
    });

  /** A new device, linked to `orgId` when given. */
  async function device(orgId?: number, name?: string) {
    const registered = await registerDevice(app, superToken, {
      ...(orgId ? { orgId } : {}),
      ...(name ? { name } : {}),
    });
    return { id: registered.id, thing_name: registered.thingName, secret: registered.secret };
  }

  it('registers a device for super users and product admins only, with a secret shown once', async () => {
    const response = await call('POST', 'devices', superToken);
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      org_id: null,
      org_name: null,
      status: 'offline',
      software_channel_id: null,
      software_channel_name: null,
      software_version: null,
      price_rupees: 0,
      prints_left: 700,
      pinged_at: null,
    });
    expect(body.thing_name).toMatch(/^fb-[a-z2-7]{10}$/);
    expect(body.name).toContain(body.thing_name);
    expect(body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(body.secret.length).toBeGreaterThanOrEqual(43);

    const [row] = await database.db.select().from(devices).where(eq(devices.id, body.id));
    expect(row!.secretHash).toBe(createHash('sha256').update(body.secret).digest('hex'));
    const read = await call('GET', `devices/${body.id}`, superToken);
    expect(read.json()).not.toHaveProperty('secret');
    expect(JSON.stringify(read.json())).not.toContain(body.secret);

    expect(
      (await call('POST', 'devices', productAdminToken, { name: 'Lobby' })).json(),
    ).toMatchObject({
      name: 'Lobby',
    });
    expect((await call('POST', 'devices', adminA)).statusCode).toBe(403);
    expect((await call('POST', 'devices', memberA)).statusCode).toBe(403);
    // A visitor's token is refused by the staff API.
    expect((await call('POST', 'devices', visitor)).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/enterprise/devices' })).statusCode).toBe(
      401,
    );
  });

  it('lists every device for admins and only their organizations’ devices for others', async () => {
    const mine = await device(orgA, 'Atrium booth');
    const theirs = await device(orgB, 'Pier booth');
    const loose = await device(undefined, 'Spare booth');

    const idsFor = async (token: string, query = '') => {
      const response = await call('GET', `devices?limit=200${query}`, token);
      expect(response.statusCode).toBe(200);
      const body = response.json<{ items: { id: number }[]; total_count: number }>();
      expect(body.total_count).toBeGreaterThanOrEqual(body.items.length);
      return body.items.map((item) => item.id);
    };
    expect(await idsFor(superToken)).toEqual(
      expect.arrayContaining([mine.id, theirs.id, loose.id]),
    );
    expect(await idsFor(productAdminToken)).toEqual(
      expect.arrayContaining([mine.id, theirs.id, loose.id]),
    );
    const memberIds = await idsFor(memberA);
    expect(memberIds).toContain(mine.id);
    expect(memberIds).not.toContain(theirs.id);
    expect(memberIds).not.toContain(loose.id);
    expect(await idsFor(adminB)).not.toContain(mine.id);

    // Search: name, thing name, organization name; pattern characters are literal.
    expect(await idsFor(superToken, '&search=pier')).toEqual([theirs.id]);
    expect(await idsFor(superToken, `&search=${mine.thing_name.toUpperCase()}`)).toEqual([mine.id]);
    expect(await idsFor(memberA, '&search=harbour')).toEqual([]);
    expect(await idsFor(superToken, '&search=%25')).toEqual([]);
    const atSunrise = await idsFor(superToken, '&search=sunrise mall');
    expect(atSunrise).toContain(mine.id);
    expect(atSunrise).not.toContain(theirs.id);

    // Paging: 10 by default, newest first, with the total.
    const first = (await call('GET', 'devices', superToken)).json();
    expect(first.items.length).toBeLessThanOrEqual(10);
    const second = (await call('GET', 'devices?limit=2&offset=1', superToken)).json();
    expect(second.total_count).toBe(first.total_count);
    expect(second.items.map((d: { id: number }) => d.id)).toEqual(
      first.items.slice(1, 3).map((d: { id: number }) => d.id),
    );
  });

  it('hides other organizations’ and unlinked devices from their non-admin staff (404)', async () => {
    const mine = await device(orgA);
    const theirs = await device(orgB);
    const loose = await device();
    const read = await call('GET', `devices/${mine.id}`, memberA);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ org_id: orgA, org_name: 'Sunrise Mall' });
    for (const id of [theirs.id, loose.id]) {
      const hidden = await call('GET', `devices/${id}`, memberA);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json()).toEqual({ message: DEVICE_MESSAGES.notFound, code: 'not_found' });
      expect((await call('PATCH', `devices/${id}`, adminA, { name: 'Mine now' })).statusCode).toBe(
        404,
      );
      expect((await call('POST', `devices/${id}/ping`, adminA)).statusCode).toBe(404);
    }
    expect((await call('GET', 'devices/999999', superToken)).statusCode).toBe(404);
  });

  it('lets the organization’s admins (and super users) rename a device, not its members', async () => {
    const booth = await device(orgA);
    const renamed = await call('PATCH', `devices/${booth.id}`, adminA, { name: '  Food court ' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Food court' });
    expect((await call('PATCH', `devices/${booth.id}`, memberA, { name: 'X' })).statusCode).toBe(
      403,
    );
    expect(
      (await call('PATCH', `devices/${booth.id}`, productAdminToken, { name: 'Y' })).json(),
    ).toMatchObject({
      name: 'Y',
    });
  });

  it('reserves channel, prints left and price to super users and product admins', async () => {
    const booth = await device(orgA);
    for (const payload of [
      { software_channel_id: 2 },
      { prints_left: 500 },
      { price_rupees: 10 },
    ]) {
      expect((await call('PATCH', `devices/${booth.id}`, adminA, payload)).statusCode).toBe(403);
    }
    // Channels are a foreign key (migration 0006): an unknown one is 404.
    const [known] = await database.db
      .insert(softwareChannels)
      .values({ name: 'Stable' })
      .returning({ id: softwareChannels.id });
    const channel = await call('PATCH', `devices/${booth.id}`, superToken, {
      software_channel_id: known!.id,
    });
    expect(channel.json()).toMatchObject({
      software_channel_id: known!.id,
      software_channel_name: 'Stable',
    });
    const unknown = await call('PATCH', `devices/${booth.id}`, superToken, {
      software_channel_id: 999_999,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: 'Software channel not found.' });
    expect(
      (
        await call('PATCH', `devices/${booth.id}`, superToken, { software_channel_id: null })
      ).json(),
    ).toMatchObject({ software_channel_id: null });
    expect(
      (await call('PATCH', `devices/${booth.id}`, superToken, { prints_left: 100 })).json(),
    ).toMatchObject({
      prints_left: 100,
    });
    const price = await call('PATCH', `devices/${booth.id}`, productAdminToken, {
      price_rupees: 49.999,
    });
    expect(price.json()).toMatchObject({ price_rupees: 50 });
    const cents = await call('PATCH', `devices/${booth.id}`, superToken, { price_rupees: 12.3456 });
    expect(cents.json()).toMatchObject({ price_rupees: 12.35 });
    const [row] = await database.db.select().from(devices).where(eq(devices.id, booth.id));
    expect(row!.pricePaise).toBe(1235);
  });

  it.each([
    [{ name: '   ' }, DEVICE_MESSAGES.nameEmpty],
    [{ prints_left: 99 }, DEVICE_MESSAGES.printsLeft],
    [{ prints_left: 701 }, DEVICE_MESSAGES.printsLeft],
    [{ prints_left: 150.5 }, DEVICE_MESSAGES.printsLeft],
    [{ prints_left: 'lots' }, DEVICE_MESSAGES.printsLeft],
    [{ price_rupees: -0.01 }, DEVICE_MESSAGES.price],
    [{ price_rupees: 1000.01 }, DEVICE_MESSAGES.price],
    [{ price_rupees: 'free' }, DEVICE_MESSAGES.price],
    [{}, DEVICE_MESSAGES.noChanges],
    [{ name: 'A', prints_left: 300 }, DEVICE_MESSAGES.oneChange],
  ])('refuses the change %o with the spec message', async (payload, message) => {
    const booth = await device(orgA);
    const response = await call('PATCH', `devices/${booth.id}`, superToken, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message, code: 'validation_error' });
  });

  it('refuses fields that cannot be patched', async () => {
    const booth = await device(orgA);
    const response = await call('PATCH', `devices/${booth.id}`, superToken, { status: 'idle' });
    expect(response.statusCode).toBe(400);
  });

  it('links and unlinks devices (admins only), checking the organization', async () => {
    const booth = await device();
    for (const payload of [{}, { org_id: '' }, { org_id: '   ' }, { org_id: null }]) {
      const response = await call('PATCH', `devices/${booth.id}/link`, superToken, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: DEVICE_MESSAGES.orgIdRequired });
    }
    expect(
      (await call('PATCH', `devices/${booth.id}/link`, superToken, { org_id: 'abc' })).statusCode,
    ).toBe(400);
    const missing = await call('PATCH', `devices/${booth.id}/link`, superToken, { org_id: 999999 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ message: 'Organization not found.' });

    const linked = await call('PATCH', `devices/${booth.id}/link`, productAdminToken, {
      org_id: ` ${orgB} `,
    });
    expect(linked.json()).toMatchObject({ org_id: orgB, org_name: 'Harbour Café' });
    expect((await call('PATCH', `devices/${booth.id}/unlink`, adminB)).statusCode).toBe(403);
    expect(
      (await call('PATCH', `devices/${booth.id}/link`, adminB, { org_id: orgA })).statusCode,
    ).toBe(403);
    const unlinked = await call('PATCH', `devices/${booth.id}/unlink`, superToken);
    expect(unlinked.json()).toMatchObject({ org_id: null, org_name: null });
    expect((await call('GET', `devices/${booth.id}`, adminB)).statusCode).toBe(404);
  });

  it('deletes devices (admins only) with their error log', async () => {
    const booth = await device(orgA);
    await database.db.insert(deviceErrors).values({ deviceId: booth.id, errorMessage: 'jam' });
    expect((await call('DELETE', `devices/${booth.id}`, adminA)).statusCode).toBe(403);
    expect((await call('DELETE', `devices/${booth.id}`, adminB)).statusCode).toBe(404);
    expect((await call('DELETE', `devices/${booth.id}`, superToken)).statusCode).toBe(204);
    expect((await call('GET', `devices/${booth.id}`, superToken)).statusCode).toBe(404);
    expect((await call('DELETE', `devices/${booth.id}`, superToken)).statusCode).toBe(404);
    const left = await database.db
      .select()
      .from(deviceErrors)
      .where(eq(deviceErrors.deviceId, booth.id));
    expect(left).toEqual([]);
  });

  it('shows the error log to admins only, newest first, with search and paging', async () => {
    const booth = await device(orgA);
    const base = Date.UTC(2025, 4, 14, 10, 0, 0);
    await database.db.insert(deviceErrors).values(
      ['Printer jam', 'Camera not found', 'Printer out of paper', 'Upload 100% failed'].map(
        (errorMessage, index) => ({
          deviceId: booth.id,
          errorMessage,
          createdAt: new Date(base + index * 60_000),
        }),
      ),
    );
    expect((await call('GET', `devices/${booth.id}/errors`, adminA)).statusCode).toBe(403);
    expect((await call('GET', `devices/${booth.id}/errors`, adminB)).statusCode).toBe(404);
    const all = await call('GET', `devices/${booth.id}/errors`, superToken);
    expect(all.statusCode).toBe(200);
    expect(all.json().total_count).toBe(4);
    expect(all.json().items[0]).toEqual({
      id: expect.any(Number),
      created_at: '2025-05-14T10:03:00',
      error_message: 'Upload 100% failed',
    });
    const printer = (
      await call(
        'GET',
        `devices/${booth.id}/errors?search=printer&limit=1&offset=1`,
        productAdminToken,
      )
    ).json();
    expect(printer).toMatchObject({ total_count: 2, items: [{ error_message: 'Printer jam' }] });
    expect(
      (await call('GET', `devices/${booth.id}/errors?search=100%25`, superToken)).json()
        .total_count,
    ).toBe(1);
  });

  it('pings a booth for every staff member who sees it, recording status and pinged_at', async () => {
    const booth = await device(orgA);
    link.replies.set(booth.thing_name, {
      status: 'idle',
      software_version: '1.4.0',
      prints_left: 640,
    });
    const response = await call('POST', `devices/${booth.id}/ping`, memberA);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: booth.id,
      status: 'idle',
      software_version: '1.4.0',
      prints_left: 640,
      pinged_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
    });
    expect(link.sent.at(-1)).toEqual({
      thingName: booth.thing_name,
      command: 'ping',
      timeoutMs: 1234,
    });
  });

  it('answers 503 with the spec-style message and marks the booth offline when it is silent', async () => {
    const booth = await device(orgA);
    link.replies.set(booth.thing_name, { status: 'idle' });
    await call('POST', `devices/${booth.id}/ping`, superToken);
    link.replies.delete(booth.thing_name);
    const response = await call('POST', `devices/${booth.id}/ping`, superToken);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      message: DEVICE_MESSAGES.noAnswer,
      code: 'service_unavailable',
    });
    expect((await call('GET', `devices/${booth.id}`, superToken)).json()).toMatchObject({
      status: 'offline',
    });
    const visitorPing = await call(
      'POST',
      `devices/${booth.id}/ping`,
      visitor,
      undefined,
      'regular',
    );
    expect(visitorPing.statusCode).toBe(503);
  });

  it('shows visitors any linked booth and lets them ping it', async () => {
    const booth = await device(orgB, 'Pier booth');
    await call('PATCH', `devices/${booth.id}`, superToken, { price_rupees: 49.5 });
    const read = await call('GET', `devices/${booth.id}`, visitor, undefined, 'regular');
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({
      id: booth.id,
      name: 'Pier booth',
      org_name: 'Harbour Café',
      price_rupees: 49.5,
      status: 'offline',
    });
    link.replies.set(booth.thing_name, { status: 'IDLE' });
    const ping = await call('POST', `devices/${booth.id}/ping`, visitor, undefined, 'regular');
    expect(ping.json()).toEqual({ status: 'IDLE' });

    const loose = await device();
    expect(
      (await call('GET', `devices/${loose.id}`, visitor, undefined, 'regular')).statusCode,
    ).toBe(404);
    expect(
      (await call('POST', `devices/${loose.id}/ping`, visitor, undefined, 'regular')).statusCode,
    ).toBe(404);
    // Staff tokens are refused by the visitor API, and visitors have no staff device calls.
    expect(
      (await call('GET', `devices/${booth.id}`, superToken, undefined, 'regular')).statusCode,
    ).toBe(401);
    expect(
      (await call('PATCH', `devices/${booth.id}`, visitor, { name: 'x' }, 'regular')).statusCode,
    ).toBe(404);
  });

  it('records status reports from the booths', async () => {
    const booth = await device(orgA);
    await link.status(booth.thing_name, {
      status: 'busy',
      software_version: '2.0.0',
      prints_left: 42,
    });
    expect((await call('GET', `devices/${booth.id}`, superToken)).json()).toMatchObject({
      status: 'busy',
      software_version: '2.0.0',
      prints_left: 42,
    });
    // A status from a thing name no device has is dropped.
    await expect(link.status('fb-nobody00000', { status: 'idle' })).resolves.toBeUndefined();
  });

  const revisionOf = async (id: number) =>
    (await database.db.select().from(devices).where(eq(devices.id, id)))[0]!.settingsRevision;
  const publishedTo = (thingName: string) =>
    link.published.filter((entry) => entry.thingName === thingName).map((entry) => entry.settings);

  it('restocks: stores prints_left, moves the settings revision on and publishes it to the booth', async () => {
    const booth = await device(orgA);
    expect(await revisionOf(booth.id)).toBe(0);
    const first = await call('PATCH', `devices/${booth.id}`, superToken, { prints_left: 500 });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ prints_left: 500 });
    expect(await revisionOf(booth.id)).toBe(1);
    expect(publishedTo(booth.thing_name)).toEqual([{ revision: 1, prints_left: 500 }]);

    const second = await call('PATCH', `devices/${booth.id}`, productAdminToken, {
      prints_left: 650,
    });
    expect(second.json()).toMatchObject({ prints_left: 650 });
    expect(await revisionOf(booth.id)).toBe(2);
    expect(publishedTo(booth.thing_name)).toEqual([
      { revision: 1, prints_left: 500 },
      { revision: 2, prints_left: 650 },
    ]);
    // Renaming or re-pricing is no settings change for the booth.
    await call('PATCH', `devices/${booth.id}`, superToken, { price_rupees: 20 });
    expect(await revisionOf(booth.id)).toBe(2);
    expect(publishedTo(booth.thing_name)).toHaveLength(2);
  });

  it('keeps a restocked count against a stale status, and takes it once the booth applied the revision', async () => {
    const booth = await device(orgA);
    await link.status(booth.thing_name, { status: 'idle', prints_left: 120, settings_revision: 0 });
    expect((await call('GET', `devices/${booth.id}`, superToken)).json().prints_left).toBe(120);
    await call('PATCH', `devices/${booth.id}`, superToken, { prints_left: 700 });
    const restocked = publishedTo(booth.thing_name).length;

    // From before the restock (revision absent or 0): status and version count, the count not,
    // and the booth, evidently behind, gets the settings again.
    await link.status(booth.thing_name, {
      status: 'busy',
      software_version: '3.1.0',
      prints_left: 119,
    });
    expect((await call('GET', `devices/${booth.id}`, superToken)).json()).toMatchObject({
      status: 'busy',
      software_version: '3.1.0',
      prints_left: 700,
    });
    await link.status(booth.thing_name, { status: 'idle', prints_left: 118, settings_revision: 0 });
    expect((await call('GET', `devices/${booth.id}`, superToken)).json().prints_left).toBe(700);
    expect(publishedTo(booth.thing_name).slice(restocked)).toEqual([
      { revision: 1, prints_left: 700 },
      { revision: 1, prints_left: 700 },
    ]);

    // The booth applied revision 1: its count is the truth again, and nothing is re-sent.
    await link.status(booth.thing_name, { status: 'idle', prints_left: 699, settings_revision: 1 });
    expect((await call('GET', `devices/${booth.id}`, superToken)).json()).toMatchObject({
      status: 'idle',
      prints_left: 699,
    });
    expect(publishedTo(booth.thing_name).slice(restocked)).toHaveLength(2);

    // The last will (offline) is not answered with settings: nobody listens.
    await link.status(booth.thing_name, { status: 'offline' });
    expect((await call('GET', `devices/${booth.id}`, superToken)).json()).toMatchObject({
      status: 'offline',
      prints_left: 699,
    });
    expect(publishedTo(booth.thing_name).slice(restocked)).toHaveLength(2);
  });

  it('takes a ping reply’s count only when it comes from the current settings revision', async () => {
    const booth = await device(orgA);
    await call('PATCH', `devices/${booth.id}`, superToken, { prints_left: 600 });
    link.replies.set(booth.thing_name, { status: 'idle', prints_left: 150 });
    const stale = await call('POST', `devices/${booth.id}/ping`, superToken);
    expect(stale.statusCode).toBe(200);
    expect(stale.json()).toMatchObject({ status: 'idle', prints_left: 600 });
    link.replies.set(booth.thing_name, { status: 'idle', prints_left: 598, settings_revision: 1 });
    const fresh = await call('POST', `devices/${booth.id}/ping`, superToken);
    expect(fresh.json()).toMatchObject({ status: 'idle', prints_left: 598 });
  });

  it('restocks even when the broker does not take the settings; the next status sends them', async () => {
    const booth = await device(orgA);
    link.publishFails = true;
    try {
      const response = await call('PATCH', `devices/${booth.id}`, superToken, { prints_left: 300 });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ prints_left: 300 });
    } finally {
      link.publishFails = false;
    }
    expect(await revisionOf(booth.id)).toBe(1);
    expect(publishedTo(booth.thing_name)).toEqual([]);
    await link.status(booth.thing_name, { status: 'idle', prints_left: 12 });
    expect(publishedTo(booth.thing_name)).toEqual([{ revision: 1, prints_left: 300 }]);
    expect((await call('GET', `devices/${booth.id}`, superToken)).json().prints_left).toBe(300);
  });

  it('logs each error report once, in the device’s error log; unknown devices are dropped', async () => {
    const booth = await device(orgA);
    const other = await device(orgA);
    const report: DeviceErrorReport = {
      report_id: randomUUID(),
      message: 'Printer jam: paper path blocked',
      at: '2025-05-14T10:20:30',
    };
    // A QoS 1 duplicate and several instances hearing it, at once.
    await Promise.all([
      link.report(booth.thing_name, report),
      link.report(booth.thing_name, report),
      link.report(booth.thing_name, report),
    ]);
    await link.report(booth.thing_name, report);
    // The same report id from another booth is that booth's own entry.
    await link.report(other.thing_name, { ...report, message: 'Camera not found' });
    await link.report(booth.thing_name, {
      report_id: randomUUID(),
      message: 'Upload failed',
      at: '2999-01-01T00:00:00', // a booth clock far ahead is not believed
    });
    await expect(
      link.report('fb-nobody00000', { report_id: randomUUID(), message: 'x' }),
    ).resolves.toBeUndefined();

    const log = (await call('GET', `devices/${booth.id}/errors`, superToken)).json<{
      items: { error_message: string; created_at: string }[];
      total_count: number;
    }>();
    expect(log.total_count).toBe(2);
    expect(log.items.map((item) => item.error_message)).toEqual([
      'Upload failed',
      'Printer jam: paper path blocked',
    ]);
    expect(log.items[1]!.created_at).toBe('2025-05-14T10:20:30');
    expect(log.items[0]!.created_at < '2999').toBe(true);
    const otherLog = (await call('GET', `devices/${other.id}/errors`, superToken)).json();
    expect(otherLog.items.map((item: { error_message: string }) => item.error_message)).toEqual([
      'Camera not found',
    ]);
  });
});
