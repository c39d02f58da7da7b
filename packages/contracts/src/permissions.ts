/**
 * Who may do what in the staff console (staff.md section 6): one rule set, used by the server to
 * enforce and by the web app to show only what a person may use. Zod-free, so the web bundle can
 * import it through `@flashbooth/contracts/rules`.
 */

/** The parts of a staff account the rules read (the users/self body has them). */
export interface StaffPrincipal {
  is_super_user: boolean;
  is_flashbooth_admin: boolean;
  organizations?: readonly { org_id: number; role: 'member' | 'admin' }[] | undefined;
}

/** What a person may try; actions on one organization name it (`orgId`). */
export type StaffAction =
  // Organizations and their people
  | 'organization.create'
  | 'organization.delete'
  | 'organization.view'
  | 'organization.edit'
  | 'organization.invite'
  | 'organization.cancelInvite'
  | 'organization.editRole'
  | 'organization.removeUser'
  | 'organization.viewGuests'
  | 'organization.exportGuests'
  | 'organization.viewStats'
  | 'organization.viewRestrictedStats'
  | 'organization.viewMedia'
  | 'organization.moderate'
  // Devices
  | 'device.register'
  | 'device.view'
  | 'device.manage'
  | 'device.rename'
  | 'device.ping'
  | 'device.viewRaw'
  // Templates, software, all media
  | 'template.manage'
  | 'template.view'
  | 'software.manage'
  | 'media.viewAll';

/** Super users and product admins: everything, in every organization. */
export function isPrivilegedStaff(principal: StaffPrincipal): boolean {
  return principal.is_super_user || principal.is_flashbooth_admin;
}

/** The person's role in one organization, if a member. */
export function roleInOrganization(
  principal: StaffPrincipal,
  orgId: number,
): 'member' | 'admin' | undefined {
  return principal.organizations?.find((membership) => membership.org_id === orgId)?.role;
}

const PRIVILEGED_ONLY: ReadonlySet<StaffAction> = new Set<StaffAction>([
  'organization.create',
  'organization.delete',
  'organization.invite',
  'organization.cancelInvite',
  'organization.editRole',
  'organization.removeUser',
  'device.register',
  'device.manage',
  'device.viewRaw',
  'template.manage',
  'software.manage',
  'media.viewAll',
]);

/** Whether only super users and product admins may take the action, whatever the organization. */
export function isPrivilegedOnly(action: StaffAction): boolean {
  return PRIVILEGED_ONLY.has(action);
}

/** What an organization's admins may do there besides what members may. */
const ORG_ADMIN: ReadonlySet<StaffAction> = new Set<StaffAction>([
  'organization.edit',
  'organization.exportGuests',
  'organization.viewRestrictedStats',
  'organization.moderate',
  'device.rename',
]);

/** What every member of an organization may do there. */
const ORG_MEMBER: ReadonlySet<StaffAction> = new Set<StaffAction>([
  'organization.view',
  'organization.viewGuests',
  'organization.viewStats',
  'organization.viewMedia',
  'device.view',
  'device.ping',
]);

/** What every signed-in staff member may do, whatever their organizations. */
const EVERYONE: ReadonlySet<StaffAction> = new Set<StaffAction>(['template.view']);

/**
 * Whether the person may take the action (on `orgId` when it concerns one organization). An
 * organization-scoped action without `orgId` asks "in any of the person's organizations".
 */
export function can(principal: StaffPrincipal, action: StaffAction, orgId?: number): boolean {
  if (isPrivilegedStaff(principal)) return true;
  if (PRIVILEGED_ONLY.has(action)) return false;
  if (EVERYONE.has(action)) return true;
  const roles =
    orgId === undefined
      ? (principal.organizations ?? []).map((membership) => membership.role)
      : [roleInOrganization(principal, orgId)];
  if (ORG_MEMBER.has(action)) return roles.some((role) => role !== undefined);
  if (ORG_ADMIN.has(action)) return roles.includes('admin');
  return false;
}
