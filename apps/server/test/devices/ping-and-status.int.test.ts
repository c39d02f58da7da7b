import { DEVICE_MESSAGES } from '@flashbooth/contracts';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { databaseTargets } from '../databases.js';
import { useDevicesSuite } from './devices-suite.js';

describe.each(databaseTargets)('devices API: pings and status reports on $name', ({ open }) => {
  const s = useDevicesSuite(open);
  const { call, device } = s;

  it('pings a booth for every staff member who sees it, recording status and pinged_at', async () => {
    const booth = await device(s.orgA);
    s.link.replies.set(booth.thing_name, {
      status: 'idle',
      software_version: '1.4.0',
      prints_left: 640,
    });
    const response = await call('POST', `devices/${booth.id}/ping`, s.memberA);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: booth.id,
      status: 'idle',
      software_version: '1.4.0',
      prints_left: 640,
      pinged_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
    });
    expect(s.link.sent.at(-1)).toEqual({
      thingName: booth.thing_name,
      command: 'ping',
      timeoutMs: 1234,
    });
  });

  it('answers 503 with the spec-style message and marks the booth offline when it is silent', async () => {
    const booth = await device(s.orgA);
    s.link.replies.set(booth.thing_name, { status: 'idle' });
    await call('POST', `devices/${booth.id}/ping`, s.superToken);
    s.link.replies.delete(booth.thing_name);
    const response = await call('POST', `devices/${booth.id}/ping`, s.superToken);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      message: DEVICE_MESSAGES.noAnswer,
      code: 'service_unavailable',
    });
    expect((await call('GET', `devices/${booth.id}`, s.superToken)).json()).toMatchObject({
      status: 'offline',
    });
    const visitorPing = await call(
      'POST',
      `devices/${booth.id}/ping`,
      s.visitor,
      undefined,
      'regular',
    );
    expect(visitorPing.statusCode).toBe(503);
  });

  it('shows visitors any linked booth and lets them ping it', async () => {
    const booth = await device(s.orgB, 'Pier booth');
    await call('PATCH', `devices/${booth.id}`, s.superToken, { price_rupees: 49.5 });
    const read = await call('GET', `devices/${booth.id}`, s.visitor, undefined, 'regular');
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({
      id: booth.id,
      name: 'Pier booth',
      org_name: 'Harbour Café',
      price_rupees: 49.5,
      status: 'offline',
    });
    s.link.replies.set(booth.thing_name, { status: 'IDLE' });
    const ping = await call('POST', `devices/${booth.id}/ping`, s.visitor, undefined, 'regular');
    expect(ping.json()).toEqual({ status: 'IDLE' });

    const loose = await device();
    expect(
      (await call('GET', `devices/${loose.id}`, s.visitor, undefined, 'regular')).statusCode,
    ).toBe(404);
    expect(
      (await call('POST', `devices/${loose.id}/ping`, s.visitor, undefined, 'regular')).statusCode,
    ).toBe(404);
    // Staff tokens are refused by the visitor API, and visitors have no staff device calls.
    expect(
      (await call('GET', `devices/${booth.id}`, s.superToken, undefined, 'regular')).statusCode,
    ).toBe(401);
    expect(
      (await call('PATCH', `devices/${booth.id}`, s.visitor, { name: 'x' }, 'regular')).statusCode,
    ).toBe(404);
  });

  it('records status reports from the booths', async () => {
    const booth = await device(s.orgA);
    await s.link.status(booth.thing_name, {
      status: 'busy',
      software_version: '2.0.0',
      prints_left: 42,
    });
    expect((await call('GET', `devices/${booth.id}`, s.superToken)).json()).toMatchObject({
      status: 'busy',
      software_version: '2.0.0',
      prints_left: 42,
    });
    // A status from a thing name no device has is dropped.
    await expect(s.link.status('fb-nobody00000', { status: 'idle' })).resolves.toBeUndefined();
  });

  it('keeps the newest report when a booth’s reports are heard out of order', async () => {
    const booth = await device(s.orgA);
    const thing = booth.thing_name;
    const statusOf = async () =>
      ((await call('GET', `devices/${booth.id}`, s.superToken)).json() as { status: string })
        .status;
    const boot = 1_780_000_000_000;
    await s.link.status(thing, { status: 'idle', order: { boot, connection: 1, seq: 2 } });
    // An older report of the same connection (another instance wrote it late) is left.
    await s.link.status(thing, {
      status: 'updating',
      software_version: '9.9.9',
      order: { boot, connection: 1, seq: 1 },
    });
    expect(await statusOf()).toBe('idle');
    expect((await call('GET', `devices/${booth.id}`, s.superToken)).json()).not.toMatchObject({
      software_version: '9.9.9',
    });
    // The connection's last will comes after every report of it...
    await s.link.status(thing, { status: 'offline', order: { boot, connection: 1 } });
    expect(await statusOf()).toBe('offline');
    // ...so a report of that connection heard after it is older,
    await s.link.status(thing, { status: 'busy', order: { boot, connection: 1, seq: 3 } });
    expect(await statusOf()).toBe('offline');
    // and one of the next connection is newer; that connection's will, heard late, is older.
    await s.link.status(thing, { status: 'idle', order: { boot, connection: 2, seq: 4 } });
    await s.link.status(thing, { status: 'offline', order: { boot, connection: 1 } });
    expect(await statusOf()).toBe('idle');
    // A later start of the agent outranks everything of the one before it.
    await s.link.status(thing, {
      status: 'busy',
      order: { boot: boot + 1, connection: 1, seq: 1 },
    });
    expect(await statusOf()).toBe('busy');
    // A report with no order (an agent from before it, a ping reply) is written as heard.
    await s.link.status(thing, { status: 'idle' });
    expect(await statusOf()).toBe('idle');
    await s.link.status(thing, { status: 'busy', order: { boot, connection: 9, seq: 9 } });
    expect(await statusOf()).toBe('idle');
    // An order recorded long ago no longer holds reports back (a booth whose saved state was
    // lost starts again from a lower boot).
    await s.database.db.execute(
      sql`update devices set status_order_at = now() - interval '6 minutes' where id = ${booth.id}`,
    );
    await s.link.status(thing, { status: 'busy', order: { boot: 5, connection: 1, seq: 1 } });
    expect(await statusOf()).toBe('busy');
  });

  it('keeps the newest report in a batch of several booths’ reports too', async () => {
    const booths = await Promise.all([device(s.orgA), device(s.orgA), device(s.orgA)]);
    const boot = 1_780_000_000_000;
    for (const booth of booths) {
      await s.link.status(booth.thing_name, {
        status: 'idle',
        order: { boot, connection: 1, seq: 10 },
      });
    }
    // Heard together (written in one statement after the first): the middle one is older.
    await Promise.all(
      booths.map((booth, i) =>
        s.link.status(booth.thing_name, {
          status: 'busy',
          order: { boot, connection: 1, seq: i === 1 ? 5 : 11 },
        }),
      ),
    );
    const statuses = await Promise.all(
      booths.map(
        async (booth) =>
          ((await call('GET', `devices/${booth.id}`, s.superToken)).json() as { status: string })
            .status,
      ),
    );
    expect(statuses).toEqual(['busy', 'idle', 'busy']);
  });
});
