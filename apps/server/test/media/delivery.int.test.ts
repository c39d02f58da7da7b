import type { DeviceHealth } from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { media } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { apiCall, eventually, signedInOrgStaff, signedInSuperUser, startApp } from '../harness.js';
import { createOrganization, ScriptedLink } from '../media-fixtures.js';
import { SWEEP_ENV, useCaptureSuite } from './capture-suite.js';

const HEALTH: DeviceHealth = {
  camera: { driver: 'webcam', ok: true, checked_at: '2026-11-27T10:00:00' },
  printer: { state: 'paper_out', message: 'media-empty' },
  disk: { free_bytes: 12_000_000_000, total_bytes: 32_000_000_000 },
  queue: { items: 3, bytes: 9_000_000, oldest_at: '2026-11-27T09:00:00', over_limit: false },
  last_delivery_at: '2026-11-27T09:59:00',
};

describe.each(databaseTargets)('delivery measured and watched on $name', ({ open }) => {
  const s = useCaptureSuite(open);

  it('keeps the booth’s health from its status and shows it to whoever sees the booth', async () => {
    const { booth } = await s.acceptedCapture(0);
    const staff = await signedInSuperUser(s.testApp);
    const health = () => apiCall(s.app, 'GET', `devices/${booth.id}/health`, staff.token);

    // An older agent sends no health: nothing is known yet.
    await s.link.status(booth.thingName, { status: 'idle' });
    expect((await health()).json()).toMatchObject({
      status: 'idle',
      health: null,
      health_at: null,
    });

    await s.link.status(booth.thingName, { status: 'idle', health: HEALTH });
    const known = (await health()).json();
    expect(known).toMatchObject({
      status: 'idle',
      health: HEALTH,
      health_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
    });
    // A later status without health keeps the last report.
    await s.link.status(booth.thingName, { status: 'processing' });
    expect((await health()).json()).toMatchObject({ status: 'processing', health: HEALTH });

    // A member of the booth's organization sees it; another organization's staff does not.
    const member = await signedInOrgStaff(s.app, s.database, s.orgId, 'member');
    expect(
      (await apiCall(s.app, 'GET', `devices/${booth.id}/health`, member.token)).statusCode,
    ).toBe(200);
    const elsewhere = await createOrganization(s.database.db, 'Elsewhere Café');
    const outsider = await signedInOrgStaff(s.app, s.database, elsewhere, 'admin');
    expect(
      (await apiCall(s.app, 'GET', `devices/${booth.id}/health`, outsider.token)).statusCode,
    ).toBe(404);
    expect(
      (await s.app.inject({ method: 'GET', url: `/api/enterprise/devices/${booth.id}/health` }))
        .statusCode,
    ).toBe(401);
  });

  it('marks an item late at its delivery deadline, once across two instances, and still delivers it', async () => {
    const { booth, person, mediaId, uploadUrl } = await s.acceptedCapture(0);
    // One sign-in: the clock moves less than an access token's life.
    const staff = await signedInSuperUser(s.testApp);
    const delivery = async () =>
      (await apiCall(s.app, 'GET', `devices/${booth.id}/health`, staff.token)).json().delivery;
    expect(await delivery()).toMatchObject({
      days: 7,
      delivered_count: 0,
      median_seconds: null,
      waiting_count: 1,
      late_count: 0,
      oldest_waiting_at: expect.any(String),
    });

    const lateInStats = async () =>
      (await apiCall(s.app, 'GET', `organizations/${s.orgId}/stats`, staff.token)).json()
        .late_deliveries;
    expect(await lateInStats()).toBe(0);

    // A second server instance on the same database runs the same sweeps.
    const second = await startApp(s.database, SWEEP_ENV, { deviceLink: new ScriptedLink() });
    const lateEntries = async () =>
      (await s.errorLogOf(booth.id)).filter((row) => row.errorMessage.includes('delivery failure'));
    try {
      // The deadline is the countdown's end (30 s; DELIVERY_DEADLINE_MINUTES=0 in these tests).
      s.testApp.clock.advance(20);
      second.clock.advance(20);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await lateEntries()).toEqual([]);

      s.testApp.clock.advance(15);
      second.clock.advance(15);
      await eventually(lateEntries, (rows) => rows.length > 0);
      // Both instances sweep a few more times.
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      await second.app.close();
    }
    const entries = await lateEntries();
    expect(entries).toHaveLength(1);
    expect(entries[0]!.errorMessage).toMatch(
      /^Capture [0-9a-f-]{36}: delivery failure, 1 of 1 item not delivered/,
    );
    const [row] = await s.database.db.select().from(media).where(eq(media.id, mediaId));
    expect(row!.lateAt).not.toBeNull();
    expect(await delivery()).toMatchObject({ waiting_count: 1, late_count: 1 });
    // Counted in the organization's statistics (with the first test's booth, also waiting).
    expect(await lateInStats()).toBe(2);

    // It arrives after all: delivered to My Media, measured, no longer waiting.
    const confirmed = await s.deliver(uploadUrl, mediaId, booth.auth);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect((await s.myMedia(person.token)).items).toEqual([
      expect.objectContaining({ id: mediaId, is_uploaded: true }),
    ]);
    const after = await delivery();
    expect(after).toMatchObject({
      delivered_count: 1,
      waiting_count: 0,
      late_count: 0,
      oldest_waiting_at: null,
    });
    expect(after.median_seconds).toBeGreaterThan(30);
    expect(after.p95_seconds).toBeGreaterThanOrEqual(after.median_seconds);
    // Late it stays: it arrived, but not by its deadline.
    expect(await lateInStats()).toBe(2);
  });
});
