import { describe, expect, it } from 'vitest';
import { databaseTargets } from '../databases.js';
import { useDevicesSuite } from './devices-suite.js';

describe.each(databaseTargets)('devices API: restocking on $name', ({ open }) => {
  const s = useDevicesSuite(open);
  const { call, device, revisionOf, publishedTo } = s;

  it('restocks: stores prints_left, moves the settings revision on and publishes it to the booth', async () => {
    const booth = await device(s.orgA);
    expect(await revisionOf(booth.id)).toBe(0);
    const first = await call('PATCH', `devices/${booth.id}`, s.superToken, { prints_left: 500 });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ prints_left: 500 });
    expect(await revisionOf(booth.id)).toBe(1);
    expect(publishedTo(booth.thing_name)).toEqual([{ revision: 1, prints_left: 500 }]);

    const second = await call('PATCH', `devices/${booth.id}`, s.productAdminToken, {
      prints_left: 650,
    });
    expect(second.json()).toMatchObject({ prints_left: 650 });
    expect(await revisionOf(booth.id)).toBe(2);
    expect(publishedTo(booth.thing_name)).toEqual([
      { revision: 1, prints_left: 500 },
      { revision: 2, prints_left: 650 },
    ]);
    // Renaming or re-pricing is no settings change for the booth.
    await call('PATCH', `devices/${booth.id}`, s.superToken, { price_rupees: 20 });
    expect(await revisionOf(booth.id)).toBe(2);
    expect(publishedTo(booth.thing_name)).toHaveLength(2);
  });

  it('keeps a restocked count against a stale status, and takes it once the booth applied the revision', async () => {
    const booth = await device(s.orgA);
    await s.link.status(booth.thing_name, {
      status: 'idle',
      prints_left: 120,
      settings_revision: 0,
    });
    expect((await call('GET', `devices/${booth.id}`, s.superToken)).json().prints_left).toBe(120);
    await call('PATCH', `devices/${booth.id}`, s.superToken, { prints_left: 700 });
    const restocked = publishedTo(booth.thing_name).length;

    // From before the restock (revision absent or 0): status and version count, the count not,
    // and the booth, evidently behind, gets the settings again.
    await s.link.status(booth.thing_name, {
      status: 'busy',
      software_version: '3.1.0',
      prints_left: 119,
    });
    expect((await call('GET', `devices/${booth.id}`, s.superToken)).json()).toMatchObject({
      status: 'busy',
      software_version: '3.1.0',
      prints_left: 700,
    });
    await s.link.status(booth.thing_name, {
      status: 'idle',
      prints_left: 118,
      settings_revision: 0,
    });
    expect((await call('GET', `devices/${booth.id}`, s.superToken)).json().prints_left).toBe(700);
    expect(publishedTo(booth.thing_name).slice(restocked)).toEqual([
      { revision: 1, prints_left: 700 },
      { revision: 1, prints_left: 700 },
    ]);

    // The booth applied revision 1: its count is the truth again, and nothing is re-sent.
    await s.link.status(booth.thing_name, {
      status: 'idle',
      prints_left: 699,
      settings_revision: 1,
    });
    expect((await call('GET', `devices/${booth.id}`, s.superToken)).json()).toMatchObject({
      status: 'idle',
      prints_left: 699,
    });
    expect(publishedTo(booth.thing_name).slice(restocked)).toHaveLength(2);

    // The last will (offline) is not answered with settings: nobody listens.
    await s.link.status(booth.thing_name, { status: 'offline' });
    expect((await call('GET', `devices/${booth.id}`, s.superToken)).json()).toMatchObject({
      status: 'offline',
      prints_left: 699,
    });
    expect(publishedTo(booth.thing_name).slice(restocked)).toHaveLength(2);
  });

  it('takes a ping reply’s count only when it comes from the current settings revision', async () => {
    const booth = await device(s.orgA);
    await call('PATCH', `devices/${booth.id}`, s.superToken, { prints_left: 600 });
    s.link.replies.set(booth.thing_name, { status: 'idle', prints_left: 150 });
    const stale = await call('POST', `devices/${booth.id}/ping`, s.superToken);
    expect(stale.statusCode).toBe(200);
    expect(stale.json()).toMatchObject({ status: 'idle', prints_left: 600 });
    s.link.replies.set(booth.thing_name, {
      status: 'idle',
      prints_left: 598,
      settings_revision: 1,
    });
    const fresh = await call('POST', `devices/${booth.id}/ping`, s.superToken);
    expect(fresh.json()).toMatchObject({ status: 'idle', prints_left: 598 });
  });

  it('restocks even when the broker does not take the settings; the next status sends them', async () => {
    const booth = await device(s.orgA);
    s.link.publishFails = true;
    try {
      const response = await call('PATCH', `devices/${booth.id}`, s.superToken, {
        prints_left: 300,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ prints_left: 300 });
    } finally {
      s.link.publishFails = false;
    }
    expect(await revisionOf(booth.id)).toBe(1);
    expect(publishedTo(booth.thing_name)).toEqual([]);
    await s.link.status(booth.thing_name, { status: 'idle', prints_left: 12 });
    expect(publishedTo(booth.thing_name)).toEqual([{ revision: 1, prints_left: 300 }]);
    expect((await call('GET', `devices/${booth.id}`, s.superToken)).json().prints_left).toBe(300);
  });
});
