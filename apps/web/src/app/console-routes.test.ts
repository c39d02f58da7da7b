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

  it('gives the device screens their own routes', () => {
    const e = paths.enterprise;
    expect(routeAt(e.devices.getHref())).toBe(e.devices.path);
    expect(routeAt(e.device.getHref(7))).toBe(e.device.path);
    expect(routeAt(e.deviceLogs.getHref(7))).toBe(e.deviceLogs.path);
    expect(COMING_SOON_PATHS).not.toContain(e.devices.path);
  });

  it('gives the software screens their own routes', () => {
    const e = paths.enterprise;
    expect(routeAt(e.channels.getHref())).toBe(e.channels.path);
    expect(routeAt(e.channel.getHref(7))).toBe(e.channel.path);
    expect(routeAt(e.releases.getHref())).toBe(e.releases.path);
    expect(routeAt(e.release.getHref(7))).toBe(e.release.path);
    expect(COMING_SOON_PATHS).not.toContain(e.channels.path);
    expect(COMING_SOON_PATHS).not.toContain(e.releases.path);
  });

  it('gives the template screens and Template Studio their own routes', () => {
    const e = paths.enterprise;
    expect(routeAt(e.templates.getHref())).toBe(e.templates.path);
    expect(routeAt(e.template.getHref(7))).toBe(e.template.path);
    expect(routeAt(e.templateOrgs.getHref(7))).toBe(e.templateOrgs.path);
    expect(routeAt(e.templateStudio.getHref())).toBe(e.templateStudio.path);
    expect(COMING_SOON_PATHS).not.toContain(e.templates.path);
    expect(COMING_SOON_PATHS).not.toContain(e.templateStudio.path);
  });

  it('sends the tabs and buttons of later screens to "Coming soon", not "Page not found"', () => {
    const e = paths.enterprise;
    const hrefs = [e.allMedia.getHref(), e.organizationMedia.getHref(7)];
    for (const href of hrefs) {
      const pattern = routeAt(href);
      expect(pattern, href).not.toBe('*');
      expect(COMING_SOON_PATHS, href).toContain(pattern);
    }
  });

  it('gives organization statistics its own route', () => {
    const e = paths.enterprise;
    expect(routeAt(e.organizationStats.getHref(7))).toBe(e.organizationStats.path);
    expect(COMING_SOON_PATHS).not.toContain(e.organizationStats.path);
  });

  it('leaves other enterprise addresses to "Page not found"', () => {
    expect(routeAt('/enterprise/organizations/7/unknown')).toBe('*');
  });
});
