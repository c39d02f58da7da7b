import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { useOrganization } from '@/api/organizations/get-organization';

/**
 * The organization's name for the breadcrumb (the same cache entry as the organization's screens),
 * or "Organization" when it cannot load (spec section 8).
 */
export function useOrganizationName(orgId: number): string {
  const organization = useOrganization(orgId);
  return (!organization.isError && organization.data?.name) || ORGANIZATION_MESSAGES.nameFallback;
}
