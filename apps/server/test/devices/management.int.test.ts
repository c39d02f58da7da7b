import { createHash } from 'node:crypto';
import { DEVICE_MESSAGES } from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deviceErrors, devices, softwareChannels } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { useDevicesSuite } from './devices-suite.js';

describe.each(databaseTargets)(
  'devices API: registering, seeing and changing devices on $name',
  ({ open }) => {
    const s = useDevicesSuite(open);
    const { call, device } = s;

    it('registers a device for super users and product admins only, with a secret shown once', async () => {
      const response = await call('POST', 'devices', s.superToken);
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

      const [row] = await s.database.db.select().from(devices).where(eq(devices.id, body.id));
      expect(row!.secretHash).toBe(createHash('sha256').update(body.secret).digest('hex'));
      const read = await call('GET', `devices/${body.id}`, s.superToken);
      expect(read.json()).not.toHaveProperty('secret');
      expect(JSON.stringify(read.json())).not.toContain(body.secret);

      expect(
        (await call('POST', 'devices', s.productAdminToken, { name: 'Lobby' })).json(),
      ).toMatchObject({
        name: 'Lobby',
      });
      expect((await call('POST', 'devices', s.adminA)).statusCode).toBe(403);
      expect((await call('POST', 'devices', s.memberA)).statusCode).toBe(403);
      // A visitor's token is refused by the staff API.
      expect((await call('POST', 'devices', s.visitor)).statusCode).toBe(401);
      expect(
        (await s.app.inject({ method: 'GET', url: '/api/enterprise/devices' })).statusCode,
      ).toBe(401);
    });

    it('lists every device for admins and only their organizations’ devices for others', async () => {
      const mine = await device(s.orgA, 'Atrium booth');
      const theirs = await device(s.orgB, 'Pier booth');
      const loose = await device(undefined, 'Spare booth');

      const idsFor = async (token: string, query = '') => {
        const response = await call('GET', `devices?limit=200${query}`, token);
        expect(response.statusCode).toBe(200);
        const body = response.json<{ items: { id: number }[]; total_count: number }>();
        expect(body.total_count).toBeGreaterThanOrEqual(body.items.length);
        return body.items.map((item) => item.id);
      };
      expect(await idsFor(s.superToken)).toEqual(
        expect.arrayContaining([mine.id, theirs.id, loose.id]),
      );
      expect(await idsFor(s.productAdminToken)).toEqual(
        expect.arrayContaining([mine.id, theirs.id, loose.id]),
      );
      const memberIds = await idsFor(s.memberA);
      expect(memberIds).toContain(mine.id);
      expect(memberIds).not.toContain(theirs.id);
      expect(memberIds).not.toContain(loose.id);
      expect(await idsFor(s.adminB)).not.toContain(mine.id);

      // Search: name, thing name, organization name; pattern characters are literal.
      expect(await idsFor(s.superToken, '&search=pier')).toEqual([theirs.id]);
      expect(await idsFor(s.superToken, `&search=${mine.thing_name.toUpperCase()}`)).toEqual([
        mine.id,
      ]);
      expect(await idsFor(s.memberA, '&search=harbour')).toEqual([]);
      expect(await idsFor(s.superToken, '&search=%25')).toEqual([]);
      const atSunrise = await idsFor(s.superToken, '&search=sunrise mall');
      expect(atSunrise).toContain(mine.id);
      expect(atSunrise).not.toContain(theirs.id);

      // Paging: 10 by default, newest first, with the total.
      const first = (await call('GET', 'devices', s.superToken)).json();
      expect(first.items.length).toBeLessThanOrEqual(10);
      const second = (await call('GET', 'devices?limit=2&offset=1', s.superToken)).json();
      expect(second.total_count).toBe(first.total_count);
      expect(second.items.map((d: { id: number }) => d.id)).toEqual(
        first.items.slice(1, 3).map((d: { id: number }) => d.id),
      );
    });

    it('hides other organizations’ and unlinked devices from their non-admin staff (404)', async () => {
      const mine = await device(s.orgA);
      const theirs = await device(s.orgB);
      const loose = await device();
      const read = await call('GET', `devices/${mine.id}`, s.memberA);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toMatchObject({ org_id: s.orgA, org_name: 'Sunrise Mall' });
      for (const id of [theirs.id, loose.id]) {
        const hidden = await call('GET', `devices/${id}`, s.memberA);
        expect(hidden.statusCode).toBe(404);
        expect(hidden.json()).toEqual({ message: DEVICE_MESSAGES.notFound, code: 'not_found' });
        expect(
          (await call('PATCH', `devices/${id}`, s.adminA, { name: 'Mine now' })).statusCode,
        ).toBe(404);
        expect((await call('POST', `devices/${id}/ping`, s.adminA)).statusCode).toBe(404);
      }
      expect((await call('GET', 'devices/999999', s.superToken)).statusCode).toBe(404);
    });

    it('lets the organization’s admins (and super users) rename a device, not its members', async () => {
      const booth = await device(s.orgA);
      const renamed = await call('PATCH', `devices/${booth.id}`, s.adminA, {
        name: '  Food court ',
      });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toMatchObject({ name: 'Food court' });
      expect(
        (await call('PATCH', `devices/${booth.id}`, s.memberA, { name: 'X' })).statusCode,
      ).toBe(403);
      expect(
        (await call('PATCH', `devices/${booth.id}`, s.productAdminToken, { name: 'Y' })).json(),
      ).toMatchObject({
        name: 'Y',
      });
    });

    it('reserves channel, prints left and price to super users and product admins', async () => {
      const booth = await device(s.orgA);
      for (const payload of [
        { software_channel_id: 2 },
        { prints_left: 500 },
        { price_rupees: 10 },
      ]) {
        expect((await call('PATCH', `devices/${booth.id}`, s.adminA, payload)).statusCode).toBe(
          403,
        );
      }
      // Channels are a foreign key (migration 0006): an unknown one is 404.
      const [known] = await s.database.db
        .insert(softwareChannels)
        .values({ name: 'Stable' })
        .returning({ id: softwareChannels.id });
      const channel = await call('PATCH', `devices/${booth.id}`, s.superToken, {
        software_channel_id: known!.id,
      });
      expect(channel.json()).toMatchObject({
        software_channel_id: known!.id,
        software_channel_name: 'Stable',
      });
      const unknown = await call('PATCH', `devices/${booth.id}`, s.superToken, {
        software_channel_id: 999_999,
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ message: 'Software channel not found.' });
      expect(
        (
          await call('PATCH', `devices/${booth.id}`, s.superToken, { software_channel_id: null })
        ).json(),
      ).toMatchObject({ software_channel_id: null });
      expect(
        (await call('PATCH', `devices/${booth.id}`, s.superToken, { prints_left: 100 })).json(),
      ).toMatchObject({
        prints_left: 100,
      });
      const price = await call('PATCH', `devices/${booth.id}`, s.productAdminToken, {
        price_rupees: 49.999,
      });
      expect(price.json()).toMatchObject({ price_rupees: 50 });
      const cents = await call('PATCH', `devices/${booth.id}`, s.superToken, {
        price_rupees: 12.3456,
      });
      expect(cents.json()).toMatchObject({ price_rupees: 12.35 });
      const [row] = await s.database.db.select().from(devices).where(eq(devices.id, booth.id));
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
      const booth = await device(s.orgA);
      const response = await call('PATCH', `devices/${booth.id}`, s.superToken, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message, code: 'validation_error' });
    });

    it('refuses fields that cannot be patched', async () => {
      const booth = await device(s.orgA);
      const response = await call('PATCH', `devices/${booth.id}`, s.superToken, { status: 'idle' });
      expect(response.statusCode).toBe(400);
    });

    it('links and unlinks devices (admins only), checking the organization', async () => {
      const booth = await device();
      for (const payload of [{}, { org_id: '' }, { org_id: '   ' }, { org_id: null }]) {
        const response = await call('PATCH', `devices/${booth.id}/link`, s.superToken, payload);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ message: DEVICE_MESSAGES.orgIdRequired });
      }
      expect(
        (await call('PATCH', `devices/${booth.id}/link`, s.superToken, { org_id: 'abc' }))
          .statusCode,
      ).toBe(400);
      const missing = await call('PATCH', `devices/${booth.id}/link`, s.superToken, {
        org_id: 999999,
      });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ message: 'Organization not found.' });

      const linked = await call('PATCH', `devices/${booth.id}/link`, s.productAdminToken, {
        org_id: ` ${s.orgB} `,
      });
      expect(linked.json()).toMatchObject({ org_id: s.orgB, org_name: 'Harbour Café' });
      expect((await call('PATCH', `devices/${booth.id}/unlink`, s.adminB)).statusCode).toBe(403);
      expect(
        (await call('PATCH', `devices/${booth.id}/link`, s.adminB, { org_id: s.orgA })).statusCode,
      ).toBe(403);
      const unlinked = await call('PATCH', `devices/${booth.id}/unlink`, s.superToken);
      expect(unlinked.json()).toMatchObject({ org_id: null, org_name: null });
      expect((await call('GET', `devices/${booth.id}`, s.adminB)).statusCode).toBe(404);
    });

    it('deletes devices (admins only) with their error log', async () => {
      const booth = await device(s.orgA);
      await s.database.db.insert(deviceErrors).values({ deviceId: booth.id, errorMessage: 'jam' });
      expect((await call('DELETE', `devices/${booth.id}`, s.adminA)).statusCode).toBe(403);
      expect((await call('DELETE', `devices/${booth.id}`, s.adminB)).statusCode).toBe(404);
      expect((await call('DELETE', `devices/${booth.id}`, s.superToken)).statusCode).toBe(204);
      expect((await call('GET', `devices/${booth.id}`, s.superToken)).statusCode).toBe(404);
      expect((await call('DELETE', `devices/${booth.id}`, s.superToken)).statusCode).toBe(404);
      const left = await s.database.db
        .select()
        .from(deviceErrors)
        .where(eq(deviceErrors.deviceId, booth.id));
      expect(left).toEqual([]);
    });
  },
);
