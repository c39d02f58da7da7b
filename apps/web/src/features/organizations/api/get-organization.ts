/** Moved to the shared endpoints (the media screens' breadcrumb reads it too); import it from there. */
export {
  getOrganization,
  organizationQueryOptions,
  useOrganization,
} from '@/api/organizations/get-organization';
