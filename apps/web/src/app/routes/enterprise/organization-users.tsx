import { useParams } from 'react-router';
import { OrganizationUsersScreen } from '@/features/organizations/components/organization-users-screen';
import { parseId } from '@/lib/parse-id';
import NotFound from '../not-found';

/** /enterprise/organizations/{orgId}/users: Organization users (org_users). */
export default function OrganizationUsersRoute() {
  const orgId = parseId(useParams().orgId);
  return orgId ? <OrganizationUsersScreen key={orgId} orgId={orgId} /> : <NotFound />;
}
