import { describe, expect, it } from 'vitest';
import {
  can,
  isPrivilegedOnly,
  isPrivilegedStaff,
  roleInOrganization,
  type StaffPrincipal,
} from './permissions.js';

const staff = (
  organizations: StaffPrincipal['organizations'] = [],
  flags: Partial<StaffPrincipal> = {},
): StaffPrincipal => ({
  is_super_user: false,
  is_flashbooth_admin: false,
  organizations,
  ...flags,
});

describe('staff permissions (staff.md section 6)', () => {
  const superUser = staff([], { is_super_user: true });
  const productAdmin = staff([], { is_flashbooth_admin: true });
  const orgAdmin = staff([{ org_id: 1, role: 'admin' }]);
  const member = staff([{ org_id: 1, role: 'member' }]);
  const outsider = staff([{ org_id: 2, role: 'admin' }]);

  it('lets super users and product admins do everything, in every organization', () => {
    for (const person of [superUser, productAdmin]) {
      expect(isPrivilegedStaff(person)).toBe(true);
      expect(can(person, 'organization.create')).toBe(true);
      expect(can(person, 'organization.delete', 7)).toBe(true);
      expect(can(person, 'organization.invite', 7)).toBe(true);
      expect(can(person, 'software.manage')).toBe(true);
      expect(can(person, 'organization.edit', 7)).toBe(true);
    }
  });

  it("lets an organization's admins edit it, not delete it or manage its people", () => {
    expect(can(orgAdmin, 'organization.edit', 1)).toBe(true);
    expect(can(orgAdmin, 'organization.exportGuests', 1)).toBe(true);
    expect(can(orgAdmin, 'organization.viewRestrictedStats', 1)).toBe(true);
    expect(can(orgAdmin, 'device.rename', 1)).toBe(true);
    expect(can(orgAdmin, 'organization.delete', 1)).toBe(false);
    expect(can(orgAdmin, 'organization.invite', 1)).toBe(false);
    expect(can(orgAdmin, 'organization.editRole', 1)).toBe(false);
    expect(can(orgAdmin, 'organization.removeUser', 1)).toBe(false);
    expect(can(orgAdmin, 'organization.cancelInvite', 1)).toBe(false);
  });

  it('lets members view their organization only', () => {
    expect(can(member, 'organization.view', 1)).toBe(true);
    expect(can(member, 'organization.viewGuests', 1)).toBe(true);
    expect(can(member, 'organization.viewStats', 1)).toBe(true);
    expect(can(member, 'device.ping', 1)).toBe(true);
    expect(can(member, 'device.view', 1)).toBe(true);
    expect(can(member, 'device.rename', 1)).toBe(false);
    expect(can(member, 'device.manage', 1)).toBe(false);
    expect(can(member, 'organization.edit', 1)).toBe(false);
    expect(can(member, 'organization.viewRestrictedStats', 1)).toBe(false);
    expect(can(member, 'organization.exportGuests', 1)).toBe(false);
  });

  it('gives nothing in an organization the person does not belong to', () => {
    expect(roleInOrganization(outsider, 1)).toBeUndefined();
    expect(can(outsider, 'organization.view', 1)).toBe(false);
    expect(can(outsider, 'device.view', 1)).toBe(false);
    expect(can(outsider, 'organization.edit', 1)).toBe(false);
    expect(can(outsider, 'organization.edit', 2)).toBe(true);
  });

  it('answers "in any organization" without an id, and lets everyone view templates', () => {
    expect(can(orgAdmin, 'organization.edit')).toBe(true);
    expect(can(member, 'organization.edit')).toBe(false);
    expect(can(staff(), 'organization.view')).toBe(false);
    expect(can(staff(), 'template.view')).toBe(true);
    expect(can(staff(), 'template.manage')).toBe(false);
  });

  it('names the actions no organization role gives (the server words its 403 by it)', () => {
    for (const action of [
      'organization.create',
      'organization.delete',
      'organization.invite',
      'organization.cancelInvite',
      'organization.editRole',
      'organization.removeUser',
    ] as const) {
      expect(isPrivilegedOnly(action)).toBe(true);
      expect(can(orgAdmin, action, 1)).toBe(false);
    }
    for (const action of ['organization.edit', 'organization.exportGuests'] as const) {
      expect(isPrivilegedOnly(action)).toBe(false);
      expect(can(orgAdmin, action, 1)).toBe(true);
    }
  });
});
