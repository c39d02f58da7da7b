import type { Device } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import {
  applyStatusEvent,
  applyStatusEventToList,
  boothEnvBlock,
  cardOrganization,
  channelOptionLabel,
  channelValue,
  detailChannel,
  detailOrganization,
  formatPrice,
  lowRollWarning,
  nameValue,
  organizationIdValue,
  priceValue,
  printsLabel,
  printsPercent,
  printsTone,
  restockValue,
  showingRange,
  statusView,
} from './devices-model';

const device = (values: Partial<Device> = {}): Device => ({
  id: 7,
  name: 'Atrium booth',
  org_id: 3,
  org_name: 'Sunrise Mall',
  thing_name: 'fb-abcdefghij',
  status: 'idle',
  software_channel_id: null,
  software_channel_name: null,
  software_version: '1.0.0',
  price_rupees: 49.5,
  prints_left: 420,
  created_at: '2025-05-14T10:20:30',
  updated_at: '2025-05-14T10:20:30',
  pinged_at: null,
  ...values,
});

describe('device form rules (staff spec section 5)', () => {
  it('accepts a restock of 100 to 700 whole prints only', () => {
    expect(restockValue('100')).toEqual({ kind: 'ok', value: 100 });
    expect(restockValue(' 700 ')).toEqual({ kind: 'ok', value: 700 });
    for (const bad of ['99', '701', '', 'abc', '150.5', '1e2', '-100']) {
      expect(restockValue(bad), bad).toEqual({
        kind: 'invalid',
        message: 'Value must be a number between 100 and 700.',
      });
    }
  });

  it('accepts a price of 0 to 1000 rupees, rounded to two decimals', () => {
    expect(priceValue('0')).toEqual({ kind: 'ok', value: 0 });
    expect(priceValue('1000')).toEqual({ kind: 'ok', value: 1000 });
    expect(priceValue('49.999')).toEqual({ kind: 'ok', value: 50 });
    expect(priceValue('12.345')).toEqual({ kind: 'ok', value: 12.35 });
    expect(priceValue('.5')).toEqual({ kind: 'ok', value: 0.5 });
    for (const bad of ['-0.01', '1000.01', '', 'free', '₹20']) {
      expect(priceValue(bad), bad).toEqual({
        kind: 'invalid',
        message: 'Price must be a number between 0.00 and 1000.00.',
      });
    }
  });

  it('requires a device name and says when it did not change', () => {
    expect(nameValue('Atrium', '  Lobby ')).toEqual({ kind: 'ok', value: 'Lobby' });
    expect(nameValue('Atrium', '   ')).toEqual({
      kind: 'invalid',
      message: 'Device name cannot be empty.',
    });
    expect(nameValue('Atrium', ' Atrium ')).toEqual({
      kind: 'unchanged',
      message: 'No changes to save.',
    });
  });

  it('requires an organization id to link, trimmed and a positive whole number', () => {
    expect(organizationIdValue(' 12 ')).toEqual({ kind: 'ok', value: 12 });
    expect(organizationIdValue('  ')).toEqual({
      kind: 'invalid',
      message: 'Organization ID is required.',
    });
    expect(organizationIdValue('0').kind).toBe('invalid');
    expect(organizationIdValue('1.5').kind).toBe('invalid');
    expect(organizationIdValue('99999999999').kind).toBe('invalid');
  });

  it('turns the channel select into an id or null, the current one being no change', () => {
    expect(channelValue(null, '4')).toEqual({ kind: 'ok', value: 4 });
    expect(channelValue(4, '')).toEqual({ kind: 'ok', value: null });
    expect(channelValue(4, '4').kind).toBe('unchanged');
    expect(channelValue(null, '').kind).toBe('unchanged');
  });
});

describe('device texts', () => {
  it('labels channels with their release version or N/A', () => {
    expect(channelOptionLabel({ name: 'Stable', release_version: '1.2.0' })).toBe('Stable (1.2.0)');
    expect(channelOptionLabel({ name: 'Beta', release_version: null })).toBe('Beta (N/A)');
  });

  it('shows prices with the rupee sign and two decimals, or (Not set)', () => {
    expect(formatPrice(49.5)).toBe('₹49.50');
    expect(formatPrice(0)).toBe('₹0.00');
    expect(formatPrice(null)).toBe('(Not set)');
  });

  it('names the organization on cards and the detail, or says there is none', () => {
    expect(cardOrganization(device())).toBe('Sunrise Mall');
    expect(cardOrganization(device({ org_id: null, org_name: null }))).toBe('(No Organization)');
    expect(detailOrganization(device())).toBe('Sunrise Mall (ID: 3)');
    expect(detailOrganization(device({ org_id: null, org_name: null }))).toBe(
      '(Not linked to an organization)',
    );
    expect(detailChannel(device())).toBe('(None)');
    expect(detailChannel(device({ software_channel_id: 2, software_channel_name: 'Stable' }))).toBe(
      'Stable (ID: 2)',
    );
  });
});

describe('prints left (staff spec section 9)', () => {
  it('colours the bar red below 50, yellow below 175 (25% of 700), green otherwise', () => {
    expect(printsTone(0)).toBe('red');
    expect(printsTone(49)).toBe('red');
    expect(printsTone(50)).toBe('yellow');
    expect(printsTone(174)).toBe('yellow');
    expect(printsTone(175)).toBe('green');
    expect(printsTone(700)).toBe('green');
  });

  it('warns below 50 prints only', () => {
    expect(lowRollWarning(49)).toBe('Warning: Media roll is critically low. Restock immediately!');
    expect(lowRollWarning(50)).toBeNull();
  });

  it('shows n / 700 and how full the bar is', () => {
    expect(printsLabel(420)).toBe('420 / 700');
    expect(printsPercent(350)).toBe(50);
    expect(printsPercent(900)).toBe(100);
    expect(printsPercent(-5)).toBe(0);
  });
});

describe('device status', () => {
  it('shows idle as online, a session as busy, updating, and offline as grey', () => {
    expect(statusView('idle')).toEqual({ tone: 'online', label: 'Online · idle' });
    expect(statusView('IDLE').tone).toBe('online');
    expect(statusView('ready')).toEqual({ tone: 'busy', label: 'Busy · capturing' });
    expect(statusView('processing')).toEqual({ tone: 'busy', label: 'Busy · printing' });
    expect(statusView('uploading').tone).toBe('busy');
    expect(statusView('updating')).toEqual({ tone: 'updating', label: 'Updating' });
    expect(statusView('offline')).toEqual({ tone: 'offline', label: 'Offline' });
    expect(statusView('')).toEqual({ tone: 'offline', label: 'Offline' });
    expect(statusView(null).tone).toBe('offline');
    // Anything else is busy, as visitors count it.
    expect(statusView('jammed')).toEqual({ tone: 'busy', label: 'Busy · jammed' });
  });

  it('applies a live status event to its device and leaves the others', () => {
    const event = {
      id: 7,
      status: 'ready',
      prints_left: 419,
      software_version: null,
      pinged_at: null,
      updated_at: '2025-05-14T10:21:00',
    };
    expect(applyStatusEvent(device(), event)).toMatchObject({
      status: 'ready',
      prints_left: 419,
      software_version: '1.0.0',
      pinged_at: null,
      updated_at: '2025-05-14T10:21:00',
    });
    const other = device({ id: 8 });
    expect(applyStatusEvent(other, event)).toBe(other);
    const list = { items: [device(), other], total_count: 2 };
    const applied = applyStatusEventToList(list, event);
    expect(applied.items[0]!.status).toBe('ready');
    expect(applied.items[1]).toBe(other);
    expect(applied.total_count).toBe(2);
    const elsewhere = { items: [other], total_count: 1 };
    expect(applyStatusEventToList(elsewhere, event)).toBe(elsewhere);
  });
});

describe('the booth env block', () => {
  it('is the four variables the booth agent needs, one KEY=value a line', () => {
    expect(
      boothEnvBlock({
        BOOTH_MQTT_URL: 'mqtt://booths.example:1884',
        BOOTH_THING_NAME: 'fb-abcdefghij',
        BOOTH_SECRET: 'Zm9v_YmFy-0123456789',
        BOOTH_SERVER_URL: 'https://photos.example',
      }),
    ).toBe(
      [
        'BOOTH_MQTT_URL=mqtt://booths.example:1884',
        'BOOTH_THING_NAME=fb-abcdefghij',
        'BOOTH_SECRET=Zm9v_YmFy-0123456789',
        'BOOTH_SERVER_URL=https://photos.example',
      ].join('\n'),
    );
  });

  it('quotes a value a shell would split', () => {
    const block = boothEnvBlock({
      BOOTH_MQTT_URL: 'mqtt://a b',
      BOOTH_THING_NAME: 'fb-x',
      BOOTH_SECRET: "it's",
      BOOTH_SERVER_URL: 'http://x',
    });
    expect(block).toContain("BOOTH_MQTT_URL='mqtt://a b'");
    expect(block).toContain(`BOOTH_SECRET='it'\\''s'`);
  });
});

describe('the error log', () => {
  it('says which entries show', () => {
    expect(showingRange(1, 10, 23)).toBe('Showing 1–10 of 23');
    expect(showingRange(3, 10, 23)).toBe('Showing 21–23 of 23');
    expect(showingRange(1, 10, 0)).toBeNull();
    expect(showingRange(4, 10, 23)).toBeNull();
  });
});
