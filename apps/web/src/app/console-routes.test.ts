import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { COMING_SOON_PATHS, paths } from '@/config/paths';
import { routes } from './router';

/** The deepest route a path lands on. */
const routeAt = (pathname: string) => matchRoutes(routes, pathname)?.at(-1)?.route.path;

describe('staff console routes', () => {
  it('gives the organization screens their own routes', () => {
    const e = paths.enterprise;
    expect(routeAt(e.organizations.getHref())).toBe(e.organizations.path);
    expect(routeAt(e.organization.getHref(7))).toBe(e.organization.path);
    expect(routeAt(e.organizationUsers.getHref(7))).toBe(e.organizationUsers.path);
    expect(routeAt(e.organizationGuests.getHref(7))).toBe(e.organizationGuests.path);
  });

  it('sends the tabs and buttons of later screens to "Coming soon", not "Page not found"', () => {
    const e = paths.enterprise;
    const hrefs = [
      e.devices.getHref(),
      e.templates.getHref(),
      e.templateStudio.getHref(),
      e.channels.getHref(),
      e.releases.getHref(),
      e.allMedia.getHref(),
      e.organizationMedia.getHref(7),
      e.organizationStats.getHref(7),
    ];
    for (const href of hrefs) {
      const pattern = routeAt(href);
      expect(pattern, href).not.toBe('*');
      expect(COMING_SOON_PATHS, href).toContain(pattern);
    }
  });

  it('leaves other enterprise addresses to "Page not found"', () => {
    expect(routeAt('/enterprise/organizations/7/unknown')).toBe('*');
  });
});
