import { repostBadgeText } from '@flashbooth/contracts/rules';
import { describe, expect, it } from 'vitest';
import { mediaAspectRatio } from '@/components/media/media-preview-model';
import { canModerate, ownerName, readFilters, wallAction, whereLine } from './staff-media-model';

describe('readFilters', () => {
  it('applies no filter for empty fields and whole numbers from 1', () => {
    expect(readFilters('', '  ')).toEqual({ ok: true, filters: {} });
    expect(readFilters(' 7 ', '12')).toEqual({ ok: true, filters: { orgId: 7, deviceId: 12 } });
    expect(readFilters('1', '')).toEqual({ ok: true, filters: { orgId: 1 } });
  });

  it('refuses 0, negatives, fractions, text and ids beyond the database range', () => {
    for (const bad of ['0', '-1', '1.5', 'abc', '1e3', '2147483648']) {
      expect(readFilters(bad, '').ok, bad).toBe(false);
    }
    expect(readFilters('0', 'x')).toEqual({
      ok: false,
      errors: {
        orgId: 'Org ID must be a whole number of at least 1.',
        deviceId: 'Device ID must be a whole number of at least 1.',
      },
    });
    expect(readFilters('3', '0')).toEqual({
      ok: false,
      errors: { deviceId: 'Device ID must be a whole number of at least 1.' },
    });
  });
});

describe('cards', () => {
  it('shows landscape at 3:2 and portrait at 2:3', () => {
    expect(mediaAspectRatio('landscape')).toBe('3 / 2');
    expect(mediaAspectRatio('portrait')).toBe('2 / 3');
  });

  it('names the repost badge from the flag', () => {
    expect(repostBadgeText(true)).toBe('Repost Allowed');
    expect(repostBadgeText(false)).toBe('Repost Not Allowed');
  });

  it('writes "org, device" and leaves out what is missing', () => {
    expect(whereLine({ org_name: 'Demo Org', device_name: 'Lobby' })).toBe('Demo Org, Lobby');
    expect(whereLine({ org_name: null, device_name: 'Lobby' })).toBe('Lobby');
    expect(whereLine({ org_name: null, device_name: null })).toBe('Photobooth');
    expect(ownerName({ user_name: '  ' })).toBe('Visitor');
    expect(ownerName({ user_name: 'Asha' })).toBe('Asha');
  });
});

describe('canModerate', () => {
  const member = (role: 'admin' | 'member') => ({
    is_super_user: false,
    is_flashbooth_admin: false,
    organizations: [{ org_id: 4, role }],
  });

  it("lets privileged staff and the item's organization admins moderate", () => {
    const superUser = { is_super_user: true, is_flashbooth_admin: false };
    expect(canModerate(superUser, { org_id: 9 })).toBe(true);
    expect(canModerate(superUser, { org_id: null })).toBe(true);
    expect(canModerate(member('admin'), { org_id: 4 })).toBe(true);
  });

  it("refuses members, other organizations' admins and an unknown person", () => {
    expect(canModerate(member('member'), { org_id: 4 })).toBe(false);
    expect(canModerate(member('admin'), { org_id: 5 })).toBe(false);
    expect(canModerate(member('admin'), { org_id: null })).toBe(false);
    expect(canModerate(undefined, { org_id: 4 })).toBe(false);
  });
});

describe('wallAction', () => {
  it('offers Hide only for a public item, Show for a hidden one, nothing for a private one', () => {
    expect(wallAction({ is_public: true, hidden_from_wall: false })).toBe('hide');
    expect(wallAction({ is_public: false, hidden_from_wall: false })).toBeNull();
    expect(wallAction({ is_public: true, hidden_from_wall: true })).toBe('show');
    // Hidden, then made private by its owner: the hide can still be taken back.
    expect(wallAction({ is_public: false, hidden_from_wall: true })).toBe('show');
  });
});
