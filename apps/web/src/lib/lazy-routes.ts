import { matchRoutes, type RouteObject } from 'react-router';

/**
 * Loads the lazy route modules that match `pathname` and puts them in place (`lazy` removed),
 * so a router made from `routes` afterwards starts ready, with the screen itself as its first
 * render rather than the loading fallback. The prerender does this before rendering a page and
 * the browser before hydrating it, so both render the same tree.
 */
export async function loadMatchedRoutes(routes: RouteObject[], pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, loaded, { lazy: undefined });
    }),
  );
}
