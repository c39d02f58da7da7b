import { MEDIA_LIBRARY_MESSAGES as M, STAFF_MEDIA_PAGE_SIZE } from '@flashbooth/contracts/rules';
import { Breadcrumbs } from '@/components/console/breadcrumbs';
import { useStaffPermissions } from '@/components/console/use-staff-permissions';
import { useTimedStatus } from '@/components/ui/status-message';
import { paths } from '@/config/paths';
import { usePagedView, useSearchPaging } from '@/hooks/use-search-paging';
import { organizationMediaQueryOptions, useOrganizationMedia } from '../api/get-organization-media';
import { useOrganizationName } from '../api/get-organization-name';
import { STAFF_MEDIA_STATUS_MS } from '../staff-media-model';
import { ModerationLogPanel } from './moderation-log-panel';
import { StaffMediaListPage } from './staff-media-list-page';

/**
 * Organization media (staff spec section 2): the organization's media whose owners allow
 * reposting ("public media"), with Hide from wall for its admins and privileged staff, and for
 * them the organization's moderation log above the list.
 */
export function OrganizationMediaScreen({ orgId }: { orgId: number }) {
  const { status, show } = useTimedStatus(STAFF_MEDIA_STATUS_MS);
  const permissions = useStaffPermissions(show);
  const orgName = useOrganizationName(orgId);
  const paging = useSearchPaging();
  const { search, page } = paging;
  const media = useOrganizationMedia(orgId, search, page);
  const { items, totalPages } = usePagedView(paging, media, STAFF_MEDIA_PAGE_SIZE);

  return (
    <StaffMediaListPage
      title={`${orgName} Media`}
      breadcrumbs={
        <Breadcrumbs
          items={[
            { label: 'Organizations', href: paths.enterprise.organizations.getHref() },
            { label: orgName, href: paths.enterprise.organization.getHref(orgId) },
            { label: 'Media' },
          ]}
        />
      }
      searchLabel="Search public media"
      listLabel={`${orgName} public media`}
      paging={paging}
      query={media}
      queryKey={organizationMediaQueryOptions(orgId, { search, page }).queryKey}
      items={items}
      totalPages={totalPages}
      permissions={permissions}
      status={status}
      show={show}
      showRepostBadge={false}
      loadFailed={M.loadOrganizationMediaFailed}
      refusal={{
        thing: 'organization',
        back: { href: paths.enterprise.organizations.getHref(), label: 'Back to Organizations' },
      }}
      emptyText={M.noPublicMedia}
    >
      {permissions.can('organization.moderate', orgId) && <ModerationLogPanel orgId={orgId} />}
    </StaffMediaListPage>
  );
}
