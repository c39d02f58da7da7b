import type { DeviceHealthView } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { ago, formatBytes, formatSeconds, panelRows, reportState } from './device-health-model';

const NOW = new Date('2026-11-27T12:00:00Z');

const view = (over: Partial<DeviceHealthView> = {}): DeviceHealthView => ({
  status: 'idle',
  health: {
    camera: { driver: 'webcam', ok: true, checked_at: '2026-11-27T11:58:00' },
    printer: { state: 'idle' },
    disk: { free_bytes: 12_000_000_000, total_bytes: 32_000_000_000 },
    queue: { items: 0, bytes: 0, oldest_at: null },
    last_delivery_at: '2026-11-27T11:55:00',
  },
  health_at: '2026-11-27T11:59:50',
  delivery: {
    days: 7,
    delivered_count: 120,
    median_seconds: 4.24,
    p95_seconds: 95,
    waiting_count: 0,
    late_count: 0,
    oldest_waiting_at: null,
  },
  ...over,
});

const summary = (v: DeviceHealthView) =>
  panelRows(v, NOW).map(
    (row) => `${row.label}|${row.tone}|${row.value}${row.hint ? `|${row.hint}` : ''}`,
  );

describe('device health panel rows', () => {
  it('reads a healthy booth at a glance', () => {
    expect(summary(view())).toEqual([
      'Camera|ok|Working (webcam) · checked 2 min ago',
      'Printer|ok|Ready',
      'Disk Space|ok|12.0 GB free of 32.0 GB',
      'Delivery Queue|ok|Empty: every photo has been delivered.',
      'Last Delivery|neutral|5 min ago',
      'Delivery Time|ok|Median 4.2 s · 95% within 1 min 35 s (120 items, last 7 days)',
      'Not Yet Delivered|ok|Nothing',
    ]);
  });

  it('says what needs doing when the booth is in trouble', () => {
    const rows = summary(
      view({
        health: {
          camera: {
            driver: 'gphoto2',
            ok: false,
            message: 'Camera not found: check the USB cable.',
          },
          printer: { state: 'paper_out', message: 'media-empty-error' },
          disk: { free_bytes: 500_000_000, total_bytes: 32_000_000_000 },
          queue: {
            items: 12,
            bytes: 36_000_000,
            oldest_at: '2026-11-27T09:00:00',
            over_limit: true,
          },
          last_delivery_at: null,
        },
        delivery: {
          days: 7,
          delivered_count: 0,
          median_seconds: null,
          p95_seconds: null,
          waiting_count: 12,
          late_count: 4,
          oldest_waiting_at: '2026-11-27T09:00:00',
        },
      }),
    );
    expect(rows).toEqual([
      'Camera|bad|Problem (gphoto2)|Camera not found: check the USB cable.',
      'Printer|bad|Out of paper (media-empty-error)|Load a new roll, then use Restock Media.',
      'Disk Space|warn|500.0 MB free of 32.0 GB|Free some space: old logs or releases on the booth.',
      'Delivery Queue|bad|12 items waiting (36.0 MB), oldest captured 3 h ago|More photos are waiting than the booth’s limit: check the booth’s network connection.',
      'Last Delivery|neutral|None yet',
      'Delivery Time|neutral|No deliveries in the last 7 days.',
      'Not Yet Delivered|bad|12 items, 4 late; oldest from 3 h ago|Late items are more than an hour old. They arrive when the booth reaches the server: check its network and power.',
    ]);
  });

  it('shows only the server’s figures for a booth that never reported its health', () => {
    expect(summary(view({ health: null, health_at: null }))).toEqual([
      'Delivery Time|ok|Median 4.2 s · 95% within 1 min 35 s (120 items, last 7 days)',
      'Not Yet Delivered|ok|Nothing',
    ]);
  });

  it('formats sizes, durations and ages', () => {
    expect([formatBytes(999), formatBytes(1536), formatBytes(2_500_000_000)]).toEqual([
      '999 bytes',
      '1.5 KB',
      '2.5 GB',
    ]);
    expect([
      formatSeconds(4.24),
      formatSeconds(42),
      formatSeconds(600),
      formatSeconds(7300),
    ]).toEqual(['4.2 s', '42 s', '10 min', '2 h 1 min']);
    expect([
      ago('2026-11-27T11:59:30', NOW),
      ago('2026-11-27T10:00:00Z', NOW),
      ago('2026-11-25T11:00:00', NOW),
      ago('2026-11-26T11:00:00', NOW),
    ]).toEqual(['just now', '2 h ago', '2 days ago', '1 day ago']);
  });
});

describe('an offline booth’s health', () => {
  // Reported 6 min before NOW, then the booth went offline.
  const offline = view({ status: 'offline', health_at: '2026-11-27T11:54:00' });

  it('shows its readings as last known, greyed, with their age, never green', () => {
    const rows = panelRows(offline, NOW);
    const own = rows.filter((row) =>
      ['Camera', 'Printer', 'Disk Space', 'Delivery Queue'].includes(row.label),
    );
    expect(own).toHaveLength(4);
    for (const row of own) {
      expect(row.tone, row.label).toBe('stale');
      expect(row.lastKnown, row.label).toBe('Last known, 6 min ago');
    }
    // The values are still there, as what the booth last said.
    expect(own.map((row) => row.value)).toEqual([
      'Working (webcam) · checked 2 min ago',
      'Ready',
      '12.0 GB free of 32.0 GB',
      'Empty: every photo has been delivered.',
    ]);
    // A past event and the server's own figures are current.
    expect(summary(offline).slice(4)).toEqual([
      'Last Delivery|neutral|5 min ago',
      'Delivery Time|ok|Median 4.2 s · 95% within 1 min 35 s (120 items, last 7 days)',
      'Not Yet Delivered|ok|Nothing',
    ]);
  });

  it('keeps a problem’s hint, greyed like the rest', () => {
    const health = view().health!;
    const rows = panelRows(
      view({
        status: 'offline',
        health_at: '2026-11-27T11:54:00',
        health: { ...health, printer: { state: 'paper_out' } },
      }),
      NOW,
    );
    expect(rows.find((row) => row.label === 'Printer')).toMatchObject({
      tone: 'stale',
      value: 'Out of paper',
      hint: 'Load a new roll, then use Restock Media.',
    });
  });

  it('says so in the heading and a note; an online booth’s report is current', () => {
    expect(reportState(offline, NOW)).toEqual({
      offline: true,
      age: '6 min ago',
      heading: 'Offline · last report 6 min ago',
      note: 'This booth is offline. Camera, printer, disk and queue are what it last reported, 6 min ago, not its state now.',
    });
    expect(reportState(view({ status: 'idle' }), NOW)).toEqual({
      offline: false,
      age: 'just now',
      heading: 'Reported just now',
      note: null,
    });
    expect(panelRows(view({ status: 'printing' }), NOW).some((row) => row.tone === 'stale')).toBe(
      false,
    );
    // No status at all is offline too (boothAvailability).
    expect(reportState(view({ status: '' }), NOW).offline).toBe(true);
  });
});
