import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppShell } from '@/components/layout/app-shell';
import { PageSpinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { RouteGuard } from './route-guard';
import { RouteError } from './routes/route-error';

/** Route modules are lazy so a visitor on a phone downloads only the screens they open. */
const lazyRoute =
  (load: () => Promise<{ default: React.ComponentType }>): RouteObject['lazy'] =>
  async () => ({ Component: (await load()).default });

/** The booth's full address and its QR short link open the same screen. */
const boothRoute = lazyRoute(() => import('./routes/regular/booth'));

export const routes: RouteObject[] = [
  {
    element: <RouteGuard />,
    errorElement: <RouteError />,
    // Shown while the first lazy route module loads.
    HydrateFallback: PageSpinner,
    children: [
      // A venue's screen: full screen, outside the app shell (no navigation), open to all.
      { path: paths.kioskWall.path, lazy: lazyRoute(() => import('./routes/kiosk-wall')) },
      {
        element: <AppShell />,
        children: [
          // paths.home: the app shell's index.
          { index: true, lazy: lazyRoute(() => import('./routes/landing')) },
          { path: paths.brochure.path, lazy: lazyRoute(() => import('./routes/landing')) },
          { path: paths.terms.path, lazy: lazyRoute(() => import('./routes/legal-terms')) },
          { path: paths.refund.path, lazy: lazyRoute(() => import('./routes/legal-refund')) },
          { path: paths.privacy.path, lazy: lazyRoute(() => import('./routes/legal-privacy')) },
          {
            path: paths.regular.login.path,
            lazy: lazyRoute(() => import('./routes/regular/login')),
          },
          {
            path: paths.regular.profile.path,
            lazy: lazyRoute(() => import('./routes/regular/profile')),
          },
          {
            path: paths.regular.media.path,
            lazy: lazyRoute(() => import('./routes/regular/media')),
          },
          {
            path: paths.regular.wall.path,
            lazy: lazyRoute(() => import('./routes/regular/wall')),
          },
          {
            path: paths.regular.transactions.path,
            lazy: lazyRoute(() => import('./routes/regular/transactions')),
          },
          // The bottom navigation hides itself here (nav-model: NAV_HIDDEN_PATHS).
          {
            path: paths.paymentStatus.path,
            lazy: lazyRoute(() => import('./routes/payment-status')),
          },
          { path: paths.regular.booth.path, lazy: boothRoute },
          {
            path: paths.regular.capture.path,
            lazy: lazyRoute(() => import('./routes/regular/capture')),
          },
          { path: paths.regular.shortLink.path, lazy: boothRoute },
          {
            path: paths.enterprise.login.path,
            lazy: lazyRoute(() => import('./routes/enterprise/login')),
          },
          {
            path: paths.enterprise.profile.path,
            lazy: lazyRoute(() => import('./routes/enterprise/profile')),
          },
          {
            path: paths.enterprise.organizations.path,
            lazy: lazyRoute(() => import('./routes/enterprise/organizations')),
          },
          {
            path: paths.enterprise.organization.path,
            lazy: lazyRoute(() => import('./routes/enterprise/organization-detail')),
          },
          {
            path: paths.enterprise.organizationUsers.path,
            lazy: lazyRoute(() => import('./routes/enterprise/organization-users')),
          },
          {
            path: paths.enterprise.organizationGuests.path,
            lazy: lazyRoute(() => import('./routes/enterprise/organization-guests')),
          },
          {
            path: paths.enterprise.organizationMedia.path,
            lazy: lazyRoute(() => import('./routes/enterprise/organization-media')),
          },
          {
            path: paths.enterprise.allMedia.path,
            lazy: lazyRoute(() => import('./routes/enterprise/all-media')),
          },
          {
            path: paths.enterprise.organizationStats.path,
            lazy: lazyRoute(() => import('./routes/enterprise/organization-stats')),
          },
          {
            path: paths.enterprise.devices.path,
            lazy: lazyRoute(() => import('./routes/enterprise/devices')),
          },
          {
            path: paths.enterprise.device.path,
            lazy: lazyRoute(() => import('./routes/enterprise/device-detail')),
          },
          {
            path: paths.enterprise.deviceLogs.path,
            lazy: lazyRoute(() => import('./routes/enterprise/device-logs')),
          },
          {
            path: paths.enterprise.devicePoster.path,
            lazy: lazyRoute(() => import('./routes/enterprise/device-poster')),
          },
          {
            path: paths.enterprise.templates.path,
            lazy: lazyRoute(() => import('./routes/enterprise/templates')),
          },
          {
            path: paths.enterprise.template.path,
            lazy: lazyRoute(() => import('./routes/enterprise/template-detail')),
          },
          {
            path: paths.enterprise.templateOrgs.path,
            lazy: lazyRoute(() => import('./routes/enterprise/template-orgs')),
          },
          {
            path: paths.enterprise.templateStudio.path,
            lazy: lazyRoute(() => import('./routes/enterprise/template-studio')),
          },
          {
            path: paths.enterprise.channels.path,
            lazy: lazyRoute(() => import('./routes/enterprise/software-channels')),
          },
          {
            path: paths.enterprise.channel.path,
            lazy: lazyRoute(() => import('./routes/enterprise/software-channel-detail')),
          },
          {
            path: paths.enterprise.releases.path,
            lazy: lazyRoute(() => import('./routes/enterprise/software-releases')),
          },
          {
            path: paths.enterprise.release.path,
            lazy: lazyRoute(() => import('./routes/enterprise/software-release-detail')),
          },
          { path: '*', lazy: lazyRoute(() => import('./routes/not-found')) },
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
