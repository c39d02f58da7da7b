import { MEDIA_LIBRARY_MESSAGES as M, STAFF_MEDIA_PAGE_SIZE } from '@flashbooth/contracts/rules';
import { Breadcrumbs } from '@/components/console/breadcrumbs';
import { useStaffPermissions } from '@/components/console/use-staff-permissions';
import { isMobileUserAgent } from '@/components/media/media-files-model';
import { EmptyPanel, ListBody, LoadErrorPanel } from '@/components/ui/list-states';
import { ListPage } from '@/components/ui/list-page';
import { useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { usePagedView, useSearchPaging } from '@/hooks/use-search-paging';
import { organizationMediaQueryOptions, useOrganizationMedia } from '../api/get-organization-media';
import { useOrganizationName } from '../api/get-organization-name';
import { canModerate, STAFF_MEDIA_SKELETONS, STAFF_MEDIA_STATUS_MS } from '../staff-media-model';
import { StaffMediaCard, StaffMediaCardSkeleton } from './staff-media-card';
import { useStaffMediaActions } from './use-staff-media-actions';
import '@/components/console/console.css';
import './staff-media.css';

const onMobile = typeof navigator !== 'undefined' && isMobileUserAgent(navigator.userAgent);

/**
 * Organization media (staff spec section 2): the organization's media whose owners allow
 * reposting ("public media"), with Hide from wall for its admins and privileged staff.
 */
export function OrganizationMediaScreen({ orgId }: { orgId: number }) {
  const { status, show } = useTimedStatus(STAFF_MEDIA_STATUS_MS);
  const permissions = useStaffPermissions(show);
  const orgName = useOrganizationName(orgId);
  const paging = useSearchPaging();
  const { search, page } = paging;
  const media = useOrganizationMedia(orgId, search, page);
  const { items, totalPages } = usePagedView(paging, media, STAFF_MEDIA_PAGE_SIZE);
  const onAction = useStaffMediaActions(
    organizationMediaQueryOptions(orgId, { search, page }).queryKey,
    show,
  );

  return (
    <ListPage
      className="console-page staff-media-page"
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
      paging={paging}
      query={media}
      searchLabel="Search public media"
      searchPlaceholder={M.searchPlaceholder}
      totalPages={totalPages}
      pagesLabel="Media pages"
      after={<Toast status={status} ms={STAFF_MEDIA_STATUS_MS} />}
    >
      <ListBody
        query={media}
        items={items}
        listClassName="card-grid staff-media-grid"
        listLabel={`${orgName} public media`}
        itemKey={(item) => item.id}
        renderItem={(item) => (
          <StaffMediaCard
            item={item}
            canShare={onMobile}
            showRepostBadge={false}
            canModerate={canModerate(permissions.principal, item)}
            onAction={onAction}
          />
        )}
        loadingLabel="Loading media…"
        skeletonCount={STAFF_MEDIA_SKELETONS}
        renderSkeleton={(index) => <StaffMediaCardSkeleton portrait={index % 2 === 1} />}
        error={
          <LoadErrorPanel
            className="card panel-message panel-message-error console-panel"
            message={M.loadOrganizationMediaFailed}
            query={media}
          />
        }
        empty={
          <EmptyPanel className="console-panel">
            <p>{M.noPublicMedia}</p>
          </EmptyPanel>
        }
      />
    </ListPage>
  );
}
