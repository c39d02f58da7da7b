import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import {
  DeleteConfirm,
  DetailActions,
  DetailPage,
  LoadingCard,
  SkeletonLines,
  useDetailScreen,
} from '@/components/console/detail-page';
import { useStaffPermissions } from '@/components/console/use-staff-permissions';
import { paths } from '@/config/paths';
import { formatUtcTimestamp } from '@/lib/format-date';
import { useDeleteOrganization } from '../api/delete-organization';
import { organizationQueryOptions, useOrganization } from '@/api/organizations/get-organization';
import {
  ORGANIZATION_SCREEN_TEXT,
  ORGANIZATION_STATUS_MS,
  organizationTitle,
} from '../organizations-model';
import { EditOrganizationDialog } from './edit-organization-dialog';
import { LogoUploader } from './logo-uploader';
import '@/components/console/console.css';
import './organizations.css';

const M = ORGANIZATION_MESSAGES;
const NOT_SET = 'Not set';

/** The organization's placeholder while it loads: the logo and the facts. */
function OrganizationSkeleton() {
  return (
    <LoadingCard label="Loading organization…" className="card org-detail">
      <div className="org-detail-logo">
        <span className="org-logo skeleton" />
      </div>
      <SkeletonLines className="org-detail-body" lines={5} first={80} step={8} />
    </LoadingCard>
  );
}

/** Organization detail (staff spec section 2). */
export function OrganizationDetailScreen({ orgId }: { orgId: number }) {
  const screen = useDetailScreen({
    remove: useDeleteOrganization(orgId),
    queryKey: organizationQueryOptions(orgId).queryKey,
    list: { label: 'Organizations', href: paths.enterprise.organizations.getHref() },
    statusMs: ORGANIZATION_STATUS_MS,
  });
  const permissions = useStaffPermissions(screen.show);
  const organization = useOrganization(orgId);
  const canEdit = permissions.can('organization.edit', orgId);
  const canDelete = permissions.can('organization.delete', orgId);
  const link = (label: string, href: string) => ({ label, href });

  return (
    <DetailPage
      screen={screen}
      title={organizationTitle(organization.data)}
      query={organization}
      skeleton={<OrganizationSkeleton />}
      failed={{ thing: 'organization', message: M.loadDetailsFailed }}
    >
      {(record) => (
        <>
          <div className="card org-detail">
            <LogoUploader
              organization={record}
              canUpload={canEdit}
              disabled={screen.busy}
              onStatus={screen.show}
            />
            <dl className="console-facts org-detail-body">
              <dt>ID</dt>
              <dd>{record.id}</dd>
              <dt>Phone</dt>
              <dd>{record.phone || NOT_SET}</dd>
              <dt>Email</dt>
              <dd>{record.email || NOT_SET}</dd>
              <dt>Address</dt>
              <dd className="org-address">{record.address || NOT_SET}</dd>
              <dt>Created At</dt>
              <dd>{formatUtcTimestamp(record.created_at)}</dd>
            </dl>
          </div>

          <DetailActions
            label="Organization actions"
            className="org-detail-actions"
            busy={screen.busy}
            actions={[
              {
                label: 'Edit Organization',
                className: 'btn-primary org-action-wide',
                shown: canEdit,
                onClick: () => screen.open('edit'),
              },
              link('View Media', paths.enterprise.organizationMedia.getHref(orgId)),
              link('View Users', paths.enterprise.organizationUsers.getHref(orgId)),
              link('View Guests', paths.enterprise.organizationGuests.getHref(orgId)),
              link('View Statistics', paths.enterprise.organizationStats.getHref(orgId)),
              {
                label: 'Delete Organization',
                className: 'btn-danger org-action-wide',
                shown: canDelete,
                onClick: () => screen.open('delete'),
              },
            ]}
          />

          {screen.dialog === 'edit' && (
            <EditOrganizationDialog
              organization={record}
              onClose={screen.close}
              onSaved={screen.done(ORGANIZATION_SCREEN_TEXT.updated)}
            />
          )}
          <DeleteConfirm
            screen={screen}
            title={M.deleteConfirmTitle}
            message={M.deleteConfirm}
            deleted={ORGANIZATION_SCREEN_TEXT.deleted}
            failed={M.deleteFailed}
          />
        </>
      )}
    </DetailPage>
  );
}
