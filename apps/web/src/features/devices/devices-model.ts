import type { BoothEnv, Device, DeviceStatusEvent, SoftwareChannel } from '@flashbooth/contracts';
import {
  DEVICE_MESSAGES,
  DEVICE_PRICE_MAX_RUPEES,
  PRINTS_LEFT_MAX,
  PRINTS_LEFT_MIN,
  PRINTS_LEFT_WARNING,
} from '@flashbooth/contracts/rules';
import type { FormOutcome, FormRefusal } from '@/components/console/use-form-submit';

/** Spec section 9: devices and device logs are listed 10 to a page; the channel picker loads 200. */
export const DEVICES_PAGE_SIZE = 10;
export const DEVICE_LOGS_PAGE_SIZE = 10;
export const CHANNEL_PICKER_LIMIT = 200;

/** Spec sections 4 and 9: messages hide after 5 s, the ping result after 3 s. */
export const DEVICE_STATUS_MS = 5000;
export const PING_STATUS_MS = 3000;

/** The spec's texts for the device screens (sections 2, 5 and 8), and the screens' own. */
export const DEVICE_TEXT = {
  loadFailed: 'Failed to load devices. Please try again.',
  registerFailed: 'Failed to register device. Please try again.',
  loadDetailsFailed: 'Failed to load device details.',
  linkFailed: 'Failed to link device.',
  unlinkFailed: 'Failed to unlink device.',
  nameFailed: 'Failed to update device name.',
  channelsFailed: 'Could not load software channels.',
  channelFailed: 'Failed to update software channel.',
  printsFailed: 'Failed to update prints left.',
  priceFailed: 'Failed to update price.',
  deleteFailed: 'Failed to delete device.',
  updateFailed: 'Failed to send software update command.',
  pingOk: 'Ping successful!',
  pingFailed: 'Ping failed.',
  logsFailed: 'Failed to load error logs. Please try again.',
  noDevices: 'No devices found.',
  noLogs: 'No logs found.',
  noOrganization: '(No Organization)',
  notLinked: '(Not linked to an organization)',
  notSet: '(Not set)',
  none: '(None)',
  sensitiveHidden: 'Sensitive information is hidden.',
  deleteConfirm: 'This action cannot be undone.',
  unlinkConfirm: 'Are you sure you want to unlink this device from its organization?',
  updateConfirm:
    'This will cause the machine to reboot if there is an update! Are you sure you want to proceed?',
  lowRoll: DEVICE_MESSAGES.lowRoll,
  nameEmpty: DEVICE_MESSAGES.nameEmpty,
  noChanges: DEVICE_MESSAGES.noChanges,
  orgIdRequired: DEVICE_MESSAGES.orgIdRequired,
  orgIdInvalid: 'Organization ID must be a positive whole number.',
  printsLeft: DEVICE_MESSAGES.printsLeft,
  price: DEVICE_MESSAGES.price,
  // Beyond the spec: what succeeded.
  linked: (orgId: number) => `Device linked to organization ${orgId}.`,
  unlinked: 'Device unlinked from its organization.',
  renamed: 'Device name updated successfully!',
  channelUpdated: 'Software channel updated successfully!',
  restocked: (prints: number) => `Prints left set to ${prints}.`,
  priceUpdated: 'Price updated successfully!',
  deleted: 'Device deleted successfully.',
  updateSent: 'Software update command sent.',
  registered: (name: string) => `Device "${name}" registered.`,
  secretOnce:
    'Copy the secret now: it is shown only this once and cannot be shown again. If it is lost, delete the device and register a new one.',
} as const;

/** A field's check: its value, or the console kit's refusal (a broken rule, nothing changed). */
export type FieldOutcome<T> = { kind: 'ok'; value: T } | FormRefusal;

/** A field's check as a form's: the value is the body to send. */
export function asFormOutcome<T>(outcome: FieldOutcome<T>): FormOutcome<T> {
  return outcome.kind === 'ok' ? { kind: 'ok', body: outcome.value } : outcome;
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A typed number, or null when the text is not one ("", "12abc", "1e3"). */
function parseNumber(input: string): number | null {
  const text = input.trim();
  return NUMBER.test(text) ? Number(text) : null;
}

/** Restock Printer Media: a whole number from 100 to 700 (spec section 5). */
export function restockValue(input: string): FieldOutcome<number> {
  const value = parseNumber(input);
  if (
    value === null ||
    !Number.isInteger(value) ||
    value < PRINTS_LEFT_MIN ||
    value > PRINTS_LEFT_MAX
  ) {
    return { kind: 'invalid', message: DEVICE_MESSAGES.printsLeft };
  }
  return { kind: 'ok', value };
}

/** Edit Device Price: 0 to 1000 rupees, rounded to two decimals (spec section 5). */
export function priceValue(input: string): FieldOutcome<number> {
  const value = parseNumber(input);
  if (value === null || value < 0 || value > DEVICE_PRICE_MAX_RUPEES) {
    return { kind: 'invalid', message: DEVICE_MESSAGES.price };
  }
  return { kind: 'ok', value: Math.round(value * 100) / 100 };
}

/** Edit Device Name: required after trimming; the same name is "No changes to save.". */
export function nameValue(current: string, input: string): FieldOutcome<string> {
  const name = input.trim();
  if (!name) return { kind: 'invalid', message: DEVICE_MESSAGES.nameEmpty };
  if (name === current) return { kind: 'unchanged', message: DEVICE_MESSAGES.noChanges };
  return { kind: 'ok', value: name };
}

/** Link Device to Organization: the id is required (trimmed) and a positive whole number. */
export function organizationIdValue(input: string): FieldOutcome<number> {
  const text = input.trim();
  if (!text) return { kind: 'invalid', message: DEVICE_MESSAGES.orgIdRequired };
  if (!/^\d{1,10}$/.test(text) || Number(text) < 1 || Number(text) > 2_147_483_647) {
    return { kind: 'invalid', message: DEVICE_TEXT.orgIdInvalid };
  }
  return { kind: 'ok', value: Number(text) };
}

/** Edit Software Channel: the select's value ("" is "(None)"); the current one is no change. */
export function channelValue(
  current: number | null,
  selected: string,
): FieldOutcome<number | null> {
  const value = selected === '' ? null : Number(selected);
  if (value === current) return { kind: 'unchanged', message: DEVICE_MESSAGES.noChanges };
  return { kind: 'ok', value };
}

/** A channel in the select: "name (version)" or "name (N/A)" without a linked release. */
export function channelOptionLabel(channel: Pick<SoftwareChannel, 'name' | 'release_version'>) {
  return `${channel.name} (${channel.release_version ?? 'N/A'})`;
}

/** "₹49.50", or "(Not set)" when there is no price. */
export function formatPrice(price: number | null | undefined): string {
  if (price === null || price === undefined || Number.isNaN(price)) return DEVICE_TEXT.notSet;
  return `₹${price.toFixed(2)}`;
}

/** The card's organization: its name, or "(No Organization)". */
export function cardOrganization(device: Pick<Device, 'org_name' | 'org_id'>): string {
  if (device.org_id === null) return DEVICE_TEXT.noOrganization;
  return device.org_name ?? `Organization ${device.org_id}`;
}

/** The detail's organization: "name (ID: n)", or "(Not linked to an organization)". */
export function detailOrganization(device: Pick<Device, 'org_name' | 'org_id'>): string {
  if (device.org_id === null) return DEVICE_TEXT.notLinked;
  return `${device.org_name ?? 'Organization'} (ID: ${device.org_id})`;
}

/** The detail's software channel: "name (ID: n)", or "(None)". */
export function detailChannel(
  device: Pick<Device, 'software_channel_id' | 'software_channel_name'>,
): string {
  if (device.software_channel_id === null) return DEVICE_TEXT.none;
  return `${device.software_channel_name ?? 'Channel'} (ID: ${device.software_channel_id})`;
}

// ---- Prints left (spec section 9) ----

export type PrintsTone = 'red' | 'yellow' | 'green';

/** The bar: red below 50, yellow below 25% of a 700 roll (175), green otherwise. */
export function printsTone(printsLeft: number): PrintsTone {
  if (printsLeft < PRINTS_LEFT_WARNING) return 'red';
  if (printsLeft < PRINTS_LEFT_MAX * 0.25) return 'yellow';
  return 'green';
}

/** How full the bar is, 0 to 100. */
export function printsPercent(printsLeft: number): number {
  return Math.max(0, Math.min(100, (printsLeft / PRINTS_LEFT_MAX) * 100));
}

/** "n / 700". */
export function printsLabel(printsLeft: number): string {
  return `${printsLeft} / ${PRINTS_LEFT_MAX}`;
}

/** The low-roll warning below 50 prints, else null. */
export function lowRollWarning(printsLeft: number): string | null {
  return printsLeft < PRINTS_LEFT_WARNING ? DEVICE_MESSAGES.lowRoll : null;
}

// ---- Status (the booth's raw status string, shown as a dot and a label) ----

export type StatusTone = 'online' | 'busy' | 'updating' | 'offline';

export interface StatusView {
  tone: StatusTone;
  label: string;
}

/** What a busy booth is doing, by the booth agent's statuses (apps/booth-agent/src/status.ts). */
const BUSY_LABELS: Record<string, string> = {
  ready: 'Busy · capturing',
  processing: 'Busy · printing',
  uploading: 'Busy · uploading',
};

/**
 * A booth's status as the console shows it: idle is online (green); updating is its own (blue);
 * offline or nothing is grey; every other status is busy with a capture (amber), as visitors
 * count it (staff spec section 4: only idle and ready are free, case-insensitive; for staff a
 * booth that is `ready` is in a visitor's session).
 */
export function statusView(raw: string | null | undefined): StatusView {
  const status = (raw ?? '').trim().toLowerCase();
  if (status === '' || status === 'offline') return { tone: 'offline', label: 'Offline' };
  if (status === 'idle') return { tone: 'online', label: 'Online · idle' };
  if (status === 'updating') return { tone: 'updating', label: 'Updating' };
  return { tone: 'busy', label: BUSY_LABELS[status] ?? `Busy · ${status}` };
}

// ---- Live status (the staff status stream) ----

/** A device with a status event of it applied; prints and version stay when the event lacks them. */
export function applyStatusEvent<T extends Device>(device: T, event: DeviceStatusEvent): T {
  if (device.id !== event.id) return device;
  return {
    ...device,
    status: event.status,
    prints_left: event.prints_left ?? device.prints_left,
    software_version: event.software_version ?? device.software_version,
    pinged_at: event.pinged_at ?? device.pinged_at,
    updated_at: event.updated_at,
  };
}

/** A page of devices with the event applied to its device (the same page when it is not there). */
export function applyStatusEventToList<L extends { items: Device[] }>(
  list: L,
  event: DeviceStatusEvent,
): L {
  if (!list.items.some((device) => device.id === event.id)) return list;
  return { ...list, items: list.items.map((device) => applyStatusEvent(device, event)) };
}

// ---- Registering a booth ----

const BOOTH_ENV_KEYS = [
  'BOOTH_MQTT_URL',
  'BOOTH_THING_NAME',
  'BOOTH_SECRET',
  'BOOTH_SERVER_URL',
] as const satisfies readonly (keyof BoothEnv)[];

/** A value as a line of an env file: as it is when plain, else single-quoted. */
function envValue(value: string): string {
  if (/^[A-Za-z0-9_./:@%+=,-]*$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The block to paste into the booth's environment (a systemd EnvironmentFile, a .env file or
 * `docker --env-file`): one KEY=value line per variable the booth agent needs.
 */
export function boothEnvBlock(env: BoothEnv): string {
  return BOOTH_ENV_KEYS.map((key) => `${key}=${envValue(env[key])}`).join('\n');
}

// ---- The error log ----

/** "Showing 11–20 of 23" (spec: Device error logs); null when there is nothing to show. */
export function showingRange(page: number, pageSize: number, total: number): string | null {
  if (total <= 0) return null;
  const first = (page - 1) * pageSize + 1;
  if (first > total) return null;
  const last = Math.min(total, page * pageSize);
  return `Showing ${first}–${last} of ${total}`;
}
