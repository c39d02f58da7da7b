import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { routes } from './router';

/** The deepest route a path lands on: its pattern, or `index` for the app shell's index. */
function routeAt(pathname: string): string | undefined {
  const leaf = matchRoutes(routes, pathname)?.at(-1)?.route;
  return leaf?.index ? 'index' : leaf?.path;
}

describe('router', () => {
  it('gives every link built from config/paths its own route, not the not-found page', () => {
    const cases: [href: string, pattern: string][] = [
      [paths.home.getHref(), 'index'],
      [paths.brochure.getHref(), paths.brochure.path],
      [paths.terms.getHref(), paths.terms.path],
      [paths.refund.getHref(), paths.refund.path],
      [paths.privacy.getHref(), paths.privacy.path],
      [paths.paymentStatus.getHref(), paths.paymentStatus.path],
      [paths.regular.login.getHref(), paths.regular.login.path],
      [paths.regular.profile.getHref(), paths.regular.profile.path],
      [paths.regular.media.getHref(), paths.regular.media.path],
      [paths.regular.wall.getHref(), paths.regular.wall.path],
      [paths.regular.transactions.getHref(), paths.regular.transactions.path],
      [paths.regular.booth.getHref(7), paths.regular.booth.path],
      [paths.regular.capture.getHref(7, 3), paths.regular.capture.path],
      [paths.regular.shortLink.getHref(7), paths.regular.shortLink.path],
      [paths.kioskWall.getHref(7), paths.kioskWall.path],
      [paths.enterprise.login.getHref(), paths.enterprise.login.path],
      [paths.enterprise.profile.getHref(), paths.enterprise.profile.path],
    ];
    for (const [href, pattern] of cases) {
      expect(routeAt(new URL(href, 'https://flashbooth.test').pathname), href).toBe(pattern);
    }
  });

  it('sends any other address to the not-found page', () => {
    expect(routeAt('/regular/nothing-here')).toBe('*');
    expect(routeAt('/regular/photobooths/7/capture/extra')).toBe('*');
  });
});
