import { describe, expect, it } from 'vitest';
import { decideRoute, type AuthState } from './route-guard';

const anonymous: AuthState = { status: 'anonymous' };
const visitor: AuthState = { status: 'authenticated', userType: 'regular' };
const staff: AuthState = { status: 'authenticated', userType: 'enterprise' };

describe('route guard', () => {
  it.each([
    '/',
    '/brochure',
    '/regular/login',
    '/enterprise/login',
    '/terms-and-conditions',
    '/refund-policy',
    '/privacy-policy',
  ])('lets anyone open %s', (path) => {
    expect(decideRoute(path, path, anonymous)).toEqual({ kind: 'allow' });
    expect(decideRoute(path, path, { status: 'checking' })).toEqual({ kind: 'allow' });
  });

  it('sends visitors-area paths to the regular login and remembers the full path', () => {
    expect(decideRoute('/b/12', '/b/12?x=1#top', anonymous)).toEqual({
      kind: 'redirect',
      to: '/regular/login',
      remember: '/b/12?x=1#top',
    });
    expect(decideRoute('/regular/media', '/regular/media', anonymous)).toMatchObject({
      to: '/regular/login',
    });
    expect(decideRoute('/payment-status', '/payment-status?txn_id=1', anonymous)).toMatchObject({
      to: '/regular/login',
      remember: '/payment-status?txn_id=1',
    });
  });

  it('sends staff paths to the enterprise login', () => {
    expect(decideRoute('/enterprise/devices/3', '/enterprise/devices/3', anonymous)).toEqual({
      kind: 'redirect',
      to: '/enterprise/login',
      remember: '/enterprise/devices/3',
    });
  });

  it('redirects to login when the auth check itself fails', () => {
    expect(decideRoute('/regular/profile', '/regular/profile', { status: 'error' })).toMatchObject({
      kind: 'redirect',
      to: '/regular/login',
    });
  });

  it('sends a person who just signed out home, without remembering the page', () => {
    expect(
      decideRoute('/regular/profile', '/regular/profile', { status: 'anonymous', signedOut: true }),
    ).toEqual({
      kind: 'redirect',
      to: '/',
    });
  });

  it('waits while the auth check runs on a protected path', () => {
    expect(decideRoute('/regular/wall', '/regular/wall', { status: 'checking' })).toEqual({
      kind: 'wait',
    });
  });

  it('blocks staff accounts from /regular/* and /b/*', () => {
    for (const path of ['/regular/media', '/b/4', '/regular/photobooths/4/capture']) {
      expect(decideRoute(path, path, staff)).toEqual({
        kind: 'redirect',
        to: '/enterprise/profile?blocked=regular',
      });
    }
    expect(decideRoute('/enterprise/devices', '/enterprise/devices', staff)).toEqual({
      kind: 'allow',
    });
  });

  it('blocks staff accounts from the payment status screen, which only visitors use', () => {
    const full = '/payment-status?txn_id=9&device_id=4&template_id=2';
    expect(decideRoute('/payment-status', full, staff)).toEqual({
      kind: 'redirect',
      to: '/enterprise/profile?blocked=regular',
    });
    expect(decideRoute('/payment-status', full, visitor)).toEqual({ kind: 'allow' });
  });

  it('allows visitors their area and does not treat look-alike prefixes as areas', () => {
    expect(decideRoute('/regular/media', '/regular/media', visitor)).toEqual({ kind: 'allow' });
    expect(decideRoute('/bx', '/bx', staff)).toEqual({ kind: 'allow' });
    expect(decideRoute('/enterprise/profile', '/enterprise/profile', visitor)).toMatchObject({
      to: '/enterprise/login',
    });
  });

  it('lets a signed-out visitor open the wall, and keeps staff out of it', () => {
    const signedOut = { status: 'anonymous', signedOut: true } as const;
    for (const auth of [anonymous, signedOut, { status: 'error' } as const]) {
      expect(decideRoute('/regular/wall', '/regular/wall?page=2', auth)).toEqual({ kind: 'allow' });
      expect(decideRoute('/regular/wall/', '/regular/wall/', auth)).toEqual({ kind: 'allow' });
    }
    expect(decideRoute('/regular/wall', '/regular/wall', visitor)).toEqual({ kind: 'allow' });
    expect(decideRoute('/regular/wall', '/regular/wall', staff)).toMatchObject({
      kind: 'redirect',
      to: '/enterprise/profile?blocked=regular',
    });
    // Other visitor pages still need a session.
    expect(decideRoute('/regular/wallet', '/regular/wallet', anonymous)).toMatchObject({
      to: '/regular/login',
    });
  });

  it("lets anyone open a venue's kiosk wall, staff and visitors alike", () => {
    for (const auth of [anonymous, visitor, staff, { status: 'checking' } as const]) {
      expect(decideRoute('/wall/7', '/wall/7', auth)).toEqual({ kind: 'allow' });
    }
  });
});
