import { describe, expect, it } from 'vitest';
import { NO_PERMISSIONS, permissionsFrom } from './permissions';

const user = (overrides: Partial<Parameters<typeof permissionsFrom>[0]['data']> = {}) => ({
  id: 5,
  is_super_user: false,
  is_flashbooth_admin: false,
  organizations: [
    { org_id: 1, role: 'admin' as const },
    { org_id: 2, role: 'member' as const },
  ],
  ...overrides,
});

describe('permissionsFrom (staff spec section 6)', () => {
  it('maps the users/self record through the shared rule', () => {
    const permissions = permissionsFrom({ data: user(), isError: false, isPending: false });
    expect(permissions).toMatchObject({ ready: true, failed: false, userId: 5 });
    expect(permissions.can('organization.edit', 1)).toBe(true);
    expect(permissions.can('organization.edit', 2)).toBe(false);
    expect(permissions.can('organization.view', 2)).toBe(true);
    expect(permissions.can('organization.view', 3)).toBe(false);
    expect(permissions.can('organization.create')).toBe(false);
    expect(permissions.can('organization.delete', 1)).toBe(false);
    expect(permissions.can('organization.invite', 1)).toBe(false);
    expect(permissions.can('organization.exportGuests', 1)).toBe(true);
    expect(permissions.can('organization.exportGuests', 2)).toBe(false);
  });

  it('gives super users and product admins everything', () => {
    for (const flags of [{ is_super_user: true }, { is_flashbooth_admin: true }]) {
      const permissions = permissionsFrom({
        data: user({ ...flags, organizations: [] }),
        isError: false,
        isPending: false,
      });
      expect(permissions.can('organization.create')).toBe(true);
      expect(permissions.can('organization.delete', 9)).toBe(true);
      expect(permissions.can('organization.editRole', 9)).toBe(true);
    }
  });

  it('treats a record without organizations as a member of none', () => {
    const permissions = permissionsFrom({
      data: user({ organizations: undefined }),
      isError: false,
      isPending: false,
    });
    expect(permissions.principal.organizations).toEqual([]);
    expect(permissions.can('organization.view', 1)).toBe(false);
  });

  it('has no permissions and is not ready while the record loads', () => {
    const permissions = permissionsFrom({ isError: false, isPending: true });
    expect(permissions.ready).toBe(false);
    expect(permissions.principal).toBe(NO_PERMISSIONS);
    expect(permissions.can('organization.view', 1)).toBe(false);
  });

  it('has empty permissions when the record failed to load, even with an older one cached', () => {
    const permissions = permissionsFrom({
      data: user({ is_super_user: true }),
      isError: true,
      isPending: false,
    });
    expect(permissions).toMatchObject({ ready: true, failed: true, userId: null });
    expect(permissions.principal).toBe(NO_PERMISSIONS);
    expect(permissions.can('organization.create')).toBe(false);
    expect(permissions.can('organization.view', 1)).toBe(false);
  });
});
