import {
  can,
  isPrivilegedOnly,
  ORGANIZATION_MESSAGES,
  type StaffAction,
} from '@flashbooth/contracts';
import { forbidden, notFound } from '../../errors.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import type { StaffCaller, UsersService } from '../users/users.service.js';
import type { OrganizationRecord, OrganizationsRepository } from './organizations.repository.js';

const M = ORGANIZATION_MESSAGES;
export const organizationNotFound = () => notFound(M.notFound);

/**
 * Who may do what with an organization, for the organization and invitation services alike.
 * Every decision is the shared rule set's (`can` in @flashbooth/contracts, which the web app
 * mirrors); an organization the caller cannot see is "not found", never "forbidden", so ids do
 * not leak.
 */
export class OrganizationAccess {
  constructor(
    private readonly options: {
      organizations: Pick<OrganizationsRepository, 'findById'>;
      users: Pick<UsersService, 'staffPrincipal'>;
    },
  ) {}

  staff(claims: AccessClaims): Promise<StaffCaller> {
    return this.options.users.staffPrincipal(claims);
  }

  /** 403 unless the caller may take the action (on `orgId`). */
  authorize(caller: StaffCaller, action: StaffAction, orgId?: number): void {
    if (can(caller.principal, action, orgId)) return;
    throw forbidden(isPrivilegedOnly(action) ? M.onlyPrivileged : M.onlyOrgAdmins);
  }

  /** The organization if the caller may see it; 404 otherwise (another organization's too). */
  async visible(caller: StaffCaller, orgId: number): Promise<OrganizationRecord> {
    const row = await this.options.organizations.findById(orgId);
    if (!row || !can(caller.principal, 'organization.view', orgId)) throw organizationNotFound();
    return row;
  }

  /** Visible, and the caller may take `action` there (403 otherwise). */
  async allowed(
    claims: AccessClaims,
    orgId: number,
    action: StaffAction,
  ): Promise<{ caller: StaffCaller; organization: OrganizationRecord }> {
    const caller = await this.staff(claims);
    const organization = await this.visible(caller, orgId);
    this.authorize(caller, action, orgId);
    return { caller, organization };
  }
}
