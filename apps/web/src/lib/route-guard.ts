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
  if (isPublicPath(pathname)) return { kind: 'allow' };
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
