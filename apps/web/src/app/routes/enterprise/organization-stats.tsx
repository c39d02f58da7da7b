import { useParams } from 'react-router';
import { useOrganization } from '@/api/organizations/get-organization';
import { organizationTitle } from '@/features/organizations/organizations-model';
import { OrganizationStatsScreen } from '@/features/organization-stats/components/organization-stats-screen';
import { parseId } from '@/lib/parse-id';
import NotFound from '../not-found';

/** The organization's name for the title and breadcrumb ("Organization" when it fails to load). */
function OrganizationStats({ orgId }: { orgId: number }) {
  const organization = useOrganization(orgId);
  const orgName = organizationTitle(organization.isError ? undefined : organization.data);
  return <OrganizationStatsScreen orgId={orgId} orgName={orgName} />;
}

/**
 * /enterprise/organizations/{orgId}/stats: Organization statistics (org_stats). The only route
 * module that reaches chart.js, so the charting library stays out of every other screen's bundle.
 */
export default function OrganizationStatsRoute() {
  const orgId = parseId(useParams().orgId);
  return orgId ? <OrganizationStats key={orgId} orgId={orgId} /> : <NotFound />;
}
