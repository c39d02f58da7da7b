import type {
  DeviceDelivery,
  DeviceHealth,
  DeviceHealthView,
  PrinterState,
} from '@flashbooth/contracts';
import { boothAvailability, isDiskLow } from '@flashbooth/contracts/rules';
import { plural } from '@/lib/plural';

/** How often the device detail asks for the booth's health again. */
export const HEALTH_REFRESH_MS = 15_000;

export const HEALTH_TEXT = {
  title: 'Booth Health',
  loading: 'Loading booth health…',
  failed: 'Failed to load the booth’s health.',
  never:
    'This booth has not reported its health yet. It reports with its status once it runs booth software 0.2 or later and is online.',
  noDeliveries: (days: number) => `No deliveries in the last ${days} days.`,
  queueEmpty: 'Empty: every photo has been delivered.',
  queueOverLimit:
    'More photos are waiting than the booth’s limit: check the booth’s network connection.',
  cameraOk: 'Working',
  reported: (age: string) => `Reported ${age}`,
  offlineReported: (age: string) => `Offline · last report ${age}`,
  offline: (age: string) =>
    `This booth is offline. Camera, printer, disk and queue are what it last reported, ${age}, not its state now.`,
  offlineNever: 'This booth is offline.',
  lastKnown: (age: string) => `Last known, ${age}`,
} as const;

/** `stale`: a reading of a booth that is offline now, shown as last known (greyed), not as current. */
export type Tone = 'ok' | 'warn' | 'bad' | 'neutral' | 'stale';

export interface HealthRow {
  label: string;
  value: string;
  tone: Tone;
  /** What to do about it, when something needs doing. */
  hint?: string;
  /** A stale reading's age: "Last known, 6 min ago". */
  lastKnown?: string;
}

const PRINTER: Record<PrinterState, { value: string; tone: Tone; hint?: string }> = {
  idle: { value: 'Ready', tone: 'ok' },
  printing: { value: 'Printing', tone: 'ok' },
  paper_out: {
    value: 'Out of paper',
    tone: 'bad',
    hint: 'Load a new roll, then use Restock Media.',
  },
  ink_out: { value: 'Out of ink ribbon', tone: 'bad', hint: 'Replace the ribbon.' },
  stopped: {
    value: 'Stopped',
    tone: 'bad',
    hint: 'Check the printer (cable, power, door), then resume its queue in CUPS.',
  },
  unknown: {
    value: 'Unknown',
    tone: 'neutral',
    hint: 'The booth cannot read its printer’s state.',
  },
};

/** 1536 → "1.5 KB"; decimal units as disks are sold. */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}

/** 4.2 → "4.2 s", 95 → "1 min 35 s", 7300 → "2 h 2 min". */
export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  const whole = Math.round(seconds);
  if (whole < 3600) {
    const s = whole % 60;
    return `${Math.floor(whole / 60)} min${s ? ` ${s} s` : ''}`;
  }
  const minutes = Math.floor((whole % 3600) / 60);
  return `${Math.floor(whole / 3600)} h${minutes ? ` ${minutes} min` : ''}`;
}

/** A UTC ISO timestamp (zone suffix optional) as "just now", "5 min ago", "3 h ago", "2 days ago". */
export function ago(utc: string, now: Date): string {
  const at = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(utc) ? utc : `${utc}Z`).getTime();
  if (Number.isNaN(at)) return utc;
  const seconds = Math.max(0, (now.getTime() - at) / 1000);
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${plural(Math.floor(seconds / 86_400), 'day')} ago`;
}

/** The rows of the booth's own report: camera, printer, disk, queue, last delivery. */
export function healthRows(health: DeviceHealth, now: Date): HealthRow[] {
  const rows: HealthRow[] = [];
  if (health.camera) {
    const { camera } = health;
    const checked = camera.checked_at ? ` · checked ${ago(camera.checked_at, now)}` : '';
    rows.push(
      camera.ok
        ? {
            label: 'Camera',
            value: `${HEALTH_TEXT.cameraOk} (${camera.driver})${checked}`,
            tone: 'ok',
          }
        : {
            label: 'Camera',
            value: `Problem (${camera.driver})${checked}`,
            tone: 'bad',
            hint: camera.message ?? 'The last photo failed: check the camera’s cable and power.',
          },
    );
  }
  if (health.printer) {
    const state = PRINTER[health.printer.state];
    const detail = health.printer.message ? ` (${health.printer.message})` : '';
    rows.push({
      label: 'Printer',
      value: `${state.value}${state.tone === 'ok' ? '' : detail}`,
      tone: state.tone,
      ...(state.hint ? { hint: state.hint } : {}),
    });
  }
  if (health.disk) {
    const { free_bytes: free, total_bytes: total } = health.disk;
    const low = isDiskLow(health.disk);
    rows.push({
      label: 'Disk Space',
      value: `${formatBytes(free)} free of ${formatBytes(total)}`,
      tone: low ? 'warn' : 'ok',
      ...(low ? { hint: 'Free some space: old logs or releases on the booth.' } : {}),
    });
  }
  if (health.queue) {
    const { items, bytes, oldest_at: oldest, over_limit: over } = health.queue;
    rows.push(
      items === 0
        ? { label: 'Delivery Queue', value: HEALTH_TEXT.queueEmpty, tone: 'ok' }
        : {
            label: 'Delivery Queue',
            value: `${plural(items, 'item')} waiting (${formatBytes(bytes)})${oldest ? `, oldest captured ${ago(oldest, now)}` : ''}`,
            tone: over ? 'bad' : 'warn',
            ...(over ? { hint: HEALTH_TEXT.queueOverLimit } : {}),
          },
    );
  }
  rows.push({
    label: 'Last Delivery',
    value: health.last_delivery_at ? ago(health.last_delivery_at, now) : 'None yet',
    tone: 'neutral',
  });
  return rows;
}

/** The server's figures: delivery times over the window and items not yet delivered. */
export function deliveryRows(delivery: DeviceDelivery, now: Date): HealthRow[] {
  const rows: HealthRow[] = [];
  if (delivery.delivered_count === 0 || delivery.median_seconds === null) {
    rows.push({
      label: 'Delivery Time',
      value: HEALTH_TEXT.noDeliveries(delivery.days),
      tone: 'neutral',
    });
  } else {
    const p95 = delivery.p95_seconds ?? delivery.median_seconds;
    rows.push({
      label: 'Delivery Time',
      value: `Median ${formatSeconds(delivery.median_seconds)} · 95% within ${formatSeconds(p95)} (${plural(delivery.delivered_count, 'item')}, last ${delivery.days} days)`,
      tone: p95 > 3600 ? 'bad' : p95 > 300 ? 'warn' : 'ok',
    });
  }
  if (delivery.waiting_count === 0) {
    rows.push({ label: 'Not Yet Delivered', value: 'Nothing', tone: 'ok' });
  } else {
    const late = delivery.late_count > 0 ? `, ${delivery.late_count} late` : '';
    const since = delivery.oldest_waiting_at
      ? `; oldest from ${ago(delivery.oldest_waiting_at, now)}`
      : '';
    rows.push({
      label: 'Not Yet Delivered',
      value: `${plural(delivery.waiting_count, 'item')}${late}${since}`,
      tone: delivery.late_count > 0 ? 'bad' : 'warn',
      ...(delivery.late_count > 0
        ? {
            hint: 'Late items are more than an hour old. They arrive when the booth reaches the server: check its network and power.',
          }
        : {}),
    });
  }
  return rows;
}

/**
 * How old the booth's report is and whether it is current: an offline booth's report is what it
 * last knew (its camera, printer, disk and queue may have changed since), so the panel greys it
 * and gives its age instead of showing it green. `age` is null when it never reported.
 */
export function reportState(
  view: Pick<DeviceHealthView, 'status' | 'health_at'>,
  now: Date,
): { offline: boolean; age: string | null; heading: string | null; note: string | null } {
  const offline = boothAvailability(view.status) === 'offline';
  const age = view.health_at ? ago(view.health_at, now) : null;
  return {
    offline,
    age,
    heading: age ? (offline ? HEALTH_TEXT.offlineReported(age) : HEALTH_TEXT.reported(age)) : null,
    note: offline ? (age ? HEALTH_TEXT.offline(age) : HEALTH_TEXT.offlineNever) : null,
  };
}

/** A reading of an offline booth: greyed, with its age, its hint kept (it may still apply). */
function lastKnown(row: HealthRow, age: string | null): HealthRow {
  return {
    ...row,
    tone: 'stale',
    ...(age ? { lastKnown: HEALTH_TEXT.lastKnown(age) } : {}),
  };
}

/**
 * The panel's rows, the booth's report first. When the booth is offline its readings are last
 * known (tone `stale`); Last Delivery (a past event) and the server's own figures stay as they are.
 */
export function panelRows(view: DeviceHealthView, now: Date): HealthRow[] {
  const { offline, age } = reportState(view, now);
  const own = view.health ? healthRows(view.health, now) : [];
  return [
    ...(offline
      ? own.map((row) => (row.label === 'Last Delivery' ? row : lastKnown(row, age)))
      : own),
    ...deliveryRows(view.delivery, now),
  ];
}
