import { useParams } from 'react-router';
import { OrganizationGuestsScreen } from '@/features/organizations/components/organization-guests-screen';
import { parseId } from '@/lib/parse-id';
import NotFound from '../not-found';

/** /enterprise/organizations/{orgId}/guests: Organization guests (org_guests). */
export default function OrganizationGuestsRoute() {
  const orgId = parseId(useParams().orgId);
  return orgId ? <OrganizationGuestsScreen key={orgId} orgId={orgId} /> : <NotFound />;
}
