import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
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
  });

  it('gives the software screens their own routes', () => {
    const e = paths.enterprise;
    expect(routeAt(e.channels.getHref())).toBe(e.channels.path);
    expect(routeAt(e.channel.getHref(7))).toBe(e.channel.path);
    expect(routeAt(e.releases.getHref())).toBe(e.releases.path);
    expect(routeAt(e.release.getHref(7))).toBe(e.release.path);
  });

  it('gives the template screens and Template Studio their own routes', () => {
    const e = paths.enterprise;
    expect(routeAt(e.templates.getHref())).toBe(e.templates.path);
    expect(routeAt(e.template.getHref(7))).toBe(e.template.path);
    expect(routeAt(e.templateOrgs.getHref(7))).toBe(e.templateOrgs.path);
    expect(routeAt(e.templateStudio.getHref())).toBe(e.templateStudio.path);
  });

  it('gives the staff media screens their own routes', () => {
    const e = paths.enterprise;
    expect(routeAt(e.allMedia.getHref())).toBe(e.allMedia.path);
    expect(routeAt(e.organizationMedia.getHref(7))).toBe(e.organizationMedia.path);
  });

  it('gives organization statistics its own route', () => {
    const e = paths.enterprise;
    expect(routeAt(e.organizationStats.getHref(7))).toBe(e.organizationStats.path);
  });

  it('leaves other enterprise addresses to "Page not found"', () => {
    expect(routeAt('/enterprise/organizations/7/unknown')).toBe('*');
  });
});
