import { useParams } from 'react-router';
import { OrganizationMediaScreen } from '@/features/staff-media/components/organization-media-screen';
import { parseId } from '@/lib/parse-id';
import NotFound from '../not-found';

/** /enterprise/organizations/{orgId}/media: Organization media (org_media). */
export default function OrganizationMediaRoute() {
  const orgId = parseId(useParams().orgId);
  return orgId ? <OrganizationMediaScreen key={orgId} orgId={orgId} /> : <NotFound />;
}
