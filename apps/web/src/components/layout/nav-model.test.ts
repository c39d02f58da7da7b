import { describe, expect, it } from 'vitest';
import { isTabActive, navHidden, splitTabs, tabsFor, type NavUser } from './nav-model';

const regular: NavUser = { type: 'regular', is_super_user: false, is_flashbooth_admin: false };
const staff: NavUser = { type: 'enterprise', is_super_user: false, is_flashbooth_admin: false };
const superUser: NavUser = { ...staff, is_super_user: true };
const productAdmin: NavUser = { ...staff, is_flashbooth_admin: true };

describe('isTabActive', () => {
  it('matches the exact path', () => {
    expect(isTabActive('/regular/wall', '/regular/wall')).toBe(true);
  });
  it('matches deeper paths after a slash', () => {
    expect(isTabActive('/enterprise/devices/12/logs', '/enterprise/devices')).toBe(true);
    expect(isTabActive('/regular/wall/', '/regular/wall')).toBe(true);
  });
  it('does not match a path that merely starts with the same letters', () => {
    expect(isTabActive('/enterprise/templates-old', '/enterprise/templates')).toBe(false);
    expect(isTabActive('/enterprise/template-studio', '/enterprise/templates')).toBe(false);
    expect(isTabActive('/regular/media', '/regular/wall')).toBe(false);
  });
});

describe('tabsFor', () => {
  it('gives nothing without a user', () => {
    expect(tabsFor(null)).toEqual([]);
  });
  it('gives regular users four tabs in order', () => {
    expect(tabsFor(regular).map((tab) => [tab.label, tab.path])).toEqual([
      ['Wall', '/regular/wall'],
      ['My Media', '/regular/media'],
      ['Profile', '/regular/profile'],
      ['Transactions', '/regular/transactions'],
    ]);
  });
  it('gives staff five tabs in order', () => {
    expect(tabsFor(staff).map((tab) => [tab.label, tab.path])).toEqual([
      ['Orgs', '/enterprise/organizations'],
      ['Devices', '/enterprise/devices'],
      ['Templates', '/enterprise/templates'],
      ['Template Studio', '/enterprise/template-studio'],
      ['Profile', '/enterprise/profile'],
    ]);
  });
  it('adds the admin tabs for super users and product admins', () => {
    for (const user of [superUser, productAdmin]) {
      const tabs = tabsFor(user);
      expect(tabs).toHaveLength(8);
      expect(tabs.slice(5).map((tab) => [tab.label, tab.path])).toEqual([
        ['SW Channels', '/enterprise/software/channels'],
        ['SW Releases', '/enterprise/software/releases'],
        ['Media', '/enterprise/media/all'],
      ]);
    }
  });
});

describe('navHidden', () => {
  it('hides the navigation from people who are not signed in', () => {
    expect(navHidden('/', false)).toBe(true);
    expect(navHidden('/regular/wall', false)).toBe(true);
  });
  it('shows it on home and app screens when signed in', () => {
    expect(navHidden('/', true)).toBe(false);
    expect(navHidden('/regular/profile', true)).toBe(false);
    expect(navHidden('/enterprise/devices/3', true)).toBe(false);
  });
  it('hides it on login screens, the brochure and payment status', () => {
    for (const path of [
      '/regular/login',
      '/enterprise/login',
      '/brochure',
      '/payment-status',
      '/regular/login/',
    ]) {
      expect(navHidden(path, true)).toBe(true);
    }
  });
});

describe('splitTabs', () => {
  const tabs = tabsFor(superUser);
  it('shows every tab directly on wide screens', () => {
    expect(splitTabs(tabs, false)).toEqual({ direct: tabs, overflow: [] });
  });
  it('shows the first two tabs directly on narrow screens and the rest under More', () => {
    const { direct, overflow } = splitTabs(tabs, true);
    expect(direct.map((tab) => tab.label)).toEqual(['Orgs', 'Devices']);
    expect(overflow).toHaveLength(6);
  });
  it('needs no More menu for two tabs or fewer', () => {
    expect(splitTabs(tabs.slice(0, 2), true).overflow).toEqual([]);
  });
});
