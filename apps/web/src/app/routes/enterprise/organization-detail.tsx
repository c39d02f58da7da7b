import { useParams } from 'react-router';
import { OrganizationDetailScreen } from '@/features/organizations/components/organization-detail-screen';
import { parseId } from '@/lib/parse-id';
import NotFound from '../not-found';

/** /enterprise/organizations/{orgId}: Organization detail (org_detail). */
export default function OrganizationDetailRoute() {
  const orgId = parseId(useParams().orgId);
  // A new organization is a new screen: nothing of the previous one's state carries over.
  return orgId ? <OrganizationDetailScreen key={orgId} orgId={orgId} /> : <NotFound />;
}
