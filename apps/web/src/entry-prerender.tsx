/**
 * Build-time rendering of the pages the server sends as ready HTML (scripts/prerender.ts builds
 * this file for Node and calls it): the browser's own components, providers and route tree,
 * rendered to a string by react-dom/server, so there is no second copy of any markup.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProvider } from './app/provider';
import { routes } from './app/router';
import { AppShell } from './components/layout/app-shell';
import { appConfig, type AppConfig } from './config/app-config';
import { boothDeviceQueryOptions } from './features/booth/api/get-device';
import { loadMatchedRoutes } from './lib/lazy-routes';
import { SessionProvider } from './lib/session';

/** The runtime settings to render with (the prerender passes placeholders the server fills in). */
export function configure(values: AppConfig): void {
  Object.assign(appConfig, values);
}

function render(pageRoutes: RouteObject[], url: string): string {
  const router = createMemoryRouter(pageRoutes, { initialEntries: [url] });
  // The same element tree as main.tsx, so the browser hydrates exactly this markup.
  return renderToString(
    <StrictMode>
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>
    </StrictMode>,
  );
}

/**
 * A public page through the app's route tree (route guard, app shell, screen) as a signed-out
 * visitor's browser first renders it; main.tsx hydrates it.
 */
export async function renderPage(url: string): Promise<string> {
  await loadMatchedRoutes(routes, url);
  return render(routes, url);
}

/**
 * The booth page's frame: the app shell around the booth screen in its loading state (header
 * with the booth name placeholder, template skeleton). The page needs a session, so the guard is
 * left out here; the browser renders the app over this frame instead of hydrating it.
 */
export async function renderBoothFrame(url: string): Promise<string> {
  const { default: BoothRoute } = await import('./app/routes/regular/booth');
  return render(
    [{ element: <AppShell />, children: [{ path: '/b/:deviceId', Component: BoothRoute }] }],
    url,
  );
}

/**
 * The booth page as it opens: the app shell around the booth screen with its Confirm Your
 * Location dialog showing the booth, rendered with placeholders for the booth's name and venue
 * (the server puts each booth's own in their place and adds its data for the app, which renders
 * the same dialog over this from that data). The dialog is rendered open: in the HTML it cannot
 * be modal (only a script can make it so), so the booth page's styles give an open dialog that
 * is not modal the modal's place and backdrop.
 */
export async function renderBoothPage(
  url: string,
  placeholders: { deviceName: string; orgName: string },
): Promise<string> {
  const { default: BoothRoute } = await import('./app/routes/regular/booth');
  const queryClient = new QueryClient();
  const deviceId = Number(url.split('/').pop());
  queryClient.setQueryData(boothDeviceQueryOptions(deviceId).queryKey, {
    id: deviceId,
    name: placeholders.deviceName,
    org_name: placeholders.orgName,
    price_rupees: 0,
    status: 'idle',
  });
  const router = createMemoryRouter(
    [{ element: <AppShell />, children: [{ path: '/b/:deviceId', Component: BoothRoute }] }],
    { initialEntries: [url] },
  );
  const html = renderToString(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <RouterProvider router={router} />
        </SessionProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
  const dialog = '<dialog class="dialog booth-location-dialog';
  if (!html.includes(dialog)) throw new Error('renderBoothPage: no location dialog rendered');
  return html.replace(dialog, '<dialog open="" class="dialog booth-location-dialog');
}
