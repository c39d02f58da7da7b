import { DEVICE_MESSAGES } from '@flashbooth/contracts';
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
});
