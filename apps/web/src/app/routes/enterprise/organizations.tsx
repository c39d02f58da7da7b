import { OrganizationsScreen } from '@/features/organizations/components/organizations-screen';

/** /enterprise/organizations: Organizations (org_list). */
export default function OrganizationsRoute() {
  return <OrganizationsScreen />;
}
