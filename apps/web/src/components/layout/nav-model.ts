import type { User } from '@flashbooth/contracts';
import { paths } from '@/config/paths';

/** Spec: below 768px the window counts as narrow. */
export const NARROW_MAX_WIDTH_PX = 767.98;
/** Spec: on mobile at most 2 items are shown directly; the rest go into "More". */
export const MAX_DIRECT_TABS_NARROW = 2;

export type NavIconName =
  | 'wall'
  | 'media'
  | 'profile'
  | 'transactions'
  | 'organizations'
  | 'devices'
  | 'templates'
  | 'studio'
  | 'channels'
  | 'releases'
  | 'all-media';

export interface NavTab {
  label: string;
  path: string;
  icon: NavIconName;
}

export type NavUser = Pick<User, 'type' | 'is_super_user' | 'is_flashbooth_admin'>;

const REGULAR_TABS: readonly NavTab[] = [
  { label: 'Wall', path: paths.regular.wall.path, icon: 'wall' },
  { label: 'My Media', path: paths.regular.media.path, icon: 'media' },
  { label: 'Profile', path: paths.regular.profile.path, icon: 'profile' },
  { label: 'Transactions', path: paths.regular.transactions.path, icon: 'transactions' },
];

const ENTERPRISE_TABS: readonly NavTab[] = [
  { label: 'Orgs', path: paths.enterprise.organizations.path, icon: 'organizations' },
  { label: 'Devices', path: paths.enterprise.devices.path, icon: 'devices' },
  { label: 'Templates', path: paths.enterprise.templates.path, icon: 'templates' },
  { label: 'Template Studio', path: paths.enterprise.templateStudio.path, icon: 'studio' },
  { label: 'Profile', path: paths.enterprise.profile.path, icon: 'profile' },
];

/** Only super users and product admins see these (staff spec, navigation bar). */
const ENTERPRISE_ADMIN_TABS: readonly NavTab[] = [
  { label: 'SW Channels', path: paths.enterprise.channels.path, icon: 'channels' },
  { label: 'SW Releases', path: paths.enterprise.releases.path, icon: 'releases' },
  { label: 'Media', path: paths.enterprise.allMedia.path, icon: 'all-media' },
];

/** Screens that never show the bottom navigation. */
const NAV_HIDDEN_PATHS: readonly string[] = [
  paths.regular.login.path,
  paths.enterprise.login.path,
  paths.brochure.path,
  paths.paymentStatus.path,
];

function normalize(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

/** A tab is active when the path equals its path or continues it after a slash. */
export function isTabActive(pathname: string, tabPath: string): boolean {
  return pathname === tabPath || pathname.startsWith(`${tabPath}/`);
}

/** The tabs of the signed-in user, in display order (primary first). */
export function tabsFor(user: NavUser | null | undefined): NavTab[] {
  if (!user) return [];
  if (user.type === 'regular') return [...REGULAR_TABS];
  const privileged = user.is_super_user || user.is_flashbooth_admin;
  return privileged ? [...ENTERPRISE_TABS, ...ENTERPRISE_ADMIN_TABS] : [...ENTERPRISE_TABS];
}

/**
 * Spec: shown only to signed-in users; hidden on the login screens, the brochure and the
 * payment status screen (home is hidden only when not signed in, which the first rule covers).
 */
export function navHidden(pathname: string, signedIn: boolean): boolean {
  if (!signedIn) return true;
  return NAV_HIDDEN_PATHS.includes(normalize(pathname));
}

/** Narrow screens show the first tabs directly and put the rest behind "More". */
export function splitTabs(
  tabs: readonly NavTab[],
  narrow: boolean,
): { direct: NavTab[]; overflow: NavTab[] } {
  if (!narrow || tabs.length <= MAX_DIRECT_TABS_NARROW) return { direct: [...tabs], overflow: [] };
  return {
    direct: tabs.slice(0, MAX_DIRECT_TABS_NARROW),
    overflow: tabs.slice(MAX_DIRECT_TABS_NARROW),
  };
}
