import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppShell } from '@/components/layout/app-shell';
import { PageSpinner } from '@/components/ui/spinner';
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
      {
        element: <AppShell />,
        children: [
          { index: true, lazy: lazyRoute(() => import('./routes/landing')) },
          { path: 'brochure', lazy: lazyRoute(() => import('./routes/landing')) },
          { path: 'terms-and-conditions', lazy: lazyRoute(() => import('./routes/legal-terms')) },
          { path: 'refund-policy', lazy: lazyRoute(() => import('./routes/legal-refund')) },
          { path: 'privacy-policy', lazy: lazyRoute(() => import('./routes/legal-privacy')) },
          { path: 'regular/login', lazy: lazyRoute(() => import('./routes/regular/login')) },
          { path: 'regular/profile', lazy: lazyRoute(() => import('./routes/regular/profile')) },
          { path: 'regular/media', lazy: lazyRoute(() => import('./routes/regular/media')) },
          {
            path: 'regular/transactions',
            lazy: lazyRoute(() => import('./routes/regular/transactions')),
          },
          // The bottom navigation hides itself here (nav-model: NAV_HIDDEN_PATHS).
          { path: 'payment-status', lazy: lazyRoute(() => import('./routes/payment-status')) },
          { path: 'regular/photobooths/:deviceId', lazy: boothRoute },
          {
            path: 'regular/photobooths/:deviceId/capture',
            lazy: lazyRoute(() => import('./routes/regular/capture')),
          },
          { path: 'b/:deviceId', lazy: boothRoute },
          { path: 'enterprise/login', lazy: lazyRoute(() => import('./routes/enterprise/login')) },
          {
            path: 'enterprise/profile',
            lazy: lazyRoute(() => import('./routes/enterprise/profile')),
          },
          { path: '*', lazy: lazyRoute(() => import('./routes/not-found')) },
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
