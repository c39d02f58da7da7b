import { randomUUID } from 'node:crypto';
import type { DeviceErrorReport } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { deviceErrors } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { useDevicesSuite } from './devices-suite.js';

describe.each(databaseTargets)('devices API: the error log on $name', ({ open }) => {
  const s = useDevicesSuite(open);
  const { call, device } = s;

  it('shows the error log to admins only, newest first, with search and paging', async () => {
    const booth = await device(s.orgA);
    const base = Date.UTC(2025, 4, 14, 10, 0, 0);
    await s.database.db.insert(deviceErrors).values(
      ['Printer jam', 'Camera not found', 'Printer out of paper', 'Upload 100% failed'].map(
        (errorMessage, index) => ({
          deviceId: booth.id,
          errorMessage,
          createdAt: new Date(base + index * 60_000),
        }),
      ),
    );
    expect((await call('GET', `devices/${booth.id}/errors`, s.adminA)).statusCode).toBe(403);
    expect((await call('GET', `devices/${booth.id}/errors`, s.adminB)).statusCode).toBe(404);
    const all = await call('GET', `devices/${booth.id}/errors`, s.superToken);
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
        s.productAdminToken,
      )
    ).json();
    expect(printer).toMatchObject({ total_count: 2, items: [{ error_message: 'Printer jam' }] });
    expect(
      (await call('GET', `devices/${booth.id}/errors?search=100%25`, s.superToken)).json()
        .total_count,
    ).toBe(1);
  });

  it('logs each error report once, in the device’s error log; unknown devices are dropped', async () => {
    const booth = await device(s.orgA);
    const other = await device(s.orgA);
    const report: DeviceErrorReport = {
      report_id: randomUUID(),
      message: 'Printer jam: paper path blocked',
      at: '2025-05-14T10:20:30',
    };
    // A QoS 1 duplicate and several instances hearing it, at once.
    await Promise.all([
      s.link.report(booth.thing_name, report),
      s.link.report(booth.thing_name, report),
      s.link.report(booth.thing_name, report),
    ]);
    await s.link.report(booth.thing_name, report);
    // The same report id from another booth is that booth's own entry.
    await s.link.report(other.thing_name, { ...report, message: 'Camera not found' });
    await s.link.report(booth.thing_name, {
      report_id: randomUUID(),
      message: 'Upload failed',
      at: '2999-01-01T00:00:00', // a booth clock far ahead is not believed
    });
    await expect(
      s.link.report('fb-nobody00000', { report_id: randomUUID(), message: 'x' }),
    ).resolves.toBeUndefined();

    const log = (await call('GET', `devices/${booth.id}/errors`, s.superToken)).json<{
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
    const otherLog = (await call('GET', `devices/${other.id}/errors`, s.superToken)).json();
    expect(otherLog.items.map((item: { error_message: string }) => item.error_message)).toEqual([
      'Camera not found',
    ]);
  });
});
