import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { NOT_AUTHORIZED_MESSAGE, PermissionGate } from './permission-gate';
import { permissionsFrom } from './permissions';

const staff = (flags: { is_super_user?: boolean; is_flashbooth_admin?: boolean }) => ({
  id: 5,
  is_super_user: false,
  is_flashbooth_admin: false,
  organizations: [{ org_id: 1, role: 'admin' as const }],
  ...flags,
});

const mount = vi.fn();
function Screen() {
  mount();
  return <p>the software screen</p>;
}

const render = (query: Parameters<typeof permissionsFrom>[0]) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <PermissionGate
        permissions={permissionsFrom(query)}
        action="software.manage"
        title="Software"
      >
        <Screen />
      </PermissionGate>
    </MemoryRouter>,
  );

describe('PermissionGate', () => {
  it('shows the screen to those the rule allows', () => {
    for (const flags of [{ is_super_user: true }, { is_flashbooth_admin: true }]) {
      const html = render({ data: staff(flags), isError: false, isPending: false });
      expect(html).toContain('the software screen');
      expect(html).not.toContain(NOT_AUTHORIZED_MESSAGE);
    }
  });

  it('never mounts the screen for anyone else, nor while the record loads or after it failed', () => {
    mount.mockClear();
    const refused = render({ data: staff({}), isError: false, isPending: false });
    expect(refused).toContain('You are not authorized to view this page.');
    expect(refused).toContain('role="alert"');
    const failed = render({ data: undefined, isError: true, isPending: false });
    expect(failed).toContain(NOT_AUTHORIZED_MESSAGE);
    const loading = render({ data: undefined, isError: false, isPending: true });
    expect(loading).toContain('Checking your permissions…');
    expect(loading).not.toContain(NOT_AUTHORIZED_MESSAGE);
    expect(mount).not.toHaveBeenCalled();
  });

  it('offers the way back to the console, never a retry (issue 20 walk)', () => {
    const refused = render({ data: staff({}), isError: false, isPending: false });
    expect(refused).toContain('href="/enterprise/organizations"');
    expect(refused).toContain('Back to Organizations');
    expect(refused).not.toContain('Try again');
  });
});
