import { matchPath, useLocation } from 'react-router';
import { ComingSoon } from '@/components/console/coming-soon';
import { paths } from '@/config/paths';

/**
 * Staff screens of later releases (config/paths.ts COMING_SOON_PATHS). Their navigation tabs stay
 * (spec section 2) and lead here, to a "Coming soon" screen, instead of "Page not found".
 */
const TITLES: readonly (readonly [string, string])[] = [
  [paths.enterprise.devices.path, 'Devices'],
  [paths.enterprise.templates.path, 'Templates'],
  [paths.enterprise.templateStudio.path, 'Template Studio'],
  [paths.enterprise.allMedia.path, 'All Media'],
  [paths.enterprise.organizationMedia.path, 'Organization Media'],
];

export default function ComingSoonRoute() {
  const { pathname } = useLocation();
  const title = TITLES.find(([path]) => matchPath(path, pathname))?.[1] ?? 'Coming soon';
  return <ComingSoon title={title} />;
}
