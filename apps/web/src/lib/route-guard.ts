import type { Pool } from '@flashbooth/contracts';
import { PUBLIC_PATHS, paths } from '@/config/paths';

export type AuthState =
  | { status: 'checking' }
  /** `signedOut`: the person just signed out here; protected pages send them home, not to login. */
  | { status: 'anonymous'; signedOut?: boolean }
  | { status: 'error' }
  | { status: 'authenticated'; userType: Pool };

export type GuardDecision =
  { kind: 'allow' } | { kind: 'wait' } | { kind: 'redirect'; to: string; remember?: string };

function under(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

export function isPublicPath(pathname: string): boolean {
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return PUBLIC_PATHS.includes(normalized);
}

/** Pages open to everyone whatever the session: a venue's kiosk wall, shown on its screen. */
export function isOpenToAll(pathname: string): boolean {
  return under(pathname, '/wall');
}

/**
 * Visitor pages a signed-out person may open (spec: "Wall viewing is public; likes and comments
 * require a session"): the wall. A staff account is still kept out, as from every visitor area.
 */
export function isOpenWhenSignedOut(pathname: string): boolean {
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return normalized === paths.regular.wall.path;
}

/** Visitor areas that staff accounts may not use (spec: blocked from /regular/* and /b/*). */
export function isRegularArea(pathname: string): boolean {
  return (
    under(pathname, '/regular') ||
    under(pathname, '/b') ||
    under(pathname, paths.paymentStatus.path)
  );
}

/** The staff console's area (and its login). */
export function isEnterpriseArea(pathname: string): boolean {
  return under(pathname, '/enterprise');
}

export function loginPathFor(pathname: string): string {
  return isEnterpriseArea(pathname) ? paths.enterprise.login.path : paths.regular.login.path;
}

export const BLOCKED_REGULAR_HREF = `${paths.enterprise.profile.path}?blocked=regular`;

/**
 * The spec's route guard as a pure function of the location and the auth check.
 * `fullPath` is pathname + search + hash: stored whole for redirect-after-login.
 */
export function decideRoute(pathname: string, fullPath: string, auth: AuthState): GuardDecision {
  if (isPublicPath(pathname) || isOpenToAll(pathname)) return { kind: 'allow' };
  // Signed out (or the check failed): the wall as anyone sees it. While a stored session is
  // being checked the guard waits, so a staff account is not shown the wall before it is kept out.
  if (isOpenWhenSignedOut(pathname) && (auth.status === 'anonymous' || auth.status === 'error')) {
    return { kind: 'allow' };
  }
  if (auth.status === 'checking') return { kind: 'wait' };
  if (auth.status === 'anonymous' && auth.signedOut)
    return { kind: 'redirect', to: paths.home.path };
  if (auth.status === 'anonymous' || auth.status === 'error') {
    return { kind: 'redirect', to: loginPathFor(pathname), remember: fullPath };
  }
  if (auth.userType === 'enterprise' && isRegularArea(pathname)) {
    return { kind: 'redirect', to: BLOCKED_REGULAR_HREF };
  }
  if (auth.userType === 'regular' && under(pathname, '/enterprise')) {
    // A visitor account in the staff area: the staff login shows who is signed in and offers Sign Out.
    return { kind: 'redirect', to: paths.enterprise.login.path };
  }
  return { kind: 'allow' };
}
